"""The package's layout, read statically from its source: no import loops (imports inside
functions and ``TYPE_CHECKING`` blocks count), no private name crossing a subpackage, no
module over 400 lines, no reach into another object's underscore attributes."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "pyterrier_rag_axioms"
ROOT = PACKAGE.name
MAX_LINES = 400


def _modules() -> dict[str, Path]:
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    return modules


MODULES = _modules()


def _imports(tree: ast.AST):
    """Every import statement, at any depth: in a function and in an ``if TYPE_CHECKING:`` block too (a loop
    of type names is a loop of the design, which only the interpreter does not run)."""
    return (node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom)))


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def _edges(module: str) -> list[tuple[str, str, int]]:
    """``(target module, imported name or '', line)`` for each import of the package by ``module``."""
    return _edges_of(module, MODULES[module].read_text(encoding="utf-8"))


def _edges_of(module: str, source: str) -> list[tuple[str, str, int]]:
    """:func:`_edges` of ``module`` were its source ``source``."""
    edges = []
    for node in _imports(ast.parse(source)):
        if isinstance(node, ast.Import):
            edges.extend((alias.name, "", node.lineno) for alias in node.names if alias.name.split(".")[0] == ROOT)
            continue
        source = _resolve(module, node)
        if source.split(".")[0] != ROOT:
            continue
        for alias in node.names:
            submodule = f"{source}.{alias.name}"
            if submodule in MODULES:
                edges.append((submodule, "", node.lineno))
            else:
                edges.append((source, alias.name, node.lineno))
    return [(target, name, line) for target, name, line in edges if target in MODULES]


GRAPH = {module: _edges(module) for module in MODULES}


def _cycles(graph: dict[str, list[tuple[str, str, int]]]) -> list[list[str]]:
    """The strongly connected components of more than one module, or of one that imports itself (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target, _, _ in graph[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1 or any(target == module for target, _, _ in graph[module]):
                found.append(sorted(component))

    for module in graph:
        if module not in index:
            visit(module)
    return found


def _owner(private_path: str) -> str:
    """The package that owns a dotted path's first private part (``a.b._c.d`` -> ``a.b``)."""
    parts = private_path.split(".")
    for position, part in enumerate(parts):
        if part.startswith("_") and not part.startswith("__"):
            owner = ".".join(parts[:position])
            return _package_of(owner) if owner in MODULES else owner  # a module's private name: its package's
    return ""


def _package_of(module: str) -> str:
    return module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]


def test_the_graph_is_read():
    assert GRAPH["pyterrier_rag_axioms.aggregation"], "no imports found: the test reads nothing"
    workers = "pyterrier_rag_axioms.runtime._alpha"  # imported inside a function
    assert any(target == workers for target, _, _ in GRAPH["pyterrier_rag_axioms.runtime.by_topic"])


def test_no_import_loops():
    assert _cycles(GRAPH) == []


def test_type_checking_imports_count():
    """An import under ``if TYPE_CHECKING:`` closes a loop as any other does."""
    source = "if TYPE_CHECKING:\n    from pyterrier_rag_axioms.aggregation import MajorityVote\n"
    looped = {**GRAPH, "pyterrier_rag_axioms.registry": _edges_of("pyterrier_rag_axioms.registry", source)}
    assert looped["pyterrier_rag_axioms.registry"] == [("pyterrier_rag_axioms.aggregation", "MajorityVote", 2)]
    assert any({"pyterrier_rag_axioms.aggregation", "pyterrier_rag_axioms.registry"} <= set(c) for c in _cycles(looped))


def test_a_loop_is_found():
    """The loop finder sees a loop that one import inside a function would close."""
    looped = {**GRAPH, "pyterrier_rag_axioms.registry": [("pyterrier_rag_axioms.aggregation", "", 1)]}
    assert any({"pyterrier_rag_axioms.aggregation", "pyterrier_rag_axioms.registry"} <= set(c) for c in _cycles(looped))


def test_the_registry_is_a_leaf():
    assert GRAPH["pyterrier_rag_axioms.registry"] == []


#: The rooms of the package from the bottom up, each with the rooms its modules may import (itself included):
#: the runtime (caches, model files, threads, worker processes) sits below every tool, the tools below every
#: package that judges, and the atomic-fact splitter reads the text tools alone.
ROOMS = {
    "runtime": ("runtime", "io", "frames", "declaration", "registry"),
    "tools": ("tools", "runtime", "io", "frames", "declaration", "registry"),
    "nuggets.facts": ("nuggets.facts", "tools.text"),
}


def _in_room(module: str, room: str) -> bool:
    return module == f"{ROOT}.{room}" or module.startswith(f"{ROOT}.{room}.")


def _reaches_above(graph: dict[str, list[tuple[str, str, int]]], room: str, allowed: tuple[str, ...]) -> list[str]:
    """Each import of a module of ``room`` from outside the ``allowed`` rooms, as ``path:line imports target``."""
    return [
        f"{MODULES[module].relative_to(PACKAGE.parent)}:{line} imports {target}"
        for module, edges in graph.items()
        if _in_room(module, room)
        for target, _, line in edges
        if not any(_in_room(target, below) for below in allowed)
    ]


@pytest.mark.parametrize("room", sorted(ROOMS))
def test_each_room_imports_only_the_rooms_below_it(room: str):
    assert _reaches_above(GRAPH, room, ROOMS[room]) == []


def test_an_import_from_above_is_found():
    looped = {**GRAPH, "pyterrier_rag_axioms.runtime.cache": [("pyterrier_rag_axioms.tools.text", "", 3)]}
    assert _reaches_above(looped, "runtime", ROOMS["runtime"]) == [
        "pyterrier_rag_axioms/runtime/cache.py:3 imports pyterrier_rag_axioms.tools.text"
    ]


def test_grounding_reads_only_the_fact_splitter_of_nuggets():
    """Grounding's claims are the nugget extractor's atomic facts; nothing else of ``nuggets/`` is grounding's."""
    reads = {target for module, edges in GRAPH.items() if _in_room(module, "grounding") for target, _, _ in edges}
    assert {target for target in reads if _in_room(target, "nuggets")} == {"pyterrier_rag_axioms.nuggets.facts"}


def test_worker_processes_are_started_by_the_runtime_alone():
    """The transformers run by topic through ``runtime.by_topic`` (one way), never through the pool itself."""
    pool = "pyterrier_rag_axioms.runtime.processes"
    callers = {
        module
        for module, edges in GRAPH.items()
        for target, name, _ in edges
        if target == pool and name not in ("MAX_PROCESSES", "WorkerDiedError") and not _in_room(module, "runtime")
    }
    assert callers == set()


def test_no_private_name_crosses_a_subpackage():
    crossings = []
    for module, edges in GRAPH.items():
        home = _package_of(module)
        for target, name, line in edges:
            path = f"{target}.{name}" if name else target
            owner = _owner(path)
            if owner and not (home == owner or home.startswith(owner + ".")):
                crossings.append(f"{MODULES[module].relative_to(PACKAGE.parent)}:{line} imports {path}")
    assert crossings == []


def test_no_module_over_400_lines():
    long = {str(path.relative_to(PACKAGE.parent)): n for path in MODULES.values()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_every_folder_says_in_two_lines_what_lives_there_and_what_does_not():
    for path in MODULES.values():
        if path.name == "__init__.py":
            docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
            where = path.relative_to(PACKAGE.parent)
            assert len(docstring.splitlines()) == 2, f"{where}: {docstring!r}"
            assert re.search(r"\b(not|no)\b", docstring, re.IGNORECASE), f"{where} says only what lives there"


#: Standard-library modules whose process-level calls (``os._exit``) end a process without the interpreter's
#: teardown: no object's state.
PROCESS_MODULES = ("os",)

#: The standard library's names that start with an underscore and are documented, public all the same.
PUBLIC_UNDERSCORE_NAMES = {"os._exit"}


def _private_standard_library_calls(source: str) -> list[tuple[int, str]]:
    """``(line, expression)`` for each ``module._x`` of a standard-library module (imported as such, or by
    ``from module import _x``) that its documentation does not make public."""
    tree = ast.parse(source)
    standard = set(sys.stdlib_module_names)
    modules: dict[str, str] = {}  # local name -> module
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in standard:
                    modules[alias.asname or top] = alias.name if alias.asname else top
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] in standard:
            for alias in node.names:
                if _private(alias.name) and f"{node.module}.{alias.name}" not in PUBLIC_UNDERSCORE_NAMES:
                    found.append((node.lineno, f"{node.module}.{alias.name}"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
            name = f"{modules[node.value.id]}.{node.attr}"
            if _private(node.attr) and name not in PUBLIC_UNDERSCORE_NAMES:
                found.append((node.lineno, name))
    return sorted(found)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_private_standard_library_call():
    calls = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {name}"
        for path in MODULES.values()
        for line, name in _private_standard_library_calls(path.read_text(encoding="utf-8"))
    ]
    assert calls == []


def test_a_private_standard_library_call_is_found():
    source = (
        "import atexit, os, threading as t\n"
        "from sys import _getframe\n"
        "atexit._run_exitfuncs(); os._exit(0); t._register_atexit(print)\n"
    )
    found = [(2, "sys._getframe"), (3, "atexit._run_exitfuncs"), (3, "threading._register_atexit")]
    assert _private_standard_library_calls(source) == found


def _reaches_into_private_state(source: str) -> list[tuple[int, str]]:
    """``(line, expression)`` for each ``obj._x`` where ``obj`` is not ``self``, ``cls`` or ``super()``
    (dunder names and spaCy's ``._`` extension namespace aside)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr == "_":
            continue
        if node.attr.startswith("__") and node.attr.endswith("__"):
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls", *PROCESS_MODULES):
            continue
        if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
            continue
        found.append((node.lineno, ast.unparse(node)))
    return found


def test_no_module_reads_or_writes_another_objects_private_state():
    reaches = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {expression}"
        for path in MODULES.values()
        for line, expression in _reaches_into_private_state(path.read_text(encoding="utf-8"))
    ]
    assert reaches == []


def test_a_reach_into_private_state_is_found():
    source = (
        "class Model:\n"
        "    def fit(self, fold, doc):\n"
        "        self._weights = super()._fitted(cls._x)\n"
        "        fold._fit_differences()\n"
        "        doc._.negex, self._analyzer._complete, type(self).__name__\n"
    )
    assert _reaches_into_private_state(source) == [(4, "fold._fit_differences"), (5, "self._analyzer._complete")]
