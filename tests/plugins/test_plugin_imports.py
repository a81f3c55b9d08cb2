"""One home per rule, and plugins that say what they use: every plugin that imports another
lists it under ``requires`` in its plugin.toml, lists nothing it does not use (scenarios may
also require the rules they are played with), and no two plugins need each other."""

import ast
from pathlib import Path

import pytest

from kernel.plugins import discover

ROOT = Path(__file__).resolve().parents[2]
DATA_ONLY = {"sequence"}  # the sequence of play is data every rules plugin plays in, imported by none


def _plugins():
    return {i.id: i for i in discover().plugins.values() if i.origin == "builtin" or ROOT in Path(i.folder).parents}


def _owner(module: str, by_module: dict[str, str]) -> str | None:
    best = None
    for name, plugin_id in by_module.items():
        if (module == name or module.startswith(name + ".")) and (best is None or len(name) > len(best[0])):
            best = (name, plugin_id)
    return best[1] if best else None


def _imports(info, by_module) -> dict[str, list[str]]:
    """Plugin ids this plugin imports, with where (file:line) for the message."""
    found: dict[str, list[str]] = {}
    for path in sorted(Path(info.folder).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                owner = _owner(name, by_module)
                if owner and owner != info.id:
                    found.setdefault(owner, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def _graph():
    plugins = _plugins()
    by_module = {i.module_name: pid for pid, i in plugins.items()}
    return plugins, {pid: _imports(info, by_module) for pid, info in plugins.items()}


def test_every_import_of_another_plugin_is_declared_in_requires():
    plugins, imports = _graph()
    problems = []
    for pid, used in imports.items():
        declared = set(plugins[pid].manifest.requires)
        for other, where in used.items():
            if other not in declared:
                problems.append(f"{pid} imports {other} ({where[0]}) without listing it under requires")
    assert problems == []


def test_requires_lists_only_what_the_plugin_uses():
    plugins, imports = _graph()
    problems = []
    for pid, info in plugins.items():
        if info.manifest.kind == "scenario":
            continue  # a scenario also pulls in the rules it is played with
        unused = set(info.manifest.requires) - set(imports[pid]) - DATA_ONLY
        if unused:
            problems.append(f"{pid} requires {', '.join(sorted(unused))} but imports nothing of it")
    assert problems == []


@pytest.mark.parametrize("kind", ["imports", "requires"])
def test_no_two_plugins_need_each_other(kind):
    plugins, imports = _graph()
    edges = {pid: (set(imports[pid]) if kind == "imports" else set(i.manifest.requires)) for pid, i in plugins.items()}
    state: dict[str, int] = {}
    cycles = []

    def visit(node, trail):
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(trail[trail.index(nxt):] + [nxt]) if nxt in trail else f"{node} -> {nxt}")
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = 2

    for pid in sorted(edges):
        if pid not in state:
            visit(pid, [pid])
    assert cycles == []


def test_no_plugin_hides_a_failed_import():
    problems = []
    for info in _plugins().values():
        for path in Path(info.folder).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Try):
                    continue
                imports = any(isinstance(n, (ast.Import, ast.ImportFrom)) for stmt in node.body for n in ast.walk(stmt))
                caught = [ast.unparse(h.type) if h.type else "everything" for h in node.handlers]
                if imports and any(c in ("ImportError", "ModuleNotFoundError", "Exception", "everything") for c in caught):
                    problems.append(f"{path.relative_to(ROOT)}:{node.lineno} imports inside try/except {caught}")
    assert problems == []
