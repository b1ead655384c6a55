"""mypy finds no error in service/ under the configuration in pyproject.toml (whose
exclusions are listed and explained there)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_reports_no_error():
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, check=False,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1].startswith("Success: no issues found in ")
