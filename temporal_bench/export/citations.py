"""Drop the citations of our ``docs/...md`` pages from exported source: an upstream folder has no such page.

Our modules cite the page that documents their rule (``docs/protocol/tempvs.md §4``, ``docs/catbench.md
"Data"``) next to the paper or the official script where they cite those. In the export a citation goes
with its parentheses when it is all they hold, and with its separator when it shares them with other
text (``(MT1, MT2; docs/protocol/tempvs.md §7.1)`` -> ``(MT1, MT2)``, ``(docs/protocol/isobench.md §3;
paper App. H)`` -> ``(paper App. H)``). A citation in any other position would leave a sentence without its
subject: it is an ``ExportError`` naming the line, to be rewritten at the source.
"""

import re

from temporal_bench.export.errors import ExportError

# a page, then optionally its section: a sign-numbered section, a range or list of them, or a quoted or capitalised heading
_CITATION = r'docs/[\w/.-]+\.md(?:,?\s+(?:"[^"\n]*"|[A-Z][\w ]*(?=\))|§[\w.]+(?:-§[\w.]+)?(?:,\s*§[\w.]+(?:-§[\w.]+)?)*))?'
_RULES = (
    (re.compile(rf"\s*\({_CITATION}\)"), ""),  # the whole parenthetical
    (re.compile(rf"\s*[;,]\s*{_CITATION}(?=\))"), ""),  # the last item of a parenthetical
    (re.compile(rf"\({_CITATION}[;,]\s*"), "("),  # the first item of a parenthetical
)
_ANY = re.compile(r"docs/[\w/.-]+\.md")


def strip_doc_citations(text: str, where: str) -> str:
    """``text`` without its citations of ``docs/`` pages (see the module's note)."""
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    left = _ANY.search(text)
    if left:
        line = text.count("\n", 0, left.start()) + 1
        raise ExportError(f"{where}:{line}: cites {left.group(0)} where the export cannot drop it (only inside parentheses); cite the paper or the official code there instead")
    return text
