"""GET /livez, /readyz and the benchmark baseline /v1/ping."""
from service.api.health import add_readiness_check
from tests.api.conftest import problem


def test_livez_is_ok(client):
    assert client.get("/livez").get_json() == {"status": "ok"}


def test_readyz_with_the_embedded_store(client):
    assert client.get("/readyz").get_json() == {"status": "ready", "checks": {"store": "ok"}}


def test_readyz_reports_failing_checks(app):
    add_readiness_check(app, "cache", lambda: 1 / 0)
    body = problem(app.test_client().get("/readyz"), 503, "not_ready")
    assert body["detail"] == "The service is not ready: cache"
    assert body["errors"] == {"cache": ["failing"]}


def test_readyz_with_passing_checks(app):
    add_readiness_check(app, "extra", lambda: True)
    assert app.test_client().get("/readyz").get_json() == {
        "status": "ready", "checks": {"store": "ok", "extra": "ok"}}


def test_ping_answers_ok_in_json(client):
    response = client.get("/v1/ping")
    assert response.get_json() == {"ok": True}
    assert response.mimetype == "application/json"
