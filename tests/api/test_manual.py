"""The documentation site at /docs/manual/: served from CRIBBAGE_DOCS_SITE when built, a 404
problem when not, never a file outside it."""
from __future__ import annotations

import pytest

from service.api import create_app
from service.config import Settings
from tests.api.conftest import problem

INDEX = "<!doctype html><title>Cribbage service</title>"
ERRORS_PAGE = "<!doctype html><title>Errors</title>"


@pytest.fixture
def site(tmp_path):
    """A built site as mkdocs lays it out, and a secret file beside it."""
    root = tmp_path / "site"
    (root / "guides" / "errors").mkdir(parents=True)
    (root / "assets").mkdir()
    (root / "search").mkdir()
    (root / "index.html").write_text(INDEX)
    (root / "guides" / "errors" / "index.html").write_text(ERRORS_PAGE)
    (root / "assets" / "site.css").write_text("body { margin: 0 }")
    (root / "search" / "search_index.json").write_text('{"docs": []}')
    (tmp_path / "secret.txt").write_text("not for the web")
    return root


def client_for(docs_site: str):
    settings = Settings(rate_limit_enabled=False, docs_site=docs_site)
    return create_app({"TESTING": True, "SETTINGS": settings}).test_client()


def test_the_home_page_is_the_site_index_under_a_policy_of_self(site):
    response = client_for(str(site)).get("/docs/manual/")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    assert response.get_data(as_text=True) == INDEX
    assert response.headers["Content-Security-Policy"] == (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "script-src 'self' 'unsafe-inline'")


def test_a_folder_without_its_slash_is_redirected_so_relative_links_resolve(site):
    client = client_for(str(site))
    assert client.get("/docs/manual").headers["Location"].endswith("/docs/manual/")
    response = client.get("/docs/manual/guides/errors")
    assert (response.status_code, response.headers["Location"]) == (
        308, "/docs/manual/guides/errors/")
    assert client.get("/docs/manual/guides/errors/").get_data(as_text=True) == ERRORS_PAGE


@pytest.mark.parametrize("path, mimetype", [
    ("assets/site.css", "text/css"), ("search/search_index.json", "application/json")])
def test_files_have_their_content_type(site, path, mimetype):
    response = client_for(str(site)).get(f"/docs/manual/{path}")
    assert (response.status_code, response.mimetype) == (200, mimetype)


@pytest.mark.parametrize("path", [
    "/docs/manual/..%2Fsecret.txt", "/docs/manual/%2e%2e/secret.txt",
    "/docs/manual/guides/..%2F..%2Fsecret.txt", "/docs/manual/guides/%2e%2e/%2e%2e/secret.txt",
    "/docs/manual/no-such-page/"])
def test_nothing_outside_the_site_nor_a_missing_page_is_served(site, path):
    problem(client_for(str(site)).get(path), 404, "not_found")


@pytest.mark.parametrize("docs_site", ["", "never-built"])
def test_without_a_built_site_the_manual_is_a_404_problem(tmp_path, docs_site):
    client = client_for(docs_site and str(tmp_path / docs_site))
    problem(client.get("/docs/manual/"), 404, "not_found")
    problem(client.get("/docs/manual/index.html"), 404, "not_found")


def test_the_setting_names_the_directory_and_defaults_to_the_checkouts_site():
    assert Settings.from_env({"CRIBBAGE_DOCS_SITE": "/srv/manual"}).docs_site == "/srv/manual"
    assert Settings.from_env({}).docs_site.endswith("/site")
