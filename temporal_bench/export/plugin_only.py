"""Drop the code only the plugin needs from a module's source before it is exported.

A benchmark's facts (export/facts.py) name the top-level definitions that exist for the plugin alone:
the refusals of retired environment variables, lm-eval's loading route. Dropping a name removes, in
the source text (comments and layout elsewhere kept):

* its top-level definition (``def``, ``class`` or assignment, with its decorators and the comment lines
  right above it);
* each statement that only calls it (``refuse_removed_env()``);
* each element of a tuple, list or set literal that is the bare name (an error class in ``DATA_ERRORS``),
  and its string in ``__all__``;
* its ``from ... import`` and every import that nothing uses any more once the code above is gone.

Any other use left is an ``ExportError`` naming the line: the source must then be changed, never guessed.
"""

import ast
from collections import Counter
from typing import FrozenSet, List, Tuple

from temporal_bench.export.errors import ExportError

Edit = Tuple[int, int, str]  # (start offset, end offset, replacement) in the UTF-8 bytes of the source


class Source:
    """A module's text as bytes, with the offsets of its lines (ast's columns are byte offsets)."""

    def __init__(self, text: str) -> None:
        self.data = text.encode("utf-8")
        self.starts = [0]
        for line in self.data.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col

    def lines(self, first: int, last: int) -> Edit:
        """Remove lines ``first`` to ``last`` (1-based, inclusive), and the comment lines right above."""
        while first > 1 and self.data[self.starts[first - 2] : self.starts[first - 1]].strip().startswith(b"#"):
            first -= 1
        return self.starts[first - 1], self.starts[last], ""

    def apply(self, edits: List[Edit]) -> str:
        """The text with ``edits`` made; an edit inside another (a call in a dropped function) is left to the outer one."""
        outer: List[Edit] = []
        for edit in sorted(set(edits), key=lambda e: (e[0], -e[1])):
            if outer and edit[1] <= outer[-1][1]:
                continue
            outer.append(edit)
        data = self.data
        for start, end, replacement in reversed(outer):
            data = data[:start] + replacement.encode("utf-8") + data[end:]
        return data.decode("utf-8")


def _defined(node: ast.stmt) -> List[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = [e for t in targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])]  # ``a, b = ...`` defines both
        return [t.id if isinstance(t, ast.Name) else "" for t in names]
    return []


def _first_line(node: ast.stmt) -> int:
    return min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])


def _used(tree: ast.AST) -> Counter:
    """How often each name is read (a ``Name`` load, or the base of an attribute)."""
    return Counter(node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load))


def import_edits(source: Source, tree: ast.Module, gone: FrozenSet[str]) -> List[Edit]:
    """Each module-level import statement that binds a name of ``gone``, rewritten without it."""
    edits = []
    for node in tree.body:
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        kept = [alias for alias in node.names if (alias.asname or alias.name).split(".")[0] not in gone]
        if len(kept) == len(node.names):
            continue
        start, end = source.offset(node.lineno, node.col_offset), source.offset(node.end_lineno, node.end_col_offset)
        if not kept:
            edits.append(source.lines(node.lineno, node.end_lineno))
        else:
            node.names = kept
            edits.append((start, end, ast.unparse(node)))
    return edits


def _code_edits(source: Source, tree: ast.Module, names: FrozenSet[str]) -> List[Edit]:
    # the strings of ``__all__`` that name a dropped definition
    exported_names = {
        id(element)
        for node in tree.body
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"] and isinstance(node.value, (ast.List, ast.Tuple))
        for element in node.value.elts
        if isinstance(element, ast.Constant) and element.value in names
    }
    edits = [source.lines(_first_line(node), node.end_lineno) for node in tree.body if _defined(node) and set(_defined(node)) <= names]
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and getattr(node.value.func, "id", None) in names:
            edits.append(source.lines(node.lineno, node.end_lineno))
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            elements = node.elts
            for i, element in enumerate(elements):
                if isinstance(element, ast.Name) and element.id in names or id(element) in exported_names:
                    start = source.offset(element.lineno, element.col_offset)
                    if i + 1 < len(elements):  # up to the next element
                        end = source.offset(elements[i + 1].lineno, elements[i + 1].col_offset)
                    else:  # from the end of the previous one
                        end = source.offset(element.end_lineno, element.end_col_offset)
                        start = source.offset(elements[i - 1].end_lineno, elements[i - 1].end_col_offset) if i else start
                    edits.append((start, end, ""))
    return edits


def strip_plugin_only(text: str, names: FrozenSet[str], where: str) -> str:
    """``text`` without the definitions and uses of ``names`` (see the module's note)."""
    tree = ast.parse(text, filename=where)
    before = _used(tree)
    defined = {name for node in tree.body for name in _defined(node)}
    imported = {(a.asname or a.name).split(".")[0] for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
    if not names & (set(before) | defined | imported):
        return text
    source = Source(text)
    stripped = source.apply(_code_edits(source, tree, names) + import_edits(source, tree, names & imported))
    tree = ast.parse(stripped, filename=where)
    after = _used(tree)
    unused = frozenset(name for name in before if after[name] == 0 and name in imported)
    if unused:
        source = Source(stripped)
        stripped = source.apply(import_edits(source, tree, unused))
        tree = ast.parse(stripped, filename=where)
    for node in ast.walk(tree):
        name = getattr(node, "id", None) if isinstance(node, ast.Name) else getattr(node, "attr", None)
        if name in names:
            line = stripped.splitlines()[node.lineno - 1].strip()
            raise ExportError(f"{where}: `{line}` still uses {name}, which the export drops as plugin-only; change the source so that it does not")
    return stripped
