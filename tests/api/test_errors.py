"""Every error is RFC 9457 application/problem+json with the right status, whatever the input."""
import io

import pytest
from werkzeug.serving import DechunkedInput

from tests.api.conftest import problem

SHOW = "/v1/show/score"


def test_an_unknown_path_is_a_404_naming_it(client):
    body = problem(client.get("/v1/nothing-here"), 404, "not_found")
    assert body["detail"] == "Nothing at /v1/nothing-here"


def test_method_not_allowed_keeps_the_allow_header(client):
    response = client.put(SHOW, json={})
    problem(response, 405, "method_not_allowed")
    assert set(response.headers["Allow"].split(", ")) == {"POST", "OPTIONS"}


def test_truncated_json_is_a_400(client):
    problem(client.post(SHOW, data=b'{"hand": [', content_type="application/json"), 400,
            "invalid_json")


def test_a_body_that_is_not_utf8_is_a_400(client):
    problem(client.post(SHOW, data=b'{"hand": "\xff\xfe"}', content_type="application/json"),
            400, "invalid_json")


@pytest.mark.parametrize("body", [
    b'{"hand": NaN}', b'{"hand": [Infinity]}', b'{"hand": -Infinity}',  # not JSON
    b'{"hand": ["\\ud800"]}', b'{"\\udc00": 1}',  # lone surrogates: not writable as UTF-8
    b'\xef\xbb\xbf{"hand": []}',  # a byte order mark
])
def test_json_that_is_not_strict_json(client, body):
    problem(client.post(SHOW, data=body, content_type="application/json"), 400, "invalid_json")


def test_escaped_surrogate_pair_is_one_character(client):
    response = client.post(SHOW, data=b'{"hand": ["5H", "5S", "6D", "4C"], '
                                      b'"starter": "\\ud83c\\udca1"}',
                           content_type="application/json")
    detail = problem(response, 422, "unknown_card")["detail"]
    assert detail == 'starter: "\U0001f0a1" is not a card'


def test_integer_past_64_bits_is_checked_by_range(client):
    body = b'{"hand": ["5H", "5S", "6D", "4C"], "starter": "JH", "claimed": 1' + b"0" * 40 + b"}"
    response = client.post("/v1/show/verify", data=body, content_type="application/json")
    assert problem(response, 422, "validation_failed")["errors"] == {
        "claimed": ["Must be greater than or equal to 0 and less than or equal to 999."]}


def test_json_nested_too_deep_is_a_400(client):
    problem(client.post(SHOW, data=b"[" * 60000, content_type="application/json"), 400,
            "invalid_json")


@pytest.mark.parametrize("body", [b"[]", b"17", b'"hand"', b"null", b"true"])
def test_json_that_is_not_an_object(client, body):
    response = client.post(SHOW, data=body, content_type="application/json")
    assert problem(response, 422, "validation_failed")["errors"]["body"]


def test_a_body_that_is_not_json_is_a_415(client):
    response = client.post(SHOW, data='{"hand": []}', content_type="text/plain")
    problem(response, 415, "unsupported_media_type")


def test_empty_body_reports_missing_fields(client):
    body = problem(client.post(SHOW), 422, "validation_failed")
    assert body["errors"] == {"hand": ["Missing data for required field."],
                              "starter": ["Missing data for required field."]}


def test_a_body_over_64_kib_is_a_413(client):
    response = client.post(SHOW, data=b'{"hand": "' + b"x" * 70000 + b'"}',
                           content_type="application/json")
    problem(response, 413, "payload_too_large")


def chunked_post(client, size: int):
    """A body of `size` bytes with no Content-Length, as a server hands over a chunked one."""
    body = b'{"hand": ["5H", "5D", "5S", "JC"], "starter": "5C"}'.ljust(size)
    return client.post(SHOW, input_stream=io.BytesIO(body), content_type="application/json",
                       headers={"Transfer-Encoding": "chunked"},
                       environ_overrides={"wsgi.input_terminated": True})


def test_a_chunked_body_of_64_kib_is_read_whole(client):
    response = chunked_post(client, 65536)
    assert (response.status_code, response.get_json()["total"]) == (200, 29)


def test_a_chunked_body_over_64_kib_is_a_413_not_cut_at_the_limit(client):
    body = problem(chunked_post(client, 65537), 413, "payload_too_large")
    assert body["detail"] == "The request body is larger than 65536 bytes"


@pytest.mark.parametrize("language, title, detail", [
    ("en", "Bad request", "The request cannot be read"),
    ("es", "Petición incorrecta", "No se puede leer la petición"),
])
@pytest.mark.parametrize("chunks", [b"zz\r\n", b"5\r\nabcdeXX0\r\n\r\n", b"5\r\nab"],
                         ids=["chunk size not hex", "chunk not ended by CRLF", "cut short"])
def test_a_malformed_chunked_body_is_a_400(client, chunks, language, title, detail):
    """As werkzeug's own server hands one over: its reader raises OSError."""
    response = client.post(SHOW, content_type="application/json",
                           headers={"Transfer-Encoding": "chunked", "Accept-Language": language},
                           environ_overrides={"wsgi.input": DechunkedInput(io.BytesIO(chunks)),
                                              "wsgi.input_terminated": True})
    body = problem(response, 400, "bad_request")
    assert (body["title"], body["detail"]) == (title, detail)


def test_huge_array_is_rejected_by_length(client):
    response = client.post(SHOW, json={"hand": ["5H"] * 5000, "starter": "JH"})
    assert problem(response, 422, "validation_failed")["errors"] == {
        "hand": ["Length must be between 4 and 5."]}


@pytest.mark.parametrize("garbage", ["\u0000", "\ud7ff\ufffd", "🂡🂢", "ß" * 40, "5\u200bH",
                                     "of de", " ", "10"])
def test_unicode_garbage_in_a_card(client, garbage):
    response = client.post(SHOW, json={"hand": [garbage, "5S", "6D", "4C"], "starter": "JH"})
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"


def test_a_problem_speaks_the_requested_language(client):
    response = client.get("/v1/nada", headers={"Accept-Language": "es-MX, en;q=0.3"})
    body = problem(response, 404, "not_found")
    assert (body["title"], body["detail"]) == ("No encontrado", "No hay nada en /v1/nada")
    assert response.headers.getlist("Content-Language") == ["es"]
    assert response.headers.getlist("Vary") == ["Accept-Language"]


def test_a_response_without_texts_names_no_language(client):
    response = client.get("/v1/ping", headers={"Accept-Language": "es"})
    assert response.status_code == 200
    assert "Content-Language" not in response.headers
    assert "Vary" not in response.headers


def test_unexpected_error_is_a_logged_500_problem(app, caplog):
    @app.get("/boom")
    def boom():
        raise KeyError("bug")

    response = app.test_client().get("/boom")
    problem(response, 500, "internal_error")
    assert "unexpected error on GET /boom" in caplog.text


def test_domain_error_without_a_catalogue_entry_keeps_its_message(app):
    from service.errors import DomainError

    @app.get("/rule")
    def rule():
        raise DomainError("seat 2 cannot play now", code="a_code_nobody_catalogued")

    body = problem(app.test_client().get("/rule"), 422, "a_code_nobody_catalogued")
    assert body["detail"] == "seat 2 cannot play now"


def test_domain_error_without_a_field_keeps_its_message(app):
    from service.cards import Card

    @app.get("/parse")
    def parse():
        Card.parse("zz")

    body = problem(app.test_client().get("/parse"), 422, "unknown_card")
    assert body["detail"] == "not a card: 'zz'"
    assert "field" not in body
