"""The pages a player learns from: How to play, the example round, the yaku gallery and the quick
reference of each game.

* :func:`howto_page` writes the introduction from :data:`hanafuda_spec.games.howto.HOWTO`; every
  sentence links the rules it summarises, and the deck, yaku and value tables are generated from
  the catalogue.
* :func:`example_page` draws the example round of :mod:`hanafuda.rulebook.example` from its
  checked record: the deal, one line of pictures per turn, the yaku as they form, the settlement
  with its arithmetic.
* :func:`gallery_page` shows every yaku or dekiyaku with its cards, points and the options that
  change it; :func:`quickref_page` fits the game on two printed A4 sides.

>>> rid_links(("KK-EQ-1", "KK-SCORE-1"))
'[{ref}`KK-EQ-1 <kk-eq-1>`, {ref}`KK-SCORE-1 <kk-score-1>`]{.rids}'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hanafuda_spec.cards import DECKS, HANAFUDA, Deck
from hanafuda_spec.catalogue import Evidence, GameSpec
from hanafuda_spec.games.howto import HOWTO, HowToPlay, Section
from hanafuda_spec.neutral import Snapshot

from hanafuda.registry import game
from hanafuda.rulebook.example import EXAMPLES, DealView, replay_deal
from hanafuda.rulebook.pictures import picture_name
from hanafuda.rulebook.yakuview import YakuView, card_difference, game_yaku

__all__ = ["EVIDENCE_BADGES", "evidence_legend", "example_page", "gallery_page", "howto_page", "landing_page",
           "legend", "quickref_page", "rid_links", "sources_table", "write_learning", "yaku_names"]

#: The short badge of each kind of evidence, and what it means (one legend per book).
EVIDENCE_BADGES: dict[Evidence, tuple[str, str]] = {
    Evidence.SEED: ("seed", "stated in the seed document, the page this project started from"),
    Evidence.LATER_REVISION: ("revision", "taken from a later revision of the same page"),
    Evidence.RELATED_SOURCE: ("related", "taken from a page the seed defers to, or that a decision adopts"),
    Evidence.DECISION: ("decision", "our decision where the sources are silent or disagree; the decisions page "
                                    "gives the question, the readings and the reason"),
    Evidence.IMPLEMENTATION: ("engine", "taken from an open engine's code, for that engine's profile: the "
                                        "citation names its repository, commit, file and function"),
}


def _md(text: str) -> str:
    from hanafuda.rulebook.pages import md_escape

    return md_escape(text)


def _label(rule_id: str) -> str:
    from hanafuda.rulebook.pages import rule_label

    return rule_label(rule_id)


def rid_links(rule_ids: Sequence[str]) -> str:
    """The rule ids a sentence summarises, as small links to the rules."""
    return "[" + ", ".join(f"{{ref}}`{r} <{_label(r)}>`" for r in rule_ids) + "]{.rids}"


def _deck(spec: GameSpec) -> Deck:
    return DECKS.get(spec.deck, HANAFUDA)


def _family(deck: Deck) -> Deck:
    from hanafuda_spec.cards import DAINI_JIZO

    return DAINI_JIZO if deck.name.startswith("daini") else HANAFUDA


def _img(cid: int, deck: Deck, rel: str = "../cards") -> str:
    from hanafuda.rulebook.pages import card_image

    return card_image(_family(deck).by_id(cid), rel)


def _imgs(ids: Sequence[int], deck: Deck, rel: str = "../cards") -> str:
    return " ".join(_img(c, deck, rel) for c in ids) if ids else "—"


def legend(deck: Deck) -> str:
    """What every mark on the card pictures means."""
    if _family(deck) is HANAFUDA:
        return ("*Reading the pictures:* each card shows its month's plant; the Brights, Animals and Ribbons "
                "add their subject (the crane and sun, the curtain, the moon, the Rain Man, the phoenix; the "
                "bush warbler, the cuckoo, the bridge, the butterflies, the boar, the geese, the sake cup, the "
                "deer, the swallow; a red poetry ribbon with writing, a plain red or a blue ribbon), and the "
                "Chaff show the plant alone (the willow's Chaff is the lightning). The faces are Louie "
                "Mantia, Jr.'s deck (CC BY-SA 4.0); see {ref}`the card pictures <card-pictures>`.")
    return ("*Reading the pictures:* the number of batons is the rank (the tens show a standing figure), and "
            "the rank is written in each corner. The special cards are marked by a dot in the top right "
            "corner: the red I-tsun among the 1s, the gold special 3 and the silver I-shi among the 4s. "
            "The two jokers show the Oni (a demon) and the Jizo (a stone statue).")


def yaku_names(key: str) -> dict[str, str]:
    """Display names of a game's yaku ids (every option set)."""
    from hanafuda.rulebook.yakuview import display_names

    return display_names(key)


# -- How to play --------------------------------------------------------------------------------


def _section(spec: GameSpec, s: Section, n: int) -> list[str]:
    out = [f"## {n}. {s.title}", ""]
    for line in s.lines:
        out += [_md(line.text) + " " + rid_links(line.rules), ""]
    deck = _deck(spec)
    if s.show == "deck":
        from hanafuda.rulebook.pages import deck_grid

        out += [deck_grid(deck, "../cards"), legend(deck), ""]
    elif s.show == "yaku":
        out += _yaku_strip(spec, deck)
    elif s.show == "values":
        from hanafuda.rulebook.pages import value_tables

        text = value_tables(spec, deck)
        if text:
            lines = [x for x in text.splitlines() if not x.startswith(f"({spec.key}-value-tables)=")]
            notes: dict[str, str] = {}

            def worded(m: re.Match[str]) -> str:  # the option name goes to a footnote, for implementers
                notes[f"{m[1]}-{m[2]}"] = f"{m[1]}={m[2]}"
                return f"({m[2].replace('-', ' ')} values)[^{m[1]}-{m[2]}]"

            out += [re.sub(r"\(`([a-z_]+)=([^`]+)`\)", worded, x) for x in lines]
            out.append("")
            out += [f"[^{k}]: For implementers: the option `{v}`." for k, v in notes.items()]
            out.append("")
    elif s.show == "example":
        ex = EXAMPLES.get(spec.key)
        if ex is not None:
            out += [f"To see all of this at work, follow {{ref}}`the example round <{spec.key}-example>`: "
                    f"{_md(ex.shows)}.", ""]
    return out


def points_text(points: str) -> str:
    """``"1 point"``, ``"5 points"`` (a value that is not a number is left as it is)."""
    p = points.strip()
    if not p.lstrip("+-").isdigit():
        return p
    return f"{p} point" if p in ("1", "-1", "+1") else f"{p} points"


def group_rule(views: Sequence[YakuView]) -> str | None:
    """The sentence that says yaku of one group do not add up (None when the game has no groups)."""
    groups: dict[str, list[str]] = {}
    for v in views:
        if v.group and not v.option and v.name not in groups.setdefault(v.group, []):
            groups[v.group].append(v.name)
    named = [names for names in groups.values() if len(names) > 1]
    if not named:
        return None

    def listing(names: list[str]) -> str:
        return ", ".join(_md(n) for n in names[:-1]) + " or " + _md(names[-1])

    return ("**Only the best yaku of each group counts**: a pile that forms several of " + "; several of ".join(
        listing(n) for n in named) + " scores only the most valuable of them.")


def _strip(views: Sequence[YakuView], deck: Deck) -> list[str]:
    """Each yaku as a small block: name and points, its cards, its condition in words under them."""
    out = ["::::{container} yaku-strip", ""]
    for v in views:
        cond = _md(v.condition[0].upper() + v.condition[1:]) if v.condition else ""
        out += [":::{container} yaku-mini", "", f"**{_md(v.name)}** · {points_text(v.points)}", "",
                _imgs(v.cards, deck), "", *([f"*{cond}*", ""] if cond else []), ":::", ""]
    return [*out, "::::", ""]


def _yaku_strip(spec: GameSpec, deck: Deck) -> list[str]:
    views = [v for v in game_yaku(spec.key) if not v.option]
    out = _strip(views, deck)
    rule = group_rule(views)
    if rule:
        out += [rule, ""]
    out += [f"Every yaku with the house rules that change it: {{ref}}`the yaku gallery <{spec.key}-gallery>`.",
            ""]
    return out


def _value(v: object) -> str:
    """An option value as the catalogue spells it (a plain string, or an enum member's value)."""
    return str(getattr(v, "value", v))


def value_words(v: object) -> str:
    """An option value in words: ``new-or-improved`` -> ``new or improved``, ``sake+lightning`` ->
    ``sake and lightning``."""
    return _value(v).replace("-", " ").replace("+", " and ")


def option_words(key: str) -> str:
    """An option's name in words: ``five_brights`` -> ``Five brights``."""
    words = key.replace("_", " ")
    return words[0].upper() + words[1:]


_SETTING = re.compile(r"\b([a-z_]+)=([a-z0-9+-]+)\b")


def in_words(text: str) -> str:
    """Catalogue text with its ``key=value`` settings said in words (``payment_cap=none`` ->
    ``payment cap “none”``): the option syntax is for implementers' footnotes."""
    return _SETTING.sub(lambda m: f"{m[1].replace('_', ' ')} “{value_words(m[2])}”", text)


def variants_section(spec: GameSpec, n: int) -> list[str]:
    """The "Variants (house rules)" section of How to play, generated from the catalogue's options
    and rulesets: each variation in words, its standard value, its source or our decision, and the
    option's name in a footnote for implementers. Each option opens with a click."""
    from hanafuda.rulebook.pages import cite

    out = [f"({spec.key}-house-rules)=", f"## {n}. Variants (house rules)", "",
           "Players often agree on house rules before they start. These are the ones this book knows: tap one to "
           "read what it changes and where it comes from. Without an agreement the standard value (in bold) is "
           f"played. For implementers, the footnotes name each option and {{ref}}`the options page "
           f"<{spec.key}-options>` lists them with their syntax.", ""]
    notes: list[str] = []
    for o in spec.options:
        choices = [_value(c) for c in o.choices]
        default = _value(o.default)
        others = [c for c in choices if c != default]
        label = f"variant-{spec.key}-{o.key}".replace("_", "-")
        out += [f":::{{details}} {_md(option_words(o.key))}: **{_md(value_words(default))}**", f":name: {label}", "",
                _md(in_words(o.text)) + f"[^opt-{label}]", "",
                f"Standard: {_md(value_words(default))}. "
                + ("Other choices: " if len(others) > 1 else "Other choice: ")
                + ", ".join(f"“{_md(value_words(c))}”" for c in others) + ".", ""]
        ours = [_value(c) for c in o.ours]
        source = f"Source: {cite(o.citation)}"
        if ours:
            source += ("; " + " and ".join(f"“{_md(value_words(c))}”" for c in ours)
                       + (" is" if len(ours) == 1 else " are") + " our own addition, which no source offers")
        out += [source + ".", ""]
        decided = [g for g in spec.gaps if o.key in g.options]
        if decided:
            out += ["Our decision on the standard value: " + ", ".join(
                f"{{ref}}`{_md(g.id)} <{_label(g.id)}>`" for g in decided) + ".", ""]
        out += [":::", ""]
        vals = " | ".join(choices)
        notes.append(f"[^opt-{label}]: For implementers: the option `{o.key}` ({vals}), standard `{default}`.")
    if spec.rulesets:
        out += ["Some published rules bundle several of these choices:", ""]
        for rs in spec.rulesets:
            vals = ", ".join(f"{option_words(k).lower()} “{value_words(v)}”" for k, v in rs.values.items())
            std = " (the standard rules)" if rs.name == spec.default_ruleset else ""
            out += [f"- **{_md(rs.name.replace('-', ' '))}**{std}: {_md(in_words(rs.text))} "
                    + (f"({_md(vals)}) " if vals else "") + f"{cite(rs.citation)}"]
        out.append("")
    out += [*notes, ""]
    return out


def howto_page(spec: GameSpec, howto: HowToPlay | None = None) -> str:
    """The How to play chapter of a rulebook."""
    howto = howto or HOWTO[spec.key]
    deck = _deck(spec)
    out = [f"({spec.key}-howto)=", f"# How to play {_md(spec.name)}", "",
           f"*{_md(spec.summary)}*", "",
           f"This chapter tells the game in plain words. Each sentence ends with the ids of the rules it "
           f"summarises; the rules themselves, with their sources, are in "
           f"{{ref}}`the rules <{spec.key}-rules>`. Deck: {_md(deck.name)}, {len(deck)} cards. New words "
           f"(yaku, dekiyaku, the table, the draw pile, …) are explained in the {{ref}}`glossary <glossary>`.", ""]
    for n, s in enumerate(howto.sections, 1):
        out += _section(spec, s, n)
    if spec.options:
        out += variants_section(spec, len(howto.sections) + 1)
    return "\n".join(out) + "\n"


# -- the example round --------------------------------------------------------------------------


def _seat(i: int, dealer: int) -> str:
    return f"seat {i}" + (" (dealer)" if i == dealer else "")


def _zone_title(name: str, dealer: int) -> str:
    if name.startswith("hand."):
        return f"Hand of {_seat(int(name.split('.')[1]), dealer)}"
    if name.startswith("captured."):
        return f"Captured by {_seat(int(name.split('.')[1]), dealer)}"
    return {"field": "The table", "pile": "The discard pile", "stock": "The draw pile",
            "out.facedown": "Face down, out of the round", "out.willows": "Willows set aside",
            "out.oni": "The Oni, out of the round", "redeal": "Hands dealt again from the stock"}.get(name, name)


def _position(s: Snapshot, deck: Deck, skip_empty: bool = True) -> list[str]:
    out = []
    for name, cards in s.zones:
        if name in ("stock", "drawn") or (skip_empty and not cards):
            continue
        out += [f"**{_zone_title(name, s.dealer)}** ({len(cards)})", "", _imgs(cards, deck), ""]
    out += [f"The draw pile holds {len(s.zone('stock'))} cards.", ""]
    return out


def _yaku_text(ys: Sequence[Any], names: Mapping[str, str]) -> str:
    return ", ".join(f"{_md(names.get(y.id, y.id))} ({points_text(str(y.points))})" for y in ys)


def _arithmetic(key: str, view: DealView, names: Mapping[str, str]) -> list[str]:
    r = view.result
    notes = dict(r.notes)
    seats = range(len(r.deltas))
    out: list[str] = []
    totals = [sum(y.points for y in side) for side in r.yaku] if r.yaku else []
    if key == "koikoi" and r.reason == "shobu" and r.winner is not None:
        base = notes.get("base", 0)
        factors = [(notes.get("seven", 1), "seven or more"), (notes.get("koikoi", 1), "the opponent's koi-koi"),
                   (notes.get("field", 1), "Brights on the table")]
        expr = " × ".join([str(base)] + [f"{f} ({why})" for f, why in factors if f != 1])
        out.append(f"Seat {r.winner} stopped with yaku worth {base}: {expr} = **{r.deltas[r.winner]}**; the "
                   f"opponent scores nothing.")
    elif key == "kusurigui":
        if totals:
            out.append(f"Dekiyaku totals {totals[0]} and {totals[1]}: the difference, "
                       f"{notes.get('settlement', abs(totals[0] - totals[1]))}, is paid to the higher total.")
        pays = [notes.get(f"payments.{i}", 0) for i in seats]
        if any(pays):
            out.append("Kusuri-gui payments made during the round: " + ", ".join(
                f"seat {i} {p:+d}" for i, p in enumerate(pays)) + "; each player's change is the settlement plus "
                "these payments.")
    elif key == "kujuroku" and r.card_points is not None:
        cps = [f"seat {i}: {r.card_points[i]} points → {_plural(notes.get(f'chips.{i}', 0), 'chip')}" for i in seats
               if f"chips.{i}" in notes]
        out.append("Card points against the chip table: " + "; ".join(cps) + ".")
    elif key == "kujuroku" and r.reason == "dekiyaku":
        out.append(f"The dekiyaku is worth {notes.get('value', '?')}: each other player in the round pays that "
                   f"to its maker.")
    elif key == "musashino":
        tot = [f"seat {i} {notes[f'total.{i}']}" for i in seats if f"total.{i}" in notes]
        if r.reason == "insta-win":
            out.append("An insta-win: each losing side pays the winning side the insta-win value, 8.")
        if tot:
            out.append("Dekiyaku totals: " + ", ".join(tot) + ".")
    elif key == "kekoro" and r.reason == "instant-victory":
        out.append(f"Seat {r.winner} is {notes.get('yaku_lead', 3)} yaku ahead and declares the instant victory: "
                   f"the round is not scored, and the declarer wins the game.")
    elif key == "kekoro" and r.card_points is not None:
        parts = [f"seat {i}: {r.card_points[i]} + 30 × {len(r.yaku[i]) if r.yaku else 0} = {r.deltas[i]}"
                 for i in seats]
        out.append("Card values plus 30 per yaku: " + "; ".join(parts) + ".")
    return out


#: How a round ended, in words (the reasons the games give their results).
_REASONS = {
    "shobu": "a player stopped (shōbu) and scores their yaku",
    "card-points": "the cards ran out; the round is settled by card points",
    "played-out": "the cards ran out",
    "insta-win": "a player formed an insta-win dekiyaku, which ends the round at once",
    "instant-victory": "a player three yaku ahead declared the instant victory",
    "dekiyaku": "a player formed a dekiyaku, which ends the round at once",
}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if abs(n) == 1 else f"{n} {word}s"


def _unit(key: str) -> str:
    return "chip" if key in ("kujuroku", "kusurigui") else "point"


def _kujuroku_chips(view: DealView, sitting: Sequence[int]) -> list[str]:
    """Kujuroku's card-point settlement in words: card points, the chip table, who pays whom."""
    r = view.result
    notes = dict(r.notes)
    chips = {i: notes[f"chips.{i}"] for i in range(len(r.deltas)) if f"chips.{i}" in notes}
    if r.card_points is None or not chips:
        return []
    out = ["Card points: " + ", ".join(f"seat {i} {r.card_points[i]}" for i in chips)
           + (f" (seat {sitting[0]} sits out this round)" if sitting else "")
           + ". Against the par of 96 the chip table gives "
           + ", ".join(f"seat {i} {c:+d}" for i, c in chips.items()) + "."]
    up = [i for i, c in chips.items() if c > 0]
    down = [i for i, c in chips.items() if c < 0]
    if len(up) == 2 and len(down) == 1:
        odd = down[0]
        out.append(f"Two players are up and one is down, so seat {odd} pays each of the others what they won: "
                   + " and ".join(f"{chips[i]} to seat {i}" for i in up)
                   + f", {' + '.join(str(chips[i]) for i in up)} = {sum(chips[i] for i in up)} in all.")
    elif len(up) == 1 and len(down) == 2:
        odd = up[0]
        out.append(f"Two players are down and one is up, so each of them pays seat {odd} what they lost: "
                   + " and ".join(f"seat {i} pays {-chips[i]}" for i in down)
                   + f", {sum(-chips[i] for i in down)} in all.")
    else:
        out.append("All three are on the same side of the par: nobody pays.")
    return out


def _at_end(view: DealView, deck: Deck, notes: Mapping[str, int]) -> list[str]:
    """Cards that change hands when the round ends (Kujuroku's remaining card), in words."""
    out = []
    c = notes.get("remaining-card")
    if c is not None and "oni-captive" in notes:
        holder = next((z for z, cards in view.end.zones if c in cards and z.startswith("captured.")), None)
        if holder is not None:
            out.append(f"The remaining card: the Oni-fuda captured {_md(card_name(notes['oni-captive'], deck))} "
                       f"during the round, so the last card of that rank, {_md(card_name(c, deck))}, goes to "
                       f"the player who holds the Oni-fuda, seat {holder.split('.')[1]}. {_imgs((c,), deck)}")
    return out


def _and(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def card_name(cid: int, deck: Deck) -> str:
    """A card's full name (``Willow with Rain Man (Ono no Michikaze)``)."""
    return _family(deck).by_id(cid).name_en


def _table_now(s: Snapshot, deck: Deck) -> str:
    """The table after a turn, one click away (an HTML ``details`` element; the pictures are the
    site's copies)."""
    cards = [c for name in ("field", "pile") for c in s.zone(name)]
    fam = _family(deck)
    imgs = "".join(f'<img alt="{c} {fam.by_id(c).name_en}" src="../../_images/{picture_name(fam.by_id(c))}">'
                   for c in cards) or "(empty)"
    return (f'<details class="table-now"><summary>The table after this turn ({_plural(len(cards), "card")}), '
            f'the draw pile {_plural(len(s.zone("stock")), "card")}</summary><div>{imgs}</div></details>')



def _storm_turn(key: str, opts: Mapping[str, str], t: Any, deck: Deck) -> str:
    """What a turn's capture means under Musashino's Storm and Sun rules (the empty string elsewhere)."""
    if key != "musashino" or opts.get("storm", "off") == "off":
        return ""
    from hanafuda_spec.games import musashino as mb

    out = []
    for c in t.captured:
        if c in mb.STORM_CARDS:
            out.append(f" {_md(card_name(c, deck))} is a Storm card: from now on the other players' Moon, Curtain "
                       f"and Cherry Blossoms with Poetry Ribbon no longer count for their dekiyaku.")
        elif c == mb.SUN_CARD and opts.get("sun", "off") != "off":
            piles = [z for z, _ in t.after.zones if z.startswith("captured.") and z != f"captured.{t.seat}"]
            earlier = [x for x in sorted(mb.STORM_CARDS) if x not in t.captured
                       and any(x in t.after.zone(z) for z in piles)]
            if earlier:
                out.append(" The Sun: the Crane is taken after " + " and ".join(
                    _md(card_name(x, deck)) for x in earlier) + " by an opponent of "
                    + ("its" if len(earlier) == 1 else "their") + " holder, so "
                    + ("that card no longer raises" if len(earlier) == 1 else "those cards no longer raise")
                    + " a Storm.")
    return "".join(out)


def _storm_end(key: str, ex: Any, view: DealView, names: Mapping[str, str]) -> list[str]:
    """Musashino's Storm and Sun at the end of the round: the dekiyaku each player loses to the Storm,
    and those the Sun gives back, found by asking the game with the rule switched off."""
    state = view.end_state
    if key != "musashino" or state is None or ex.options.get("storm", "off") == "off":
        return []
    import dataclasses

    g: Any = game(key)

    def dekiyaku(**change: str) -> list[set[str]]:
        rules = g.rules(ex.ruleset, {**ex.options, **change})
        s = dataclasses.replace(state, rules=rules)
        return [{y.id for y in g.side_dekiyaku(s, side)} for side in range(rules.sides)]

    from hanafuda_spec.games import musashino as mb

    now, no_sun, calm = dekiyaku(), dekiyaku(sun="off"), dekiyaku(storm="off", sun="off")
    deck = g.deck(g.rules(ex.ruleset, ex.options))
    pile = {int(z.split(".")[1]): set(c) for z, c in view.end.zones if z.startswith("captured.")}
    holder = {c: side for side, cards in pile.items() for c in cards if c in (*mb.STORM_CARDS, mb.SUN_CARD)}

    def cards(ids: Sequence[int]) -> str:
        return _and([card_name(c, deck) for c in sorted(ids)])

    def yaku(ids: Sequence[str]) -> str:
        return _and([names.get(y, y) for y in sorted(ids)])

    out = []
    for side, ys in enumerate(now):
        lost, saved = sorted(calm[side] - ys), sorted(ys - no_sun[side])
        victims = sorted(pile.get(side, set()) & mb.STORM_VICTIMS)
        if lost:
            storms = [c for c in mb.STORM_CARDS if holder.get(c, side) != side]
            out.append(f"The Storm: seat {side}'s pile holds {_md(cards(victims))}, and another player holds "
                       f"{_md(cards(storms))}, a Storm card, so seat {side} loses {_md(yaku(lost))}.")
        if saved:
            crane = holder.get(mb.SUN_CARD)
            out.append(f"The Sun: without it, the Storm would also have taken {_md(yaku(saved))} from seat {side}; "
                       + (f"seat {crane} took the Crane after the Storm card was taken, so" if crane is not None
                          else "the Crane called that Storm off, so")
                       + f" seat {side} keeps " + ("it" if len(saved) == 1 else "them") + ".")
    return out


def embedded_view(doc: Mapping[str, Any]) -> str:
    """The ``hanafuda view`` page of an example record, embedded in the example page (an ``iframe``
    whose ``srcdoc`` is the whole page: no other file, no network). Printed, the story stands in for it."""
    import html

    from hanafuda.view import render_html, view_record

    page = render_html(view_record(dict(doc)))
    return (f'<iframe class="record-view" title="The round, step by step" loading="lazy" '
            f'srcdoc="{html.escape(page, quote=True)}"></iframe>')


def example_page(spec: GameSpec, doc: Mapping[str, Any]) -> str:
    """The example round told as a story, drawn from a record
    :func:`~hanafuda.rulebook.example.load_checked` accepted: the deal, each turn in a sentence with
    its cards (and the table after it, one click away), the yaku as they form, the end of the round
    and the settlement with its arithmetic in words."""
    ex = EXAMPLES[spec.key]
    view = replay_deal(doc, ex)
    g = game(spec.key)
    rules = g.rules(ex.ruleset, ex.options)
    deck = g.deck(rules)
    names = {**yaku_names(spec.key), **g.yaku_names(rules)}
    opts = ", ".join(f"`{k}={v}`" for k, v in ex.options.items()) or "the defaults"
    start = view.start
    r = view.result
    notes = dict(r.notes)
    sitting = [i for i, z in enumerate(f"hand.{i}" for i in range(len(start.scores))) if not start.zone(z)]
    unit = _unit(spec.key)
    out = [f"({spec.key}-example)=", f"# {_md(spec.name)}: an example round", "",
           f"This round shows {_md(ex.shows)}. The players simply take the capturing move whenever they have "
           f"one. Every build of this book replays the round under the rules before drawing it, so what you "
           f"see is what the rules give.[^example-record]", "",
           f"[^example-record]: For implementers: deal {ex.deal} of the match of seed {ex.seed}, ruleset "
           f"{_md(doc['rules']['ruleset'])}, options {opts}; the record is `docs/examples/records/{spec.key}.json` "
           f"(`hanafuda view` steps through it).", "",
           "## Step through it", "",
           "Step through the whole match here, one action at a time, with the buttons or the arrow keys (click "
           "the viewer first): the hands, the table, the capture piles and the yaku as they form. The story below "
           "tells the same round in words.", "",
           "```{raw} html", embedded_view(doc), "```", "",
           "## The deal", "", f"Seat {start.dealer} deals. Before the round the players have "
           + ", ".join(f"seat {i} {_plural(sc, unit)}" for i, sc in enumerate(start.scores))
           + (f"; seat {sitting[0]} sits out this round" if sitting else "") + ".", "",
           ":::{container} example-deal", "", *_position(start, deck), ":::", "",
           "## The play", "",
           "Each turn in a sentence, with the cards; open the line under a turn to see the table after it.", ""]
    n = 0
    rules_opts = {k: str(v) for k, v in doc["rules"]["options"].items()}
    for t in view.turns:
        n += 0 if t.at_deal else 1
        who = _seat(t.seat, start.dealer).capitalize()
        said = []
        if t.at_deal:
            said.append(f"At the deal, {who.lower()} takes from the table")
        elif t.played:
            said.append(f"{who} plays {_md(', '.join(card_name(c, deck) for c in t.played))}")
        else:
            said.append(f"{who} plays")
        if t.drawn:
            said.append(f"turns over {_md(', '.join(card_name(c, deck) for c in t.drawn))}")
        if t.captured:
            said.append(f"captures {_plural(len(t.captured), 'card')}")
        elif t.to_table and not t.at_deal:
            said.append("captures nothing")
        sentence = ", ".join(said[:-1]) + (" and " if len(said) > 1 else "") + said[-1] + "."
        if t.to_table:
            sentence += f" {_plural(len(t.to_table), 'card').capitalize()} stay on the table." if len(
                t.to_table) > 1 else " One card stays on the table."
        sentence += _storm_turn(spec.key, rules_opts, t, deck)
        if 0 in t.captured and _family(deck) is not HANAFUDA:
            sentence += " The Oni-fuda is in their capture pile now."
        elsewhere = [c for c in t.captured if c not in t.after.zone(f"captured.{t.seat}")]
        if elsewhere:
            sentence += (f" {_md(', '.join(card_name(c, deck) for c in elsewhere))} goes to another player's pile "
                         f"(see the end of the round).")
        parts = []
        if t.played:
            parts.append("plays " + _imgs(t.played, deck))
        if t.drawn:
            parts.append("turns over " + _imgs(t.drawn, deck))
        if t.captured:
            parts.append("captures " + _imgs(t.captured, deck))
        for zone, cards in t.elsewhere:
            parts.append(f"{_md(_zone_title(zone, start.dealer)).lower()}: " + _imgs(cards, deck))
        head = f"**At the deal.** {sentence}" if t.at_deal else f"**{n}.** {sentence}"
        out += [":::{container} turn", "", head, "", " · ".join(parts) if parts else "", ""]
        if t.new_yaku:
            out += [f"**{who} forms {_yaku_text(t.new_yaku, names)}.**", ""]
        out += [_table_now(t.after, deck), "", ":::", ""]
    out += ["## The end of the round", "",
            f"The round ends: {_md(_REASONS.get(r.reason, r.reason.replace('-', ' ')))}.", ""]
    out += [*(x + "\n" for x in _at_end(view, deck, notes))]
    out += [":::{container} example-deal", ""]
    for name, cards in view.end.zones:
        if name.startswith("captured.") and cards:
            out += [f"**{_zone_title(name, start.dealer)}** ({len(cards)})", "", _imgs(cards, deck), ""]
    out += [":::", ""]
    storm = _storm_end(spec.key, ex, view, names)
    if storm:
        out += [" ".join(storm), ""]
    out += ["## The settlement", ""]
    for i, side in enumerate(r.yaku):
        if side:
            out += [f"- Seat {i}: {_yaku_text(side, names)}"]
    if any(r.yaku):
        out.append("")
    if spec.key == "kujuroku" and r.reason == "card-points":
        out += _kujuroku_chips(view, sitting)
    else:
        out += _arithmetic(spec.key, view, names)
    out.append("")
    after = [b + d for b, d in zip(view.before.scores, r.deltas, strict=False)]
    out += ["| seat | before | change | after |", "|---|---|---|---|"]
    for i, d in enumerate(r.deltas):
        if i < len(view.before.scores):
            change = "0 (sits out)" if i in sitting and d == 0 else f"{d:+d}"
            out.append(f"| {_seat(i, start.dealer)} | {view.before.scores[i]} | {change} | {after[i]} |")
    out.append("")
    return "\n".join(out) + "\n"


# -- the yaku gallery ---------------------------------------------------------------------------


def _variants(views: Sequence[YakuView]) -> dict[str, list[YakuView]]:
    by_id: dict[str, list[YakuView]] = {}
    for v in views:
        by_id.setdefault(v.id, []).append(v)
    return by_id


def gallery_page(spec: GameSpec) -> str:
    """Every yaku with its cards, its condition in words and points, then one compact table of what
    the house rules change (the cards are drawn once, never again for each variant)."""
    views = game_yaku(spec.key)
    deck = _deck(spec)
    rule_ids = {r.id for r in spec.rules}
    out = [f"({spec.key}-gallery)=", f"# {_md(spec.name)}: yaku gallery", "",
           "Every yaku (or dekiyaku) of the game, drawn with its cards; the line under the cards says how "
           "many of them you need. The table at the end lists what the house rules change.", "",
           legend(deck), ""]
    rule = group_rule(views)
    if rule:
        out += [rule, ""]
    drawn: set[str] = set()
    for vs in _variants(views).values():
        first = vs[0]
        title = _md(first.name) + (f" {_md(first.name_ja)}" if first.name_ja else "")
        out += [":::{container} gallery-item", f":name: {_yaku_label(spec.key, first.label)}", "",
                f"### {title}", ""]
        facts = [f"**{points_text(first.points)}**" if first.points else ""]
        if first.rule:
            facts.append(f"{{ref}}`{first.rule} <{_label(first.rule)}>`" if first.rule in rule_ids
                         else _md(first.rule))
        if first.option:
            facts.append(f"only under a house rule[^{_note(first.option)}]")
        out += [" · ".join(f for f in facts if f), ""]
        if first.condition:
            out += [_md(first.condition[0].upper() + first.condition[1:]) + ".", ""]
        out += [_imgs(first.cards, deck), ""]
        drawn.add(first.label)
        out += [":::", ""]
    variants = [v for v in views if v.label not in drawn]
    notes = sorted({v.option for v in views if v.option})
    if variants:
        out += [f"({_yaku_label(spec.key, v.label)})=" for v in variants]
        out += [f"({spec.key}-gallery-variants)=", "## What the house rules change", "",
                "| yaku | under the house rule | points | condition |", "|---|---|---|---|"]
        defaults = {v.id: v for v in views if not v.option}
        daini = str(spec.deck).startswith("daini")
        for v in variants:
            cond = "; ".join(x for x in (v.condition, card_difference(v, defaults.get(v.id), daini)) if x)
            out.append(f"| {_md(v.name)} | {_house(v.option)}[^{_note(v.option)}] | {points_text(v.points)} | "
                       f"{_md(cond)} |")
        out.append("")
    for o in notes:
        out += [f"[^{_note(o)}]: For implementers: `{o}` (the ruleset or `--option` that selects it).", ""]
    return "\n".join(out) + "\n"


def _yaku_label(key: str, label: str) -> str:
    from hanafuda.rulebook.pages import yaku_label

    return yaku_label(key, label)


def _note(option: str) -> str:
    """A footnote label for an option value (``viewing=rain-pile`` -> ``viewing-rain-pile``)."""
    return re.sub(r"[^a-z0-9]+", "-", option.lower()).strip("-")


def _house(option: str) -> str:
    """An option value in words: ``ruleset nintendo`` -> ``the Nintendo rules``, ``viewing=rain-pile`` ->
    ``viewing: rain pile``."""
    if option.startswith("ruleset "):
        return f"the {option.split(' ', 1)[1]} rules"
    key, _, value = option.partition("=")
    return f"{key.replace('_', ' ')}: {value.replace('-', ' ').replace('+', ' and ')}"


# -- the quick reference ------------------------------------------------------------------------


def quickref_page(spec: GameSpec) -> str:
    """The game on two printed A4 sides: deck, deal, turn, yaku table with pictures, settlement."""
    howto = HOWTO[spec.key]
    deck = _deck(spec)
    out = [f"({spec.key}-quickref)=", f"# {_md(spec.name)}: quick reference", "",
           ":::::{container} quickref", "",
           f"*{_md(spec.summary)}* Deck: {_md(deck.name)}, {len(deck)} cards. Print this page: it fits on two "
           f"A4 sides.", ""]
    for s in howto.sections[1:]:
        if s.show == "yaku":
            continue
        out += [f"**{_md(s.title)}.** " + " ".join(_md(x.text) for x in s.lines), ""]
    views = [v for v in game_yaku(spec.key) if not v.option]
    out += ["**Yaku, with their points.**", ""]
    rule = group_rule(views)
    if rule:
        out += [rule, ""]
    out += [*_strip(views, deck), ":::::", ""]
    return "\n".join(out) + "\n"


# -- the book around them -----------------------------------------------------------------------


def evidence_legend() -> str:
    """The legend of the evidence badges, once per rulebook."""
    items = "; ".join(f"[{b}]{{.badge .ev-{b}}} {_md(text)}" for b, text in EVIDENCE_BADGES.values())
    return (f"*How each rule is supported:* {items}. The source tags ({{cite:p}}`SEED-001`, {{cite:p}}`FW-KK`, "
            f"…) link to {{ref}}`the list of sources <sources>`, which says what each one is.")


def sources_table() -> str:
    """What each source tag is (included at the top of the bibliography page)."""
    from hanafuda_spec.games import all_specs
    from hanafuda_spec.sources import SOURCES

    cited: dict[str, list[str]] = {}
    for s in all_specs():
        keys = {c.source for r in s.rules for c in r.citations} | set(s.sources)
        for k in keys:
            cited.setdefault(k, []).append(s.name)
    out = ["| tag | what it is | cited by |", "|---|---|---|"]
    for key, src in SOURCES.items():
        what = f"{_md(src.title)}, {_md(src.author)}, {_md(src.date)}"
        if src.note:
            what += f": {_md(src.note)}"
        out.append(f"| **{key}** | {what} | {', '.join(cited.get(key, [])) or '—'} |")
    return "\n".join(out) + "\n"


def landing_page(spec: GameSpec, has_doctests: bool) -> str:
    """A rulebook's first page: what is in the book, How to play first."""
    pages = ["howto"]
    if spec.key in EXAMPLES:
        pages.append("example")
    pages += ["gallery", "quickref", "rules", "options", "decisions", "status"]  # (doctest examples: implementers)
    aliases = ", ".join(_md(a) for a in spec.aliases)
    return "\n".join([
        f"({spec.key})=", f"# {_md(spec.name)}", "", f"*{_md(spec.summary)}*", "",
        f"Also called {aliases}. Start with {{ref}}`How to play <{spec.key}-howto>`, then follow "
        + (f"{{ref}}`an example round <{spec.key}-example>` card by card. " if spec.key in EXAMPLES else "")
        + f"The {{ref}}`yaku gallery <{spec.key}-gallery>` draws every yaku, the {{ref}}`quick reference "
        f"<{spec.key}-quickref>` prints on two A4 sides, and {{ref}}`the rules <{spec.key}-rules>` give every "
        f"rule with its id and source.", "",
        "```{toctree}", ":maxdepth: 1", "", *pages, "```", ""]) + "\n"


def write_learning(out: Path, spec: GameSpec, has_doctests: bool, records: Path | None = None) -> None:
    """Write a game's landing page and learning pages into ``out`` (``gen/<game>/``). The example
    record (in ``records``, default ``docs/examples/records``) is checked first:
    :class:`~hanafuda.rulebook.example.ExampleError` stops the build."""
    from hanafuda.rulebook.example import load_checked
    from hanafuda.rulebook.pages import _write

    _write(out / "index.md", landing_page(spec, has_doctests))
    _write(out / "howto.md", howto_page(spec))
    doc = load_checked(spec.key, records)
    if doc is not None:
        _write(out / "example.md", example_page(spec, doc))
    _write(out / "gallery.md", gallery_page(spec))
    _write(out / "quickref.md", quickref_page(spec))
