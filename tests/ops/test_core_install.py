"""`pip install` of the project without extras, into a clean venv: the scoring core, the engine
and the computer players come with numpy alone, import nothing of the web or of storage, are
typed, and the installed `cribbage` command prints what the README and the docs show."""
from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_cli import documented_examples

ROOT = Path(__file__).resolve().parents[2]
INSTALL_SECONDS = 900  # numpy's wheel from the index on a busy machine
CORE_MODULES = ("service", "service.cards", "service.errors", "service.speech",
                "service.scoring", "service.scoring.fast", "service.engine", "service.bots",
                "service.simulation", "service.cli")
SERVER_LIBRARIES = ("flask", "flask_smorest", "flask_limiter", "marshmallow", "webargs",
                    "werkzeug", "redis", "gunicorn", "gevent", "limits", "prometheus_client",
                    "orjson", "yaml")


@pytest.fixture(scope="module")
def core_venv(tmp_path_factory) -> Path:
    """A fresh venv holding `pip install .` of a copy of the project's sources."""
    where = tmp_path_factory.mktemp("core")
    source = where / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source)
    shutil.copytree(ROOT / "service", source / "service",
                    ignore=shutil.ignore_patterns("__pycache__"))
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                    str(source)], check=True, timeout=INSTALL_SECONDS)
    return venv


def run_python(venv: Path, code: str):
    done = subprocess.run([str(venv / "bin" / "python"), "-c", code], check=True,
                          capture_output=True, text=True, timeout=120, cwd=venv)
    return json.loads(done.stdout)


def test_the_core_installs_numpy_and_nothing_else(core_venv):
    installed = run_python(core_venv, (
        "import importlib.metadata as m, json;"
        "print(json.dumps(sorted(d.metadata['Name'].lower() for d in m.distributions())))"))
    assert installed == ["cribbage", "numpy", "pip", "setuptools"]


def test_the_core_imports_no_web_or_storage_library_and_none_is_there(core_venv):
    found = run_python(core_venv, (
        "import importlib, importlib.util, json, sys;"
        f"[importlib.import_module(name) for name in {CORE_MODULES!r}];"
        "print(json.dumps({'imported': sorted(name for name in sys.modules"
        f"                                    if name.split('.')[0] in {SERVER_LIBRARIES!r}),"
        "                  'importable': sorted(name for name in"
        f"                                      {SERVER_LIBRARIES!r}"
        "                                      if importlib.util.find_spec(name))}))"))
    assert found == {"imported": [], "importable": []}


def test_the_installed_core_is_typed(core_venv):
    typed = run_python(core_venv, (
        "import importlib.resources, json;"
        "print(json.dumps((importlib.resources.files('service') / 'py.typed').is_file()))"))
    assert typed is True


@pytest.mark.parametrize("command, output", documented_examples())
def test_the_installed_command_prints_what_the_docs_show(core_venv, command, output):
    done = subprocess.run([str(core_venv / "bin" / "cribbage"), *shlex.split(command)[1:]],
                          check=False, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, output, "")
