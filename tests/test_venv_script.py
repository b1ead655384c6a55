"""scripts/venv.sh installs into .venv only when pyproject.toml, the lock file or the C source the
install compiles changed since the last install, so scripts/serve and scripts/test start from a complete .venv without an index.

The project here is a copy of the script in a temporary directory whose `.venv/bin/python`
records the commands it is given instead of running pip."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PIP = "-m pip install --quiet --disable-pip-version-check"
INSTALL = {
    "server": [f"{PIP} --require-hashes -r requirements/server.txt", f"{PIP} --no-deps -e ."],
    "test": [f"{PIP} --require-hashes -r requirements/test.txt", f"{PIP} --no-deps -e ."],
}


@pytest.fixture
def project(tmp_path) -> Path:
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "venv.sh", tmp_path / "scripts")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "service" / "bots").mkdir(parents=True)
    (tmp_path / "service" / "bots" / "_playout.c").write_text("int x;\n")
    (tmp_path / "requirements").mkdir()
    for lock in ("server", "test"):
        (tmp_path / "requirements" / f"{lock}.txt").write_text(f"{lock}==1.0\n")
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text('#!/bin/sh\necho "$*" >> "$(dirname "$0")/../../pip-calls"\n')
    python.chmod(0o755)
    return tmp_path


def ensure_venv(project: Path, lock: str) -> list[str]:
    """The commands .venv/bin/python ran for `ensure_venv lock`."""
    calls = project / "pip-calls"
    calls.unlink(missing_ok=True)
    subprocess.run(["bash", "-c", f"source scripts/venv.sh && ensure_venv {lock}"],
                   cwd=project, check=True, timeout=60)
    return calls.read_text().splitlines() if calls.exists() else []


def test_the_first_run_installs_the_lock_and_the_project(project):
    assert ensure_venv(project, "test") == INSTALL["test"]


def test_nothing_is_installed_while_pyproject_and_the_lock_are_unchanged(project):
    ensure_venv(project, "server")
    assert ensure_venv(project, "server") == []


@pytest.mark.parametrize("changed", ["pyproject.toml", "requirements/server.txt",
                                     "service/bots/_playout.c"])
def test_a_changed_pyproject_lock_or_c_source_installs_again(project, changed):
    ensure_venv(project, "server")
    with open(project / changed, "a") as file:
        file.write("# changed\n")
    assert ensure_venv(project, "server") == INSTALL["server"]


def test_a_venv_installed_for_the_tests_also_serves(project):
    ensure_venv(project, "test")
    assert ensure_venv(project, "server") == []


def test_a_venv_installed_to_serve_gets_the_test_lock_for_the_tests(project):
    ensure_venv(project, "server")
    assert ensure_venv(project, "test") == INSTALL["test"]
    assert ensure_venv(project, "test") == []
