"""Every request example in docs/ runs against the real app and answers what the page shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from service.api import create_app
from service.config import Settings
from service.store import MemoryGameStore
from tests.docs.examples import (Example, FormatError, Mismatch, Request, compare_body,
                                 compare_with_headers, page_examples, parse_curl, substitute,
                                 unrun_requests)
from tests.games.conftest import Clock

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs").glob("**/*.md"))
PAGES_WITH_EXAMPLES = [page for page in PAGES if page_examples(page)]


def page_app():
    """The service as deployed, on a fresh empty store, its clock still (times repeat run to run)
    and no rate limits (a page may make as many requests as it needs)."""
    config = {"TESTING": True, "GAME_STORE": MemoryGameStore(3600),
              "SETTINGS": Settings(rate_limit_enabled=False)}
    return create_app(config, clock=Clock())


def run_example(client, example: Example, captured: dict[str, Any]) -> None:
    request = parse_curl(substitute(example.command, captured))
    if request.path.split("?")[0].endswith("/stream"):
        status, headers, body = _read_stream(client, request, example.expected)
    else:
        response = client.open(request.path, method=request.method, headers=request.headers,
                               data=request.data)
        status, headers, body = response.status, list(response.headers.items()), response.text
    status_line = f"HTTP/1.1 {status}"
    try:
        if request.include_headers:
            compare_with_headers(example.expected, status_line, headers, body, captured)
        else:
            compare_body(example.expected, body, captured)
    except (Mismatch, FormatError) as problem:
        shown = "\n".join([status_line, *(f"{name}: {value}" for name, value in headers), "",
                           body]) if request.include_headers else body
        raise ExampleFailed(failure(example, shown, problem)) from None


class ExampleFailed(AssertionError):
    """An example's failure: the page, the line, the command, expected and actual."""


def _read_stream(client, request: Request, expected: str):
    """A stream read until it ends or has sent as many lines as the example shows (a live
    game's stream stays open)."""
    response = client.open(request.path, method=request.method, headers=request.headers,
                           buffered=False)
    shown = expected.rstrip("\n").count("\n") + 1
    if request.include_headers:
        shown -= expected.split("\n\n", 1)[0].count("\n") + 2
    text = ""
    try:
        for chunk in response.response:
            text += chunk.decode() if isinstance(chunk, bytes) else chunk
            if text.rstrip("\n").count("\n") + 1 >= shown:
                break
    finally:
        response.close()
    return response.status, list(response.headers.items()), text


def failure(example: Example, actual: str, problem: Exception) -> str:
    page = example.page.relative_to(ROOT) if example.page.is_relative_to(ROOT) else example.page
    return (f"{page}:{example.line}: {problem}\n"
            f"$ {example.command}\n--- expected\n{example.expected}\n--- actual\n{actual}")


@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES,
                         ids=[str(page.relative_to(ROOT)) for page in PAGES_WITH_EXAMPLES])
def test_the_pages_examples_answer_what_they_show(page):
    client = page_app().test_client()
    captured: dict[str, Any] = {}
    for example in page_examples(page):
        try:
            run_example(client, example, captured)
        except ExampleFailed as failed:
            pytest.fail(str(failed), pytrace=False)
        except FormatError as problem:  # the command itself
            pytest.fail(failure(example, "(not run)", problem), pytrace=False)


@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(ROOT)) for page in PAGES])
def test_every_request_a_page_shows_is_run(page):
    """A curl request in an `sh` block would go stale unseen: show it as a `console` example
    (or, where no run can be made deterministic, a console block marked not run)."""
    assert unrun_requests(page) == [], (
        f"{page.relative_to(ROOT)}: curl outside console blocks at lines {unrun_requests(page)}")


def test_there_are_examples_to_run():
    assert PAGES_WITH_EXAMPLES, "no docs page has a console example"
