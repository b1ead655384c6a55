"""Spectral (spectral:oas, .spectral.yaml) and Redocly (recommended, redocly.yaml) find no errors
in openapi.yaml. Their warnings are printed (pytest -s shows them).

The linters come from the npm registry, installed at the pinned versions into .cache/lint
(git-ignored) the first time; the tests are skipped only on a machine without node and npm."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
LINT = ROOT / ".cache" / "lint"
PACKAGES = {"@stoplight/spectral-cli": "6.16.3", "@redocly/cli": "2.77.0"}
# No telemetry, update notices or colours from the tools
QUIET = {"REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true",
         "SCARF_ANALYTICS": "false", "NO_COLOR": "1"}

pytestmark = pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None,
                                reason="Spectral and Redocly need node and npm")


def _installed(package: str) -> str | None:
    manifest = LINT / "node_modules" / package / "package.json"
    return json.loads(manifest.read_text())["version"] if manifest.exists() else None


@pytest.fixture(scope="module")
def tools() -> pathlib.Path:
    if any(_installed(package) != version for package, version in PACKAGES.items()):
        subprocess.run(
            ["npm", "install", "--prefix", str(LINT), "--no-audit", "--no-fund",
             "--ignore-scripts", "--save-exact",
             *(f"{package}@{version}" for package, version in PACKAGES.items())],
            check=True, capture_output=True, timeout=600, env={**os.environ, **QUIET})
    return LINT / "node_modules" / ".bin"


def _run(command: list[str]) -> str:
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **QUIET})
    assert done.stdout.strip(), done.stderr
    return done.stdout


def test_spectral_oas_finds_no_errors(tools):
    found = json.loads(_run([str(tools / "spectral"), "lint", "openapi.yaml",
                             "--ruleset", ".spectral.yaml", "--format", "json"]))
    for problem in found:
        print("spectral", problem["code"], ".".join(map(str, problem["path"])), problem["message"])
    assert [problem for problem in found if problem["severity"] == 0] == []


def test_redocly_recommended_finds_no_errors(tools):
    found = json.loads(_run([str(tools / "redocly"), "lint", "openapi.yaml",
                             "--config", "redocly.yaml", "--format", "json"]))
    for problem in found["problems"]:
        print("redocly", problem["ruleId"], problem["location"][0]["pointer"], problem["message"])
    assert [problem for problem in found["problems"] if problem["severity"] == "error"] == []
    assert found["totals"]["errors"] == 0
