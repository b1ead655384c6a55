"""The documentation site builds in strict mode, its HTTP reference names every operation of
openapi.yaml, and the README stays a front door."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

TOP = Path(__file__).resolve().parents[2]
README_MOST_LINES = 200


@pytest.fixture(scope="module")
def built_site(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)],
        cwd=TOP, capture_output=True, text=True, timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode == 0, result.stderr
    return site


def test_the_site_builds_in_strict_mode_with_every_page_of_the_nav(built_site):
    pages = sorted(str(page.relative_to(built_site)) for page in built_site.rglob("index.html"))
    assert pages == [
        "architecture/index.html", "figures/index.html", "guides/coach/index.html",
        "guides/deploy/index.html", "guides/errors/index.html", "guides/finding-a-game/index.html",
        "guides/library-cli/index.html", "guides/mobile-client/index.html",
        "guides/operations/index.html", "guides/players/index.html", "guides/rules/index.html",
        "guides/scoring/index.html", "index.html",
        "reference/http/index.html", "reference/library/index.html", "tutorial/index.html"]


def test_the_http_reference_names_every_operation_of_openapi_yaml(built_site):
    spec = yaml.safe_load((TOP / "openapi.yaml").read_text(encoding="utf-8"))
    operation_ids = {operation["operationId"] for item in spec["paths"].values()
                     for operation in item.values()
                     if isinstance(operation, dict) and "operationId" in operation}
    page = (built_site / "reference" / "http" / "index.html").read_text(encoding="utf-8")
    assert "scoreShow" in operation_ids
    assert {name for name in operation_ids if f'id="{name}"' not in page} == set()


def test_the_library_reference_documents_the_public_entry_points(built_site):
    page = (built_site / "reference" / "library" / "index.html").read_text(encoding="utf-8")
    for name in ("service.cards.Card", "service.scoring.score_show", "service.engine.apply",
                 "service.engine.view_event", "service.bots.ComputerPlayer"):
        assert f'id="{name}"' in page, name


def test_the_readme_is_a_front_door_of_at_most_200_lines():
    lines = (TOP / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MOST_LINES
