"""The executable specification of the hanafuda rules reference.

Rule catalogue with citations, invariants over a neutral game form, z3 models and the
conformance kit. It never imports the reference implementation: it checks any
implementation through an adapter.
"""

__version__ = "0.1.0"
