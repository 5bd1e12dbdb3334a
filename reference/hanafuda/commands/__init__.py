"""Subcommands of the ``hanafuda`` program: each module defines ``register(subparsers)``, which
adds its parser and sets ``run`` (``args -> exit code``) as a default."""
