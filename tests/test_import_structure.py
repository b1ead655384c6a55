"""The shape of the house: no import cycle among service/ modules, and a domain core that knows
nothing of the web or of storage."""
from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

SERVICE = Path(__file__).resolve().parents[1] / "service"
DOMAIN = ("service.cards", "service.errors", "service.scoring", "service.speech",
          "service.engine", "service.bots", "service.drawing")
FORBIDDEN = ("flask", "flask_smorest", "flask_limiter", "marshmallow", "webargs", "redis",
             "gunicorn", "werkzeug")
PRODUCT = DOMAIN + ("service.games", "service.store", "service.api")


def module_name(path: Path) -> str:
    parts = path.relative_to(SERVICE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in SERVICE.rglob("*.py")}
# A compiled module is known by its stub (service/bots/_playout.pyi).
MODULES.update((module_name(path), path) for path in SERVICE.rglob("*.pyi")
               if not path.with_suffix(".py").exists())


def imports_of(name: str) -> set[str]:
    """Every module `name` imports, anywhere in its code (also inside functions)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            submodules = {f"{base}.{alias.name}" for alias in node.names} & MODULES.keys()
            found.update(submodules)
            if len(submodules) < len(node.names):  # names defined in the module `base` itself
                found.add(base)
    return found


def service_imports(name: str) -> set[str]:
    return {imported for imported in imports_of(name) if imported in MODULES} - {name}


def test_no_import_cycle_among_service_modules():
    graph = {name: service_imports(name) for name in MODULES}
    state: dict[str, str] = {}

    def visit(name, trail):
        state[name] = "open"
        for imported in sorted(graph[name]):
            if state.get(imported) == "open":
                cycle = trail[trail.index(imported):] + [imported]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if imported not in state:
                visit(imported, trail + [imported])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])


def in_packages(name: str, packages) -> bool:
    return any(name == package or name.startswith(package + ".") for package in packages)


@pytest.mark.parametrize("name", sorted(name for name in MODULES if in_packages(name, DOMAIN)))
def test_the_domain_imports_no_web_or_storage_library(name):
    libraries = {imported.split(".")[0] for imported in imports_of(name)}
    assert not libraries & set(FORBIDDEN), name
    outside = {imported for imported in service_imports(name)
               if not in_packages(imported, DOMAIN) and imported != "service"}
    assert not outside, f"{name} imports {sorted(outside)}"


@pytest.mark.parametrize("name", sorted(name for name in MODULES if in_packages(name, PRODUCT)))
def test_the_product_never_imports_the_simulations(name):
    assert not any(in_packages(imported, ("service.simulation",))
                   for imported in imports_of(name)), name


# What `pip install cribbage` installs and imports: the core needs its own dependencies only;
# the server extra brings the web and storage libraries, the docs extra the YAML writer.
CORE = DOMAIN + ("service.simulation", "service.cli")


def declared_dependencies(*extras: str) -> set[str]:
    project = tomllib.loads((SERVICE.parent / "pyproject.toml").read_text())["project"]
    requirements = project["dependencies"] + [
        requirement for extra in extras for requirement in project["optional-dependencies"][extra]]
    return {canonical(re.split(r"[<>=!~\[; ]", requirement)[0]) for requirement in requirements}


def canonical(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()


def undeclared_libraries(modules, declared: set[str]) -> set[str]:
    libraries = {imported.split(".")[0] for name in modules for imported in imports_of(name)}
    libraries -= set(sys.stdlib_module_names) | {"service"}
    distributions = packages_distributions()
    return {library for library in libraries
            if not {canonical(d) for d in distributions.get(library, [library])} & declared}


def test_the_core_imports_only_the_core_dependencies():
    core = [name for name in MODULES if in_packages(name, CORE)]
    assert not undeclared_libraries(core, declared_dependencies())


def test_every_library_the_service_imports_is_a_declared_dependency():
    undeclared = undeclared_libraries(MODULES, declared_dependencies("server", "docs"))
    assert not undeclared, f"imported, not in pyproject.toml's dependencies: {sorted(undeclared)}"


def test_yaml_is_imported_only_to_write_the_document():
    assert {name for name in MODULES if "yaml" in imports_of(name)} == {"service.api.openapi"}
