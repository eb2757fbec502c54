"""The package's layers hold by themselves: an AST walk of every import against the order the
package docstring states, no function-level imports (but the lab's optional ``distributed``),
and ``import tafl_rules`` that leaves the AI, the notation and the pictures unloaded."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tafl_rules
import tafl_rules.engine
import tafl_rules.modes

PACKAGE = Path(tafl_rules.__file__).resolve().parent
#: Imports allowed inside a function: optional dependencies, loaded only when asked for (Dask's
#: ``distributed``; Pyodide's ``js`` and ``pyodide``, there only in the board's worker).
OPTIONAL = {"distributed", "js", "pyodide"}
#: Subpackages whose docstring lists their modules in import order (each imports only earlier ones).
ORDERED_SUBPACKAGES = ("engine", "modes")


def _listed_modules(doc: str, prefix: str) -> list[list[str]]:
    """The docstring's bullets (``- ...`` up to the next bullet or a blank line), each as the
    module names it cites with ``:mod:`~prefix.name```, in order."""
    groups: list[list[str]] = []
    for bullet in re.split(r"\n(?=- )|\n\n", doc):
        if bullet.startswith("- "):
            names = re.findall(rf":mod:`~{re.escape(prefix)}\.([\w.]+)`", bullet)
            if names:
                groups.append(names)
    return groups


def layers() -> dict[str, int]:
    """Top-level module or subpackage of tafl_rules -> its layer, from the package docstring."""
    out = {}
    for number, names in enumerate(_listed_modules(tafl_rules.__doc__ or "", "tafl_rules")):
        for name in names:
            out[name] = number
    return out


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (``tafl_rules.engine.state``; a package by
    its own name)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(name: str, path: Path, known: dict[str, Path]) -> tuple[list[str], list[tuple[int, str]]]:
    """(the package modules ``name`` imports at run time, [(line, module) of every import made
    inside a function]). Imports under ``if TYPE_CHECKING:`` name types only and are left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    runtime: list[str] = []
    local: list[tuple[int, str]] = []

    def resolve(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [alias.name for alias in node.names]
        base = node.module or ""
        if node.level:
            anchor = package.split(".")
            anchor = anchor[:len(anchor) - node.level + 1]
            base = ".".join(anchor + ([node.module] if node.module else []))
        targets = []
        for alias in node.names:  # ``from pkg import module`` imports that module
            full = f"{base}.{alias.name}"
            targets.append(full if full in known else base)
        return targets

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for sub in child.orelse:
                    visit(sub, in_function)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for target in resolve(child):
                    if in_function:
                        local.append((child.lineno, target))
                    else:
                        runtime.append(target)
                continue
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(tree, False)
    return runtime, local


def _component(module: str) -> str:
    """``tafl_rules.engine.state`` -> ``engine``; the package itself -> ``""``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_the_docstring_places_every_module_in_a_layer():
    listed = layers()
    components = {_component(m) for m in modules()} - {""}
    assert components == set(listed), (sorted(components - set(listed)), sorted(set(listed) - components))


def test_every_import_goes_down_the_layers():
    listed = layers()
    known = modules()
    wrong = []
    for name, path in known.items():
        if name == "tafl_rules":
            continue  # the package's face: it imports from every layer (the top ones on demand)
        here = _component(name)
        runtime, _local = imports(name, path, known)
        for target in runtime:
            if not target.startswith("tafl_rules"):
                continue
            there = _component(target)
            if there == here:
                continue  # within one subpackage: see the next test
            if there == "" or listed[there] >= listed[here]:
                wrong.append(f"{name} imports {target} (layer {listed.get(there, 'top')} >= {listed[here]})")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("sub", ORDERED_SUBPACKAGES)
def test_within_a_subpackage_each_module_imports_only_those_its_docstring_lists_before_it(sub):
    known = modules()
    package = f"tafl_rules.{sub}"
    cited = re.findall(rf":mod:`~{re.escape(package)}\.(\w+)`", sys.modules[package].__doc__ or "")
    order = list(dict.fromkeys(cited))  # in the order the docstring first names them
    inside = sorted(m for m in known if m.startswith(package + "."))
    assert sorted(f"{package}.{name}" for name in order) == inside, order
    wrong = []
    for name in inside:
        runtime, _local = imports(name, known[name], known)
        for target in runtime:
            if target.startswith(package + ".") and order.index(target[len(package) + 1:]) >= \
                    order.index(name[len(package) + 1:]):
                wrong.append(f"{name} imports {target}")
            elif target == package:
                wrong.append(f"{name} imports its own package {package}")
    assert not wrong, wrong


def test_no_import_inside_a_function_but_the_optional_ones():
    known = modules()
    found = []
    for name, path in known.items():
        _runtime, local = imports(name, path, known)
        found += [f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}" for line, target in local
                  if target.split(".")[0] not in OPTIONAL]
    assert not found, found


def test_the_walk_sees_what_it_must_refuse(tmp_path):
    # the checker itself: a function-level import, an upward import and a TYPE_CHECKING import
    source = tmp_path / "probe.py"
    source.write_text("from typing import TYPE_CHECKING\nfrom . import webapi\nif TYPE_CHECKING:\n"
                      "    from .ai import search\n\ndef f():\n    import json\n", encoding="utf-8")
    runtime, local = imports("tafl_rules.probe", source, modules())
    assert runtime == ["typing", "tafl_rules.webapi"] and local == [(7, "json")]


def test_importing_the_package_leaves_the_ai_the_notation_and_the_pictures_unloaded():
    code = ("import sys, tafl_rules; import tafl_rules.errors\n"
            "print(sorted(m for m in sys.modules if m.startswith('tafl_rules.')))\n"
            "import tafl_rules as t; t.otn, t.game_to_otn\n"
            "print(sorted(m for m in sys.modules if m.split('.')[1:2] in (['ai'], ['otn'], ['svg'])))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    loaded = eval(out[0])  # noqa: S307 - our own printed list
    assert not [m for m in loaded if m.split(".")[1] in ("ai", "otn", "svg", "webapi", "balance")], loaded
    assert "tafl_rules.game" in loaded
    assert eval(out[1]) == ["tafl_rules.otn"]  # noqa: S307 - asked for by name: loaded, and nothing above it


def test_the_lazy_names_stay_public():
    for name in ("ai", "otn", "svg", "game_from_otn", "game_to_otn", "parse_rules", "rules_to_otn", "__version__"):
        assert name in tafl_rules.__all__ and getattr(tafl_rules, name) is not None
    assert tafl_rules.game_to_otn is tafl_rules.otn.game_to_otn and "svg" in dir(tafl_rules)
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        tafl_rules.nothing  # noqa: B018
