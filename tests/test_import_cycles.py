"""No import cycles between the project's own modules, in the site (``platform/``) and ``arena/``,
and the packages layered: ``arena``'s packages import only packages below them
(:data:`ARENA_LAYERS`), and the site's ``core`` imports no other app.

A cycle is a design smell even where Python copes with it (a function-local import, an import
that happens to come late): two modules that need each other are one module, or one of them
holds code that belongs to the other. Imports are read with :mod:`ast`, never executed: an
import at module level and one inside a function are both an edge; one under
``if TYPE_CHECKING:`` is not (it never runs). Importing a submodule does not count as importing
its parent package's ``__init__`` (Python handles that order itself).
"""

from __future__ import annotations

import ast
import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Edge:
    """``source`` imports ``target`` at ``line`` of ``source``'s file."""

    source: str
    target: str
    line: int


def module_files(base: Path, package: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file under ``package`` (names relative
    to ``base``, the folder that is on ``sys.path``)."""
    modules = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(base).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts:
            modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement that can run (not those under ``if TYPE_CHECKING:``)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
        else:
            stack.extend(ast.iter_child_nodes(node))


def edges(modules: dict[str, Path]) -> list[Edge]:
    """The imports between ``modules`` (to the deepest module an import names)."""
    found = []
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in _imports(ast.parse(path.read_text("utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:
                    here = name.split(".") if is_package else name.split(".")[:-1]
                    here = here[: len(here) - node.level + 1]
                    base = ".".join([*here, node.module] if node.module else here)
                else:
                    base = node.module or ""
                # `from a import b` imports the module a.b if there is one, else names of a.
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    for alias in node.names
                ]
            for target in targets:
                while target and target not in modules:  # `import a.b.c` -> deepest known
                    target = target.rpartition(".")[0]
                if target and target != name:
                    found.append(Edge(name, target, node.lineno))
    return found


def cycles(found: list[Edge]) -> list[tuple[set[str], list[Edge]]]:
    """Each group of modules that import each other, with one shortest cycle through its first
    module (Tarjan's strongly connected components, then a breadth-first search inside each)."""
    graph: dict[str, dict[str, Edge]] = {}
    for edge in found:
        known = graph.setdefault(edge.source, {}).get(edge.target)
        if known is None or edge.line < known.line:  # name the first import of the two
            graph[edge.source][edge.target] = edge
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[set[str]] = []

    def connect(node: str) -> None:  # recursive: module graphs are shallow
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, {}):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            connect(node)

    chains: list[tuple[set[str], list[Edge]]] = []
    for group in sorted(groups, key=min):
        start = min(group)
        came_from: dict[str, Edge] = {}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            for target, edge in sorted(graph.get(node, {}).items()):
                if target not in group or target in came_from:
                    continue
                came_from[target] = edge
                if target == start:
                    queue.clear()
                    break
                queue.append(target)
        chain = [came_from[start]]
        while chain[-1].source != start:
            chain.append(came_from[chain[-1].source])
        chains.append((group, chain[::-1]))
    return chains


def describe(
    group: set[str], chain: list[Edge], modules: dict[str, Path], base: Path = ROOT
) -> str:
    """``a -> b -> a``, where each import is (files relative to ``base``), and the group."""
    names = " -> ".join([chain[0].source, *(edge.target for edge in chain)])
    where = "; ".join(
        f"{modules[e.source].relative_to(base)}:{e.line} imports {e.target}" for e in chain
    )
    rest = sorted(group - {edge.source for edge in chain})
    also = f"; also in the cycle: {', '.join(rest)}" if rest else ""
    return f"{names}  ({where}){also}"


def assert_no_cycles(base: Path, package: Path) -> None:
    modules = module_files(base, package)
    found = cycles(edges(modules))
    assert not found, "import cycles:\n" + "\n".join(describe(*c, modules) for c in found)


#: ``arena``'s packages (and top-level modules) from the bottom up: a package imports only
#: packages of the layers below its own, never one beside it, so that no two import each other.
#: Every package has a place here (a new one too). ``arena`` itself, the root that sets gRPC's
#: environment, may be imported by any of them. docs/ARCHITECTURE.md explains the layers.
ARENA_LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"engine", "sandbox", "stats"}),  # the rules; the sandbox; numbers over results
    frozenset({"table", "sprt"}),  # what is said at the table; the sequential test
    frozenset({"bots", "protocol", "dataset"}),  # house bots; the wire; public game datasets
    frozenset({"local", "analysis", "botkit"}),  # games in-process; decision analysis; the kit
    frozenset({"env", "runner"}),  # learning environments; matches in the sandbox
    frozenset({"cli"}),  # the ``nimmt`` command
)
#: The site's app every other app builds on; it imports none of them.
SITE_CORE = "core"


def package_of(module: str, root: str | None) -> str:
    """The package of ``module`` that the layering places: below ``root`` (``arena.bots.base``
    -> ``bots``), or, with no root, the top-level name (the site's app: ``matches.models`` ->
    ``matches``). The root itself is ``""``."""
    parts = module.split(".")
    if root is None:
        return parts[0]
    return parts[1] if len(parts) > 1 and parts[0] == root else ""


def layering_violations(
    found: list[Edge], layers: tuple[frozenset[str], ...], root: str | None = None
) -> list[str]:
    """Each import of ``found`` that goes up or sideways in ``layers`` (a package of the
    first layer is imported by the second, never the other way), and each package placed in
    no layer, as ``file line: source imports target (...)``. Imports inside a package, and of
    ``root`` itself, are free."""
    level = {package: i for i, layer in enumerate(layers) for package in layer}
    problems: set[str] = set()
    for edge in found:
        source, target = package_of(edge.source, root), package_of(edge.target, root)
        if source == target or not target:
            continue
        for package in (source, target):
            if package and package not in level:
                problems.add(f"{package} is in no layer (imported by or importing {edge.source})")
        if source in level and target in level and level[target] >= level[source]:
            below = sorted(p for p, i in level.items() if i < level[source])
            problems.add(
                f"{edge.source}:{edge.line} imports {edge.target}: {source} may import only "
                f"{', '.join(below) or 'nothing of its own project'}"
            )
    return sorted(problems)


def test_arena_packages_import_only_packages_below_them() -> None:
    found = layering_violations(edges(module_files(ROOT, ROOT / "arena")), ARENA_LAYERS, "arena")
    assert not found, "imports against the layering of arena's packages:\n" + "\n".join(found)


def site_layers(platform: Path) -> tuple[frozenset[str], ...]:
    """The site's layering: ``core`` below every other app (which may import each other)."""
    apps = {p.parent.name for p in platform.glob("*/__init__.py")} - {SITE_CORE}
    return (frozenset({SITE_CORE}), *(frozenset({app}) for app in sorted(apps)))


def site_core_violations(platform: Path) -> list[str]:
    """Each import of another app by ``core`` (the other apps' imports of each other are
    free; the import-cycle test keeps them acyclic)."""
    modules = module_files(platform, platform)
    found = [e for e in edges(modules) if package_of(e.source, None) == SITE_CORE]
    return layering_violations(found, site_layers(platform))


def test_the_sites_core_imports_no_other_app() -> None:
    found = site_core_violations(ROOT / "platform")
    assert not found, "core imports apps above it:\n" + "\n".join(found)


def test_the_site_has_no_import_cycles() -> None:
    platform = ROOT / "platform"
    assert_no_cycles(platform, platform)


def test_the_arena_package_has_no_import_cycles() -> None:
    assert_no_cycles(ROOT, ROOT / "arena")


def test_it_reports_a_cycle_as_a_chain_and_ignores_type_checking_imports(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("def late():\n    from . import c\n")
    (package / "c.py").write_text("import pkg.a\n")
    (package / "d.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\n"
    )
    (package / "e.py").write_text("from pkg.a import something\nimport pkg.d\n")
    modules = module_files(tmp_path, package)
    found = cycles(edges(modules))
    assert [[(e.source, e.target, e.line) for e in chain] for _, chain in found] == [
        [("pkg.a", "pkg.b", 1), ("pkg.b", "pkg.c", 2), ("pkg.c", "pkg.a", 1)]
    ]
    assert describe(*found[0], modules, tmp_path) == (
        "pkg.a -> pkg.b -> pkg.c -> pkg.a  (pkg/a.py:1 imports pkg.b; pkg/b.py:2 imports pkg.c; "
        "pkg/c.py:1 imports pkg.a)"
    )


def _tree(base: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = base / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_package_importing_one_beside_or_above_it_breaks_the_layering(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/low/__init__.py": "",
            "pkg/low/a.py": "import pkg\nfrom pkg.low import b\n",
            "pkg/low/b.py": "def late():\n    from pkg.high.c import thing\n",
            "pkg/low/d.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.high\n"
            ),
            "pkg/side.py": "from pkg import low\n",
            "pkg/high/__init__.py": "",
            "pkg/high/c.py": "from ..low import a\nfrom pkg.side import x\n",
            "pkg/stray.py": "import pkg.low.a\n",
        },
    )
    layers = (frozenset({"low"}), frozenset({"high", "side"}))
    found = layering_violations(edges(module_files(tmp_path, tmp_path / "pkg")), layers, "pkg")
    assert found == [
        "pkg.high.c:2 imports pkg.side: high may import only low",
        "pkg.low.b:2 imports pkg.high.c: low may import only nothing of its own project",
        "stray is in no layer (imported by or importing pkg.stray)",
    ]
    # the real layering holds on the same tree once the planted imports are gone
    (tmp_path / "pkg/low/b.py").write_text("def late():\n    return None\n")
    (tmp_path / "pkg/high/c.py").write_text("from ..low import a\n")
    (tmp_path / "pkg/stray.py").unlink()
    assert layering_violations(edges(module_files(tmp_path, tmp_path / "pkg")), layers, "pkg") == []


def test_the_sites_core_importing_an_app_is_found(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "core/__init__.py": "",
            "core/leases.py": "import django\n",
            "core/metrics.py": "def count():\n    from matches.models import Match\n",
            "matches/__init__.py": "",
            "matches/models.py": "from core import leases\nfrom ladders import rating\n",
            "ladders/__init__.py": "",
            "ladders/rating.py": "from matches import models\n",
        },
    )
    assert site_core_violations(tmp_path) == [
        "core.metrics:2 imports matches.models: core may import only nothing of its own project"
    ]
    (tmp_path / "core/metrics.py").write_text("from core import leases\n")
    assert site_core_violations(tmp_path) == []


def test_the_readmes_table_of_layers_is_the_one_the_test_holds() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d) \| (.+) \|$", text, flags=re.MULTILINE)
    documented = {int(n): frozenset(re.findall(r"`(\w+)`", packages)) for n, packages in rows}
    assert documented == {n + 1: layer for n, layer in enumerate(ARENA_LAYERS)}
