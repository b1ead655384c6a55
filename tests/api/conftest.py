"""The app and a test client, from the real factory with settings that ignore the environment."""
from __future__ import annotations

import pytest

from service.api import create_app
from service.config import Settings


@pytest.fixture
def app():
    return create_app({"TESTING": True, "SETTINGS": Settings(rate_limit_enabled=False)})


@pytest.fixture
def client(app):
    return app.test_client()


def problem(response, status: int, code: str) -> dict:
    """The problem+json body of `response`, after checking its status, media type and code."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json(force=True)
    assert body["status"] == status
    assert body["code"] == code
    assert body["type"] == f"urn:cribbage:problem:{code}"
    assert body["title"] and body["detail"]
    return body
