"""A game record as one self-contained HTML page: every position of the match, step by step.

:func:`view_record` replays a record through the reference, exactly as ``hanafuda validate`` does
(:func:`hanafuda.records.validate_document`, whose ``observe`` hook hands over every position), and
keeps each position: the hands, the table, the capture piles with the yaku they hold, the scores.
The validator's problems are placed at the step they concern: an illegal action gets a step of its
own, showing the position it was played in; a problem of a whole deal sits at that deal's
settlement. :func:`render_html` writes the page: no network, no external file, the card pictures
embedded, stepped with the arrow keys or the buttons. The page opens at the first problem.

>>> from hanafuda.records import record_match
>>> from hanafuda.registry import game
>>> doc = record_match(game("koikoi"), None, {"length": "1"}, seed=5, policy_seed=5)
>>> v = view_record(doc)
>>> v.valid, v.frames[0].caption
(True, 'Deal 1: the cards are dealt')
>>> doc["actions"][3] = "play 999"
>>> v = view_record(doc)
>>> first = v.problems[0]
>>> first.rule_id, v.frames[v.start].problems[0] == 0
('KK-TURN-2', True)
>>> page = render_html(v)
>>> "KK-TURN-2" in page and "://" not in page.replace("http://www.w3.org/", "")
True
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hanafuda_spec.cards import BaseCard
from hanafuda_spec.catalogue import OptionError
from hanafuda_spec.records import Problem, parse_record

from hanafuda.engine import MatchInfo
from hanafuda.records import validate_document
from hanafuda.registry import UnknownGameError, game
from hanafuda.rulebook.pictures import card_image_uri

__all__ = ["Frame", "RecordView", "ViewError", "render_html", "view_record"]


class ViewError(ValueError):
    """The document cannot be shown: it is not a record, or no deal of it can be dealt."""


@dataclass(frozen=True)
class Frame:
    """One step of the page: a position, what led to it, and the problems placed there (indices into
    :attr:`RecordView.problems`)."""

    deal: int
    action: int | None
    caption: str
    zones: tuple[tuple[str, tuple[int, ...]], ...]
    to_move: int | None
    scores: tuple[int, ...]
    yaku: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
    problems: tuple[int, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class RecordView:
    """A replayed record: its game, seats, steps and problems; :attr:`start` is the step the page opens at."""

    game: str
    title: str
    players: tuple[str, ...]
    actions: tuple[str, ...]
    frames: tuple[Frame, ...]
    problems: tuple[Problem, ...]
    cards: Mapping[int, str] = field(default_factory=dict)
    start: int = 0
    deck: tuple[BaseCard, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.problems


def _describe(text: str, cards: Mapping[int, str]) -> str:
    """An action's text with the names of the cards it names: ``play 112 (Willow with Ribbon)``."""
    ids = [int(t) for t in re.findall(r"\b\d+\b", text) if int(t) in cards]
    return f"{text} ({', '.join(cards[i] for i in ids)})" if ids else text


def view_record(doc: Any, record: int = 1, line: int | None = None, *, lenient: bool = False) -> RecordView:
    """Replay one decoded record and keep every position. Raises :class:`ViewError` when the document
    is not a record or no deal can be dealt (an unknown game, unknown options): nothing to show."""
    frames: list[dict[str, Any]] = []
    ctx: dict[str, Any] = {}

    def observe(event: str, deal: int, action: int | None, state: Any, info: MatchInfo) -> None:
        g = ctx["g"]
        if state is None:  # a deal settled from the record's own claim: the last position stays
            last = frames[-1] if frames else None
            zones = last["zones"] if last else ()
            yaku: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = last["yaku"] if last else ()
            to_move = None
        else:
            snap = g.snapshot(state, info)
            zones, to_move = snap.zones, snap.to_move
            yaku = _pile_yaku(g, ctx["rules"], snap.zones, snap.round)
        if event == "deal":
            caption = f"Deal {deal}: the cards are dealt"
        elif event == "action":
            assert action is not None
            caption = f"Deal {deal}, action {action}: {_describe(ctx['texts'][action], ctx['names'])}"
        else:
            result = info.history[-1] if info.history else None
            caption = f"Deal {deal} settled" + (f" ({result.reason})" if result is not None else "")
            if result is not None:
                caption += ": " + ", ".join(f"{ctx['players'][s]} {d:+d}" for s, d in enumerate(result.deltas))
            if state is None:
                caption += " — from the record's claimed result (the deal could not be replayed to its end)"
        frames.append({"deal": deal, "action": action, "caption": caption, "zones": zones, "to_move": to_move,
                       "scores": tuple(info.scores), "yaku": yaku, "problems": []})

    rec, _ = parse_record(doc, record=record, line=line, lenient=lenient)
    if rec is None:  # not a record: the validator says why
        rep = validate_document(doc, record, line, lenient)
        raise ViewError(str(rep.problems[0]) if rep.problems else "not a game record")
    try:
        g: Any = game(rec.game)
        rules = g.rules(rec.ruleset, rec.options)
    except (UnknownGameError, OptionError):  # nothing can be dealt: the validator says why
        rep = validate_document(doc, record, line, lenient)
        raise ViewError(str(rep.problems[0]) if rep.problems else "no deal can be dealt") from None
    deck = g.deck(rules)
    ctx.update(g=g, rules=rules, names={c.id: c.name_en for c in deck.cards},
               texts=[a.text or (f"draw {a.draw}" if a.draw is not None else "") for a in rec.actions],
               players=[rec.players[s] if s < len(rec.players) else f"seat {s}" for s in range(g.seats(rules))])
    report = validate_document(doc, record, line, lenient, observe=observe)
    if report.unusable or not frames:
        first = report.problems[0] if report.problems else None
        raise ViewError(str(first) if first is not None else "nothing to show: no deal could be dealt")
    problems = tuple(report.problems)
    out = _place(frames, problems)
    start = next((i for i, f in enumerate(out) if f.problems and 0 in f.problems), 0) if problems else 0
    return RecordView(g.spec.key, g.spec.name, tuple(ctx["players"]), tuple(ctx["texts"]), tuple(out), problems,
                      {c.id: c.name_en for c in deck.cards}, start, tuple(deck.cards))


def _pile_yaku(g: Any, rules: Any, zones: Sequence[tuple[str, tuple[int, ...]]],
               round_no: int) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
    """The yaku each capture pile holds as it stands (the scorer of the reference, as the examples use)."""
    deck = g.deck(rules)
    names = g.yaku_names(rules)
    month = (round_no - 1) % 12 + 1
    out = []
    for zone, cards in zones:
        if zone.startswith("captured."):
            ps = g.score(rules, [deck.by_id(c) for c in cards], month)
            out.append((zone, tuple((names.get(y.id, y.id), y.points) for y in ps.yaku)))
    return tuple(out)


def _place(frames: list[dict[str, Any]], problems: Sequence[Problem]) -> list[Frame]:
    """Put each problem at its step: the step of its action; for an action that was not applied
    (an illegal one), a step of its own after the last position before it; a deal's problem at that
    deal's settlement; the others at the last step."""
    extra: dict[int, list[int]] = {}  # a new step after frame i, for these problems
    for k, p in enumerate(problems):
        a, d = p.where.action, p.where.deal
        at = next((i for i, f in enumerate(frames) if a is not None and f["action"] == a), None)
        if at is not None:
            frames[at]["problems"].append(k)
            continue
        if a is not None:
            before = [i for i, f in enumerate(frames) if f["action"] is not None and f["action"] < a
                      and (d is None or f["deal"] == d)] or [i for i, f in enumerate(frames)
                                                           if d is None or f["deal"] <= d]
            extra.setdefault(before[-1] if before else 0, []).append(k)
            continue
        settle = [i for i, f in enumerate(frames) if f["action"] is None and (d is None or f["deal"] == d)]
        frames[settle[-1] if settle else len(frames) - 1]["problems"].append(k)
    out: list[Frame] = []
    for i, f in enumerate(frames):
        out.append(_frame(f))
        for k in extra.get(i, []):
            p = problems[k]
            text = f"Deal {p.where.deal}, action {p.where.action}: not played (the rules do not allow it)"
            out.append(_frame({**f, "caption": text, "action": p.where.action, "problems": [k]}))
    return out


def _frame(f: Mapping[str, Any]) -> Frame:
    return Frame(f["deal"], f["action"], f["caption"], tuple(f["zones"]), f["to_move"], tuple(f["scores"]),
                 tuple(f["yaku"]), tuple(f["problems"]))


# -- the page -------------------------------------------------------------------------------------


def _zone_label(zone: str, players: Sequence[str]) -> str:
    kind, _, seat = zone.partition(".")
    if seat.isdigit() and int(seat) < len(players):
        who = players[int(seat)]
        return {"hand": f"{who}'s hand", "captured": f"{who}'s captures"}.get(kind, f"{kind} {who}")
    return {"field": "Table", "pile": "Table", "stock": "Draw pile", "drawn": "Card drawn",
            "out.oni": "Out: the Oni-fuda", "out.willows": "Out: the willows",
            "out.facedown": "Out: face down"}.get(zone, zone)


#: What the page may load: nothing but itself (its inline style and script, and data: pictures).
_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"

_CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;background:#f7f4ec;color:#222}
header{position:sticky;top:0;max-height:60vh;overflow:auto;background:#fffaf0;border-bottom:1px solid #ccb;
  padding:.5rem .75rem;z-index:2}
h1{font-size:1.15rem;margin:.1rem 0}
.controls{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}
button{font-size:1rem;padding:.3rem .8rem;border:1px solid #887;border-radius:4px;background:#fff;cursor:pointer}
#caption{font-weight:600;margin:.3rem 0}
main{padding:.5rem .75rem;display:grid;grid-template-columns:minmax(0,1fr) 22rem;gap:1rem}
@media (max-width:900px){main{grid-template-columns:minmax(0,1fr)}header{position:static;max-height:none}}
.cards img{max-width:18vw}
.zone{background:#fff;border:1px solid #ddd4c0;border-radius:6px;padding:.35rem .5rem;margin:.35rem 0}
.zone h2{font-size:.9rem;margin:0 0 .25rem}
.cards{display:flex;flex-wrap:wrap;gap:4px;min-height:20px}
.cards img{width:64px;height:auto;display:block}
.yaku{font-size:.85rem;color:#5a3d00;margin-top:.2rem}
.tomove{outline:3px solid #2e7d32}
.problem{background:#fdecea;border:2px solid #c62828;border-radius:6px;padding:.4rem .6rem;margin:.4rem 0}
.problem b{color:#b71c1c}
#log{position:relative;max-height:70vh;overflow:auto;font-size:.85rem;background:#fff;border:1px solid #ddd4c0;
  border-radius:6px}
#log ol{margin:0;padding:.3rem .3rem .3rem 2.6rem}
#log li{padding:1px 3px;cursor:pointer}
#log li.current{background:#fff3c4}
#log li.bad{color:#b71c1c;font-weight:700}
.scores{font-size:.9rem}
#banner{margin:.3rem 0}
@media print{header{position:static}#log{max-height:none}}
"""

_JS = r"""
const D = JSON.parse(document.getElementById('data').textContent);
let i = D.start;
const $ = (id) => document.getElementById(id);
function esc(s){const d=document.createElement('div');d.textContent=s;return d.innerHTML;}
function card(id){const c=D.cards[id];return '<img src="'+c.src+'" alt="'+esc(c.name)+'" title="'+esc(c.name)+'">';}
function problemHtml(k){const p=D.problems[k];
  return '<div class="problem" role="alert"><b>['+esc(p.rule)+']</b> '+esc(p.where)+': '+esc(p.reason)+'</div>';}
function show(n){
  i = Math.max(0, Math.min(D.frames.length-1, n));
  const f = D.frames[i];
  $('step').textContent = 'step '+(i+1)+' of '+D.frames.length;
  $('caption').textContent = f.caption;
  $('here').innerHTML = f.problems.map(problemHtml).join('');
  let h = '<div class="scores">Scores: '+D.players.map((p,s)=>esc(p)+' '+f.scores[s]).join(' · ')+'</div>';
  const rank = (z) => { const [k, s] = z.split('.'); const n = /^\d+$/.test(s||'') ? +s : -1;
    if (n >= 0) return 10 + 2*n + (k === 'captured' ? 1 : 0);
    return {field:0, pile:0, drawn:1, stock:2}[z] ?? 100; };
  const zones = f.zones.slice().sort((a, b) => rank(a[0]) - rank(b[0]));
  for (const [zone, cards] of zones){
    const label = D.labels[zone] || zone;
    const hidden = zone === 'stock';
    const mover = f.to_move !== null && zone === 'hand.'+f.to_move;
    h += '<section class="zone'+(mover?' tomove':'')+'" data-zone="'+esc(zone)+'"><h2>'+esc(label)+
         ' ('+cards.length+(cards.length===1?' card':' cards')+')'+(mover?' — to move':'')+'</h2>';
    if (!hidden) h += '<div class="cards">'+cards.map(card).join('')+'</div>';
    const y = (f.yaku.find(([z])=>z===zone)||[null,[]])[1];
    const pts = (p) => p + (p === 1 ? ' point' : ' points');
    if (y.length) h += '<div class="yaku">Yaku: '+y.map(([n,p])=>esc(n)+' ('+pts(p)+')').join(', ')+'</div>';
    h += '</section>';
  }
  $('board').innerHTML = h;
  document.querySelectorAll('#log li').forEach(li=>li.classList.toggle('current', +li.dataset.a === f.action));
  const cur = document.querySelector('#log li.current'), log = $('log');  // scroll the log box, not the page
  if (cur) log.scrollTop = Math.max(0, cur.offsetTop - log.clientHeight / 2);
}
document.addEventListener('keydown', (e)=>{
  if (e.key==='ArrowRight'){show(i+1);e.preventDefault();}
  else if (e.key==='ArrowLeft'){show(i-1);e.preventDefault();}
  else if (e.key==='Home'){show(0);e.preventDefault();}
  else if (e.key==='End'){show(D.frames.length-1);e.preventDefault();}
});
$('prev').onclick=()=>show(i-1); $('next').onclick=()=>show(i+1);
$('first').onclick=()=>show(0); $('last').onclick=()=>show(D.frames.length-1);
if ($('goto')) $('goto').onclick=()=>show(D.start);
document.querySelectorAll('#log li').forEach(li=>li.onclick=()=>{
  const k = D.frames.findIndex(f=>f.action === +li.dataset.a); if (k>=0) show(k);});
show(i);
"""


def render_html(v: RecordView, images: Mapping[int, str] | None = None) -> str:
    """The page of a replayed record: one HTML document, its styles, script, data and card pictures
    inline (``images``: card id -> data URI; by default the rulebook's pictures)."""
    deck_cards = {c.id: c for c in v.deck}
    used = {c for f in v.frames for _, z in f.zones for c in z}
    srcs = dict(images) if images is not None else {}
    cards = {str(i): {"name": v.cards.get(i, str(i)), "src": srcs.get(i) or card_image_uri(deck_cards[i])}
             for i in sorted(used) if i in deck_cards}
    zones = {z for f in v.frames for z, _ in f.zones}
    data = {
        "start": v.start,
        "players": list(v.players),
        "labels": {z: _zone_label(z, v.players) for z in zones},
        "cards": cards,
        "problems": [{"rule": p.rule_id, "reason": p.reason, "where": str(p.where)} for p in v.problems],
        "frames": [{"caption": f.caption, "action": f.action, "zones": [[z, list(c)] for z, c in f.zones],
                    "to_move": f.to_move, "scores": list(f.scores),
                    "yaku": [[z, [list(y) for y in ys]] for z, ys in f.yaku], "problems": list(f.problems)}
                   for f in v.frames],
    }
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    bad_actions = {p.where.action for p in v.problems if p.where.action is not None}
    log = "".join(
        f'<li value="{k}" data-a="{k}"' + (' class="bad"' if k in bad_actions else "") + ">"
        + html.escape(_describe(t, v.cards)) + "</li>" for k, t in enumerate(v.actions))
    if v.problems:
        p = v.problems[0]
        more = f" ({len(v.problems) - 1} more listed at their steps)" if len(v.problems) > 1 else ""
        banner = (f'<div class="problem" id="first-problem"><b>Invalid record.</b> First problem: '
                  f"<b>[{html.escape(p.rule_id)}]</b> {html.escape(str(p.where))}: {html.escape(p.reason)}"
                  f'{html.escape(more)} <button id="goto" type="button">show it</button></div>')
    else:
        banner = '<div id="valid">The record is valid: every action replays under the rules.</div>'
    title = f"{v.title}: {' vs '.join(v.players)}"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{_CSP}">
<title>{html.escape(title)}</title><style>{_CSS}</style></head>
<body><header><h1>{html.escape(title)}</h1>
<div id="banner">{banner}</div>
<div class="controls"><button id="first" type="button" aria-label="first step">|◀</button>
<button id="prev" type="button" aria-label="previous step">◀ back</button>
<button id="next" type="button" aria-label="next step">forward ▶</button>
<button id="last" type="button" aria-label="last step">▶|</button>
<span id="step"></span> <small>(arrow keys ← → step; Home, End)</small></div>
<div id="caption"></div><div id="here"></div></header>
<main><div id="board"></div><aside id="log"><ol start="0">{log}</ol></aside></main>
<script type="application/json" id="data">{payload}</script>
<script>{_JS}</script></body></html>
"""
