"""The rulebooks: a Sphinx site generated from the rule catalogue.

Nothing in the rulebooks is typed twice. The rule text, citations, gaps and decisions,
options and rulesets come from each game's :class:`~hanafuda_spec.catalogue.GameSpec`; the deck
tables from :mod:`hanafuda_spec.cards`; the yaku tables from the yaku data the reference scores
with; the bibliography from :mod:`hanafuda_spec.sources`. The hanafuda card faces are a
published deck kept with the docs under its own licence; the Daini deck is drawn here.

* :mod:`hanafuda.rulebook.pictures` draws the cards;
* :mod:`hanafuda.rulebook.yakuview` reads each game's yaku data into one shape for display;
* :mod:`hanafuda.rulebook.bib` writes ``docs/references.bib`` from the sources;
* :mod:`hanafuda.rulebook.pages` writes the MyST pages (``docs/conf.py`` calls it);
* :mod:`hanafuda.rulebook.learn` writes the pages a player learns from: How to play, the example
  round, the yaku gallery and the quick reference;
* :mod:`hanafuda.rulebook.example` keeps each game's example record and checks it at every build;
* :mod:`hanafuda.rulebook.sphinxext` adds the ``details`` directive (content one click away, so that
  long pages stay short on a phone);
* :mod:`hanafuda.rulebook.build` runs Sphinx (``hanafuda rulebook``);
* :mod:`hanafuda.rulebook.browser` looks at the built pages in headless Chromium (Playwright).
"""

from __future__ import annotations

__all__: list[str] = []
