"""A ``details`` directive for the rulebooks: content one click away, so that long pages stay
short on a phone.

In MyST: a ``:::{details} SUMMARY`` fence (the summary takes inline markup, the body any
Markdown, footnote references included) becomes an HTML ``<details>`` element, closed unless
``:open:`` is given. A link to an id inside a closed one opens it (``_static/rulebook.js``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

__all__ = ["DetailsDirective", "details", "setup", "summary"]


class details(nodes.General, nodes.Element):  # noqa: N801 (docutils names nodes in lower case)
    """An HTML ``<details>`` element (its first child is the :class:`summary`)."""


class summary(nodes.TextElement, nodes.Inline):  # noqa: N801
    """The always visible line of a :class:`details` element."""


def _visit_details(self: Any, node: details) -> None:
    attrs = {"open": "open"} if node.get("open") else {}
    self.body.append(self.starttag(node, "details", "", **attrs))


def _depart_details(self: Any, node: details) -> None:
    self.body.append("</details>\n")


def _visit_summary(self: Any, node: summary) -> None:
    self.body.append("<summary>")


def _depart_summary(self: Any, node: summary) -> None:
    self.body.append("</summary>\n")


class DetailsDirective(SphinxDirective):
    """``details SUMMARY`` with the body as content; options ``:open:``, ``:class:`` and ``:name:``."""

    has_content = True
    required_arguments = 1
    final_argument_whitespace = True
    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {
        "open": directives.flag, "class": directives.class_option, "name": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        node = details(open="open" in self.options, classes=["details", *self.options.get("class", [])])
        self.add_name(node)
        text, messages = self.state.inline_text(self.arguments[0], self.lineno)
        node += summary("", "", *text)
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node, *messages]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directive and its nodes (HTML only: the rulebooks are built as HTML)."""
    app.add_node(details, html=(_visit_details, _depart_details))
    app.add_node(summary, html=(_visit_summary, _depart_summary))
    app.add_directive("details", DetailsDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
