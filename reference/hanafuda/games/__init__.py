"""One module per game, each defining ``GAME``, an instance of :class:`hanafuda.engine.Game`."""
