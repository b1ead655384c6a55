"""The play page's files and the ReDoc page, in-process: served from the package, each under
the docs' Content-Security-Policy, loading nothing from elsewhere (the browser tests in
tests/ops/test_browser.py run them)."""
from __future__ import annotations

import re

from service.api.docs import CONTENT_SECURITY_POLICY
from service.api.messages import PLAY_PAGE_TEXTS

PLAY_FILES = {"/play/play.css": "text/css", "/play/play.js": "text/javascript",
              "/play/api.js": "text/javascript", "/play/stream.js": "text/javascript",
              "/play/cards.js": "text/javascript", "/play/texts.js": "text/javascript",
              "/play/board.js": "text/javascript", "/play/table.js": "text/javascript"}


def test_the_play_page_loads_only_files_of_this_service(client):
    page = client.get("/play")
    assert page.status_code == 200
    assert page.mimetype == "text/html"
    assert page.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    html = page.get_data(as_text=True)
    assert re.findall(r'(?:src|href)="([^"]+)"', html) == [
        "/play/play.css", "/docs/assets/favicon-32x32.png", "/play/play.js"]
    assert "<script>" not in html and "style=" not in html  # nothing inline for the policy


def test_every_module_of_the_page_is_served_as_javascript_under_the_policy(client):
    for path, mimetype in PLAY_FILES.items():
        response = client.get(path)
        assert (response.status_code, response.mimetype) == (200, mimetype), path
        assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        for imported in re.findall(r'from "\./([a-z]+\.js)"', response.get_data(as_text=True)):
            assert f"/play/{imported}" in PLAY_FILES, imported


def test_the_page_talks_only_to_this_service(client):
    scripts = "".join(client.get(path).get_data(as_text=True) for path in PLAY_FILES)
    addresses = set(re.findall(r"https?://[^\s\"']+", scripts))
    assert addresses == {"http://www.w3.org/2000/svg"}  # a namespace name, never fetched


def test_no_other_file_is_served(client):
    assert client.get("/play/index.html").status_code == 404
    assert client.get("/play/..%2F..%2Fdocs.py").status_code == 404


def test_the_page_texts_say_the_same_things_in_english_and_spanish(client):
    response = client.get("/play/texts.json")
    assert response.get_json() == PLAY_PAGE_TEXTS
    english, spanish = PLAY_PAGE_TEXTS["en"], PLAY_PAGE_TEXTS["es"]
    assert english.keys() == spanish.keys()
    for key, text in english.items():
        assert set(re.findall(r"\{\w+\}", text)) == set(re.findall(r"\{\w+\}", spanish[key])), key
    assert len(english["ranks"].split(",")) == len(spanish["ranks"].split(",")) == 13
    assert len(english["suits"].split(",")) == len(spanish["suits"].split(",")) == 4


def test_redoc_page_loads_only_files_of_this_service(client):
    page = client.get("/docs/redoc")
    assert page.status_code == 200
    assert page.headers["Content-Security-Policy"] == \
        CONTENT_SECURITY_POLICY + "; worker-src 'self' blob:"
    urls = re.findall(r'(?:src|href)="([^"]+)"', page.get_data(as_text=True))
    assert urls == ["/docs/assets/favicon-32x32.png", "/docs/redoc/redoc.standalone.js",
                    "/docs/redoc/init.js"]
    for url in urls:
        assert client.get(url).status_code == 200, url
    bundle = client.get("/docs/redoc/redoc.standalone.js").get_data(as_text=True)
    assert "cdn.redoc.ly" not in bundle
    assert 'Redoc.init("/openapi.json"' in client.get("/docs/redoc/init.js").get_data(
        as_text=True)
