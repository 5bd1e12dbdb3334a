"""hanafuda: the reference implementation of five historical hanafuda games.

Koi-Koi, Kusuri-gui, Kujuroku, Musashino-Bana and Kekoro, each a :class:`hanafuda.engine.Game`
found by name in :mod:`hanafuda.registry`. The rules themselves, with their citations, live in
the executable spec, :mod:`hanafuda_spec`.
"""

__version__ = "0.1.0"
