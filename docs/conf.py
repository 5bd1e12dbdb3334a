"""Sphinx configuration of the hanafuda rulebooks.

The pages under ``gen/`` are written from the rule catalogue by
:func:`hanafuda.rulebook.pages.write_site` each time Sphinx reads this file. Build with
``uv run hanafuda rulebook`` (or ``uv run sphinx-build -W -n -b html docs OUT``).
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import pybtex.plugin
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.labels import BaseLabelStyle

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for p in (ROOT / "reference", ROOT / "spec"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from hanafuda.rulebook.pages import write_site  # noqa: E402

# HANAFUDA_VERIFY_REPORT: a `hanafuda verify --json` report to include (`hanafuda rulebook --report`).
_report = os.environ.get("HANAFUDA_VERIFY_REPORT")
write_site(HERE, Path(_report) if _report else None)

project = "hanafuda"
author = "the hanafuda project"
copyright = "2026, the hanafuda project"
extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinxcontrib.bibtex",
    "hanafuda.rulebook.sphinxext",
]
myst_enable_extensions = ["colon_fence", "deflist", "attrs_inline"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", ".gitignore"]
html_theme = "furo"
html_title = "hanafuda rulebooks"
html_static_path = ["_static"]
html_css_files = ["rulebook.css"]
html_js_files = ["rulebook.js"]
suppress_warnings: list[str] = []
# Only the ``{doctest}`` blocks of the worked examples are doctests here; the ``>>>`` examples in
# docstrings need their module's globals and are run by pytest (--doctest-modules).
doctest_test_doctest_blocks = ""
toc_object_entries = False  # API objects stay out of the navigation (it is rebuilt for every page)

# -- autodoc ------------------------------------------------------------------------------------
autodoc_typehints = "description"
autodoc_member_order = "bysource"
autodoc_default_options = {"undoc-members": True}
# No network at build time (no intersphinx): references to the standard library and z3 are not
# resolvable, everything of ours must be.
nitpick_ignore_regex = [
    (r"py:.*", r"(collections|collections\.abc|typing|types|pathlib|enum|argparse|abc|dataclasses|json|re|"
               r"functools|io|os|random|z3)(\..*)?"),
    (r"py:class", r"(Path|Enum|Namespace|ArgumentParser|_SubParsersAction|ModuleType|MappingProxyType|"
                  r"TypeVar|Generic|ABC|ValueError|Exception|NoReturn|Any|Iterator|Iterable|Mapping|Sequence|"
                  r"Callable|Counter|JsonValue|S|R|T|G|z3\..*)"),
    (r"py:.*", r".*\.(S|R|T|G)"),
]



def _resolvable(target: str, module: str | None) -> bool:
    """Whether a Python reference names a real object (importable, documented or not)."""
    # a string annotation autodoc could not evaluate arrives in pieces ("'Mapping[str")
    target = target.strip("'\"").split("[")[0]
    for cand in (target, f"{module}.{target}" if module else "", f"builtins.{target}"):
        if not cand:
            continue
        parts = cand.split(".")
        for i in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:i]))
            except ImportError:
                continue
            try:
                for attr in parts[i:]:
                    obj = getattr(obj, attr)
            except AttributeError:
                break
            return True
    return False


def _missing_reference(app, env, node, contnode):  # type: ignore[no-untyped-def]
    """A type hint or cross-reference to a real Python object that no page documents — one of ours
    not in ``__all__``, a TypeVar, or a third-party class (there is no intersphinx: the build has no
    network) — is printed as plain text. A name that does not exist still fails the build."""
    if node.get("refdomain") == "py" and _resolvable(node.get("reftarget", ""), node.get("py:module")):
        return contnode
    return None


def setup(app):  # type: ignore[no-untyped-def]
    app.connect("missing-reference", _missing_reference)


# -- bibliography -------------------------------------------------------------------------------


class KeyLabelStyle(BaseLabelStyle):
    """Labels are our source keys ([FW-KK], [SEED-002]), as in the catalogue."""

    def format_labels(self, sorted_entries):  # type: ignore[no-untyped-def]
        for entry in sorted_entries:
            yield entry.key


class KeyStyle(UnsrtStyle):
    default_label_style = KeyLabelStyle


pybtex.plugin.register_plugin("pybtex.style.formatting", "hanafuda", KeyStyle)
bibtex_bibfiles = ["references.bib"]
bibtex_default_style = "hanafuda"
bibtex_reference_style = "label"
