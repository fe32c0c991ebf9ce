"""Link a task folder's ``utils.py`` and the package modules it needs into one standalone source.

lmms-eval loads a task's ``utils.py`` by file path, and an upstream task folder cannot import our
package, so the export inlines, in dependency order, the top-level statements of every
``temporal_bench`` module the entry file (our task folder's ``utils.py``) reaches:

* a definition (function, class, assignment, ``try`` of imports ...) is kept only if a kept
  statement refers to a name it binds; every other top-level statement (a loop filling
  ``globals()``, a call) is kept whenever its module contributes anything, as importing it would
  run it. A star import keeps the whole module. Name references come from ``symtable``, so a
  local variable never pulls in a global of the same name.
* imports from ``temporal_bench`` disappear: ``from temporal_bench.x import f`` needs nothing more
  in one namespace, and ``from temporal_bench.x import mod`` + ``mod.f`` becomes ``f``.
  Other imports are hoisted to the top, once each.
* module docstrings become comments; ``__all__`` and ``if __name__ == "__main__"`` blocks are
  dropped (the flat module is never star-imported or run).

Everything ends up in one namespace, so the linker refuses (``AmalgamationError``), rather than
guesses, when two kept statements bind the same name differently (statements identical up to
comments are kept once), when a module's free name (a builtin) would be shadowed by another
module's global, when an import is relative, aliases a package name or imports a package module
as a whole, and when the package modules import each other in a cycle.
"""

import ast
import importlib.util
import symtable
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Set, Tuple

PACKAGE = "temporal_bench"


class AmalgamationError(ValueError):
    """The modules cannot be merged into one namespace without changing what the code means."""


@dataclass(frozen=True)
class ExternalImport:
    """One name bound by an import from outside the package."""

    module: str
    name: Optional[str]  # None for ``import module``
    asname: Optional[str]

    @property
    def bound(self) -> str:
        if self.name is None:
            return self.asname or self.module.split(".")[0]
        return self.asname or self.name

    def imported(self) -> str:
        """What follows ``import`` (after ``from module`` for a name)."""
        return (self.name or self.module) + (f" as {self.asname}" if self.asname else "")

    @property
    def is_stdlib(self) -> bool:
        return self.module.split(".")[0] in sys.stdlib_module_names


@dataclass
class Statement:
    """A top-level statement (not an import) of a source module."""

    index: int
    node: ast.stmt
    text: str  # its source lines, with the comment lines just above it
    first_line: int  # the file's line number of the text's first line
    binds: Set[str]  # module-level names it binds
    refs: Set[str]  # module-level (global or builtin) names it reads
    module_attrs: List[ast.Attribute]  # ``mod.name`` uses of an imported package module

    @property
    def is_definition(self) -> bool:
        """Kept only when needed; the rest runs whenever its module is kept."""
        if isinstance(self.node, (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Expr)):
            return False
        return bool(self.binds)


@dataclass
class SourceModule:
    label: str  # its path below the package's parent folder, used in the output's section headers
    lines: List[str]
    docstring: Optional[str] = None
    statements: List[Statement] = field(default_factory=list)
    package_names: Dict[str, Tuple[str, str]] = field(default_factory=dict)  # bound name -> (module, name)
    package_modules: Dict[str, str] = field(default_factory=dict)  # bound name -> module
    star_modules: List[str] = field(default_factory=list)
    externals: Dict[str, ExternalImport] = field(default_factory=dict)

    def binders(self, name: str) -> List[Statement]:
        return [s for s in self.statements if name in s.binds]


def module_path(module: str) -> Path:
    if not _is_package(module):
        raise AmalgamationError(f"{module} is not a {PACKAGE} module")
    try:
        spec = importlib.util.find_spec(module)  # the import system knows where setup.cfg mapped it
    except ModuleNotFoundError:  # a name inside a module (``pkg.module.Name``), not a module
        spec = None
    if spec is None or not spec.origin or not Path(spec.origin).is_file():
        raise AmalgamationError(f"cannot find the source of {module}")
    return Path(spec.origin)


def _label(path: Path, name: str) -> str:
    """``temporal_bench/tempvs/hooks.py`` for a package module (its import path, wherever the file
    lies), the file path itself for the entry file."""
    if not _is_package(name):
        return path.as_posix()
    return name.replace(".", "/") + ("/__init__.py" if path.name == "__init__.py" else ".py")


def _is_package(module: Optional[str]) -> bool:
    return module is not None and (module == PACKAGE or module.startswith(PACKAGE + "."))


def _is_module(module: str) -> bool:
    try:
        module_path(module)
    except AmalgamationError:
        return False
    return True


def _scopes(table: symtable.SymbolTable) -> Iterator[symtable.SymbolTable]:
    yield table
    for child in table.get_children():
        yield from _scopes(child)


def _global_refs(table: symtable.SymbolTable) -> Set[str]:
    refs = {s.get_name() for s in table.get_symbols() if s.is_referenced()}
    for scope in list(_scopes(table))[1:]:
        refs |= {s.get_name() for s in scope.get_symbols() if s.is_referenced() and s.is_global()}
    return refs


def _local_names(table: symtable.SymbolTable) -> Set[str]:
    """Names some nested scope of the statement binds for itself."""
    return {s.get_name() for scope in list(_scopes(table))[1:] for s in scope.get_symbols() if s.is_local()}


def _is_main_guard(node: ast.stmt) -> bool:
    return (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
            and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__")


def _binds_all(node: ast.stmt) -> bool:
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
    return any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets)


def _start_line(node: ast.stmt) -> int:
    return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])


def _first_comment_line(lines: List[str], start: int, previous_end: int) -> int:
    """The first line of the comment lines right above line ``start`` (1-based), after ``previous_end``."""
    first = start
    while first - 1 > previous_end and lines[first - 2].strip().startswith("#"):
        first -= 1
    return first


class ModuleReader:
    """Parses package modules once each and records what each top-level statement binds and reads."""

    def __init__(self) -> None:
        self._modules: Dict[str, SourceModule] = {}

    def module(self, name: str) -> SourceModule:
        if name not in self._modules:
            self._modules[name] = self.read(module_path(name), name)
        return self._modules[name]

    def read(self, path: Path, name: str) -> SourceModule:
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines(keepends=True)
        module = SourceModule(label=_label(path, name), lines=lines)
        tree = ast.parse(source, filename=str(path))
        previous_end = 0
        for index, node in enumerate(tree.body):
            where = f"{module.label}:{node.lineno}"
            if index == 0 and isinstance(node, ast.Expr) and isinstance(getattr(node.value, "value", None), str):
                module.docstring = node.value.value
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                self._read_import(module, node, where)
            elif not (_is_main_guard(node) or _binds_all(node)):
                module.statements.append(self._statement(module, index, node, previous_end, where))
            previous_end = node.end_lineno
        return module

    def _read_import(self, module: SourceModule, node: ast.stmt, where: str) -> None:
        if isinstance(node, ast.ImportFrom) and node.level:
            raise AmalgamationError(f"{where}: relative import (import {PACKAGE} modules absolutely)")
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_package(alias.name):
                    raise AmalgamationError(f"{where}: `import {alias.name}` (use `from ... import ...`)")
                external = ExternalImport(alias.name, None, alias.asname)
                module.externals[external.bound] = external
            return
        if not _is_package(node.module):
            for alias in node.names:
                if alias.name == "*":
                    raise AmalgamationError(f"{where}: star import from {node.module}")
                external = ExternalImport(node.module, alias.name, alias.asname)
                module.externals[external.bound] = external
            return
        for alias in node.names:
            if alias.name == "*":
                module.star_modules.append(node.module)
            elif _is_module(f"{node.module}.{alias.name}"):
                module.package_modules[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif alias.asname and alias.asname != alias.name:
                raise AmalgamationError(f"{where}: `{alias.name} as {alias.asname}` would need renaming in one namespace")
            else:
                module.package_names[alias.name] = (node.module, alias.name)

    def _statement(self, module: SourceModule, index: int, node: ast.stmt, previous_end: int, where: str) -> Statement:
        start = _start_line(node)
        first = _first_comment_line(module.lines, start, previous_end)
        table = symtable.symtable("".join(module.lines[start - 1:node.end_lineno]), where, "exec")
        binds = {s.get_name() for s in table.get_symbols() if s.is_assigned() or s.is_imported()}
        attrs = [n for n in ast.walk(node) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                 and n.value.id in module.package_modules]
        attr_values = {id(a.value) for a in attrs}
        if any(isinstance(n, ast.Name) and n.id in module.package_modules and id(n) not in attr_values for n in ast.walk(node)):
            raise AmalgamationError(f"{where}: uses a package module as a value; only `<module>.<name>` can be inlined")
        shadowed = ({a.attr for a in attrs} | {a.value.id for a in attrs}) & (_local_names(table) | binds)
        if shadowed:
            raise AmalgamationError(f"{where}: {sorted(shadowed)} is both a package module member and a local name here")
        refs = _global_refs(table) - set(module.package_modules)
        return Statement(index, node, "".join(module.lines[first - 1:node.end_lineno]), first, binds, refs, attrs)


@dataclass(frozen=True)
class Definition:
    module: str
    name: str


class Linker:
    """Chooses the statements to keep, starting from every statement of the entry file."""

    def __init__(self, reader: ModuleReader, entry: str, entry_module: SourceModule) -> None:
        self.reader = reader
        self.modules: Dict[str, SourceModule] = {entry: entry_module}
        self.kept: Dict[str, Set[int]] = {}
        self.depends: Dict[str, List[str]] = {}
        self.externals: Dict[str, ExternalImport] = {}
        self.unresolved: Dict[str, Set[str]] = {}  # module -> free names (builtins)
        self._pending: List[Tuple[str, Statement]] = []
        self._include(entry)
        for statement in entry_module.statements:
            self._keep(entry, statement)
        for name in [*entry_module.package_names, *entry_module.externals]:  # re-exports name hooks too
            self._need(entry, name)
        self._run()

    def module(self, name: str) -> SourceModule:
        if name not in self.modules:
            self.modules[name] = self.reader.module(name)
        return self.modules[name]

    def _include(self, name: str) -> None:
        if name in self.kept:
            return
        self.kept[name] = set()
        self.depends[name] = []
        module = self.module(name)
        for star in module.star_modules:
            self._depend(name, star)
            for statement in self.module(star).statements:
                self._keep(star, statement)
        for statement in module.statements:
            if not statement.is_definition:
                self._keep(name, statement)

    def _depend(self, name: str, other: str) -> None:
        self._include(other)
        if other != name and other not in self.depends[name]:
            self.depends[name].append(other)

    def _keep(self, name: str, statement: Statement) -> None:
        self._include(name)
        if statement.index not in self.kept[name]:
            self.kept[name].add(statement.index)
            self._pending.append((name, statement))

    def _run(self) -> None:
        while self._pending:
            name, statement = self._pending.pop()
            for ref in sorted(statement.refs):
                self._need(name, ref)
            for attr in statement.module_attrs:
                self._need_definition(name, self.resolve(self.module(name).package_modules[attr.value.id], attr.attr))

    def _need(self, name: str, ref: str) -> None:
        definition = self.resolve(name, ref)
        external = self.external(name, ref)
        if definition is not None:
            self._need_definition(name, definition)
        elif external is not None:
            known = self.externals.setdefault(ref, external)
            if known != external:
                raise AmalgamationError(f"{ref!r} is imported from {known.module} and from {external.module}")
        else:
            self.unresolved.setdefault(name, set()).add(ref)

    def external(self, name: str, ref: str) -> Optional[ExternalImport]:
        """The import that binds ``ref`` in module ``name`` (possibly through a star import), if any."""
        module = self.module(name)
        if ref in module.externals:
            return module.externals[ref]
        for star in module.star_modules:
            found = self.external(star, ref)
            if found is not None:
                return found
        return None

    def _need_definition(self, name: str, definition: Definition) -> None:
        self._depend(name, definition.module)
        for statement in self.module(definition.module).binders(definition.name):
            self._keep(definition.module, statement)

    def resolve(self, name: str, ref: str) -> Optional[Definition]:
        """The package definition that ``ref`` in module ``name`` refers to, None for an external or builtin."""
        module = self.module(name)
        if module.binders(ref):
            return Definition(name, ref)
        if ref in module.package_names:
            source, original = module.package_names[ref]
            definition = self.resolve(source, original)
            if definition is None:
                raise AmalgamationError(f"{module.label}: {source} does not define {original!r}")
            return definition
        for star in module.star_modules:
            definition = self.resolve(star, ref)
            if definition is not None:
                return definition
        return None

    def order(self, entry: str) -> List[str]:
        """Modules with every module before the ones that use it (the entry file last)."""
        ordered: List[str] = []
        visiting: List[str] = []

        def visit(name: str) -> None:
            if name in ordered:
                return
            if name in visiting:
                raise AmalgamationError(f"import cycle: {' -> '.join(visiting[visiting.index(name):] + [name])}")
            visiting.append(name)
            for other in self.depends[name]:
                visit(other)
            visiting.pop()
            ordered.append(name)

        visit(entry)
        return ordered


def _drop_module_prefixes(statement: Statement) -> str:
    """The statement's text with ``mod.`` removed before each package-module member."""
    lines = [line.encode("utf-8") for line in statement.text.splitlines(keepends=True)]
    for attr in sorted(statement.module_attrs, key=lambda a: (a.value.lineno, a.value.col_offset), reverse=True):
        row = attr.value.lineno - statement.first_line
        start, end = attr.value.col_offset, attr.value.end_col_offset
        if lines[row][start:end + 1] != (attr.value.id + ".").encode("utf-8"):
            raise AmalgamationError(f"cannot rewrite `{attr.value.id}.{attr.attr}` in {lines[row].decode().strip()!r}")
        lines[row] = lines[row][:start] + lines[row][end + 1:]
    return b"".join(lines).decode("utf-8")


def _as_comment(text: str) -> str:
    return "".join(f"# {line}".rstrip() + "\n" for line in text.strip().splitlines())


@dataclass
class Amalgamation:
    source: str  # the body: hoisted imports and inlined modules
    modules: List[str]  # the inlined package files, in order (entry file last)


def amalgamate(entry_file: Path) -> Amalgamation:
    """Link ``entry_file`` (a task folder's ``utils.py``) with the package code it needs."""
    reader = ModuleReader()
    entry = "<entry>"
    linker = Linker(reader, entry, reader.read(Path(entry_file).resolve(), entry))
    order = linker.order(entry)
    _check_namespace(linker, order)
    return Amalgamation(_imports(linker.externals.values()) + "\n\n" + "\n\n".join(_sections(linker, order, entry)),
                        [linker.modules[name].label for name in order])


def _kept(linker: Linker, name: str) -> List[Statement]:
    return [s for s in linker.modules[name].statements if s.index in linker.kept[name]]


def _check_namespace(linker: Linker, order: List[str]) -> None:
    """Every name of the merged namespace means what it meant in each module that uses it."""
    owner: Dict[str, Tuple[str, str]] = {}  # bound name -> (module label, ast dump of its statement)
    for name in order:
        label = linker.modules[name].label
        for statement in _kept(linker, name):
            dump = ast.dump(statement.node)
            for bound in statement.binds:
                first_label, first_dump = owner.setdefault(bound, (label, dump))
                if first_label != label and first_dump != dump:
                    raise AmalgamationError(f"name collision: {bound!r} is defined in {first_label} and in {label}")
    for name, free in linker.unresolved.items():
        label = linker.modules[name].label
        shadowed = sorted(n for n in free if n in owner and owner[n][0] != label)
        if shadowed:
            raise AmalgamationError(f"{label} reads {shadowed} as builtins, but another inlined module defines them")
    clash = sorted(set(linker.externals) & set(owner))
    if clash:
        raise AmalgamationError(f"name collision between an import and a definition: {clash}")


def _sections(linker: Linker, order: List[str], entry: str) -> List[str]:
    """One commented section per module with kept code; a statement met before (up to comments) is left out."""
    emitted: Set[str] = set()
    sections = []
    for name in order:
        module = linker.modules[name]
        parts = []
        for statement in _kept(linker, name):
            dump = ast.dump(statement.node)
            if dump not in emitted:
                emitted.add(dump)
                parts.append(_drop_module_prefixes(statement))
        if not parts:
            continue
        header = f"# ---- {module.label} " + "-" * max(4, 95 - len(module.label)) + "\n"
        # A docstring may describe statements the linker left out; keep it only for a module kept whole.
        whole = name != entry and len(linker.kept[name]) == len(module.statements)
        doc = _as_comment(module.docstring) if module.docstring and whole else ""
        sections.append(header + doc + "\n" + _join(parts))
    return sections


def _is_def(part: str) -> bool:
    code = next(line for line in part.splitlines() if not line.startswith("#"))
    return code.startswith(("def ", "async def ", "class ", "@"))


def _join(parts: List[str]) -> str:
    """Statements as in PEP 8: two blank lines around functions and classes, one before a comment."""
    out = parts[0]
    for previous, part in zip(parts, parts[1:]):
        out += ("\n\n" if _is_def(previous) or _is_def(part) else "\n" if part.startswith("#") else "") + part
    return out


def _imports(imports) -> str:
    """Standard library first, then the rest; ``import x`` before ``from x import a, b``."""
    blocks = []
    for stdlib in (True, False):
        chosen = [i for i in imports if i.is_stdlib == stdlib]
        lines = sorted(f"import {i.imported()}" for i in chosen if i.name is None)
        names: Dict[str, List[str]] = {}
        for i in chosen:
            if i.name is not None:
                names.setdefault(i.module, []).append(i.imported())
        lines += [f"from {module} import {', '.join(sorted(names[module]))}" for module in sorted(names)]
        if lines:
            blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)
