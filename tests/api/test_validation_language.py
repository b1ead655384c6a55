"""Validation messages follow Accept-Language: Spanish for es, marshmallow's English otherwise."""
import marshmallow as ma
import pytest
from marshmallow import fields, validate

from service.api.messages import FIELD_MESSAGES_ES as SPANISH
from service.api.messages import translate_field_message as translate
from tests.api.conftest import problem

ES = {"Accept-Language": "es"}


def errors(response) -> dict:
    return problem(response, 422, "validation_failed")["errors"]


def spanish_errors(client, path: str, body: dict) -> dict:
    response = client.post(path, json=body, headers=ES)
    assert response.headers["Content-Language"] == "es"
    return errors(response)


def test_show_score_types_and_unknown_field(client):
    body = {"hand": "x", "starter": 3, "crib": "yes", "extra": 1}
    assert spanish_errors(client, "/v1/show/score", body) == {
        "hand": ["No es una lista válida."],
        "starter": ["No es una cadena de texto válida."],
        "crib": ["No es un booleano válido."],
        "extra": ["Campo desconocido."],
    }


def test_show_score_length_null_and_required(client):
    assert spanish_errors(client, "/v1/show/score", {"hand": ["5H", "6D", "4C"]}) == {
        "hand": ["La longitud debe estar entre 4 y 5."],
        "starter": ["Falta este campo obligatorio."],
    }
    assert spanish_errors(client, "/v1/show/score", {"hand": None, "starter": ""}) == {
        "hand": ["El campo no puede ser nulo."],
        "starter": ["La longitud debe estar entre 1 y 40."],
    }


def test_a_body_that_is_not_an_object(client):
    response = client.post("/v1/show/score", data=b"[]", content_type="application/json",
                           headers=ES)
    assert errors(response) == {"body": ["Tipo de entrada no válido."]}


def test_verify_claim_errors_are_in_spanish(client):
    hand = {"hand": ["5H", "6D", "4C", "5S"], "starter": "JH"}
    assert spanish_errors(client, "/v1/show/verify",
                          {**hand, "claimed": [{"kind": "straight", "cards": []}]}) == {
        "claimed[0].kind": ["Debe ser uno de: fifteen, pair, run, flush, nobs."],
        "claimed[0].cards": ["La longitud debe estar entre 1 y 6."],
    }
    assert spanish_errors(client, "/v1/show/verify", {**hand, "claimed": 1000}) == {
        "claimed": ["Debe ser mayor o igual que 0 y menor o igual que 999."]}
    assert spanish_errors(client, "/v1/show/verify", {**hand, "claimed": "doce"}) == {
        "claimed": ["Se esperaba un número entero de puntos o una lista de combinaciones."]}
    too_many = [{"kind": "pair", "cards": ["5H", "5S"]}] * 65
    assert spanish_errors(client, "/v1/show/verify", {**hand, "claimed": too_many}) == {
        "claimed": ["Como máximo 64 combinaciones."]}


def test_pegging_replay_errors_are_in_spanish(client):
    assert spanish_errors(client, "/v1/pegging/replay", {"players": 7, "dealer": "0"}) == {
        "players": ["Debe ser mayor o igual que 2 y menor o igual que 6."],
        "dealer": ["No es un número entero válido."],
    }
    assert spanish_errors(client, "/v1/pegging/replay", {"players": 2, "dealer": 0}) == {
        "plays": ["Indique plays o cards, uno de los dos."]}


def test_discard_analysis_errors_are_in_spanish(client):
    body = {"hand": ["5H"], "players": 2.5, "own_crib": 1, "teams": "4x4"}
    assert spanish_errors(client, "/v1/analysis/discard", body) == {
        "hand": ["La longitud debe estar entre 4 y 6."],
        "players": ["No es un número entero válido."],
        "own_crib": ["No es un booleano válido."],
        "teams": ["Debe ser uno de: 2x2, 3x2, 2x3."],
    }


def test_games_create_with_bad_options(client):
    body = {"seats": [{"kind": "human"}, {"kind": "robot"}],
            "options": {"target": 5, "skunk": "double", "match": "yes"}}
    assert spanish_errors(client, "/v1/games", body) == {
        "seats[1].kind": ["Debe ser uno de: human, computer."],
        "options.target": ["Debe ser mayor o igual que 31 y menor o igual que 1000."],
        "options.skunk": ["Debe ser uno de: standard, acc."],
        "options.match": ["No es un booleano válido."],
    }


def test_games_events_query_string(client):
    response = client.get("/v1/games/AAAAAAAAAAAAAAAA/events?after=-1&wait=soon", headers=ES)
    assert errors(response) == {
        "query.after": ["Debe ser mayor o igual que 0 y menor o igual que 1000000000."],
        "query.wait": ["No es un número válido."],
    }
    response = client.get("/v1/games/AAAAAAAAAAAAAAAA/events?wait=nan", headers=ES)
    assert errors(response) == {
        "query.wait": ["No se admiten valores numéricos especiales (nan o infinito)."]}


@pytest.mark.parametrize("headers", [{}, {"Accept-Language": "en"}, {"Accept-Language": "fr"}])
def test_english_or_an_unsupported_language_gets_marshmallows_english(client, headers):
    response = client.post("/v1/show/score", headers=headers,
                           json={"hand": ["5H", "6D", "4C"], "starter": 3, "extra": 1})
    assert response.headers["Content-Language"] == "en"
    assert errors(response) == {"hand": ["Length must be between 4 and 5."],
                                "starter": ["Not a valid string."],
                                "extra": ["Unknown field."]}
    response = client.get("/v1/games/AAAAAAAAAAAAAAAA/events?wait=99", headers=headers)
    assert errors(response) == {
        "query.wait": ["Must be greater than or equal to 0 and less than or equal to 25."]}


def test_a_message_without_translation_stays_english():
    assert translate("Not a valid UUID.", "es") == "Not a valid UUID."
    assert translate("Must be one of: a, b.", "en") == "Must be one of: a, b."


def _message(field: fields.Field, value) -> str:
    try:
        field.deserialize(value)
    except ma.ValidationError as error:
        return error.messages[0]
    raise AssertionError(f"{value!r} passed")


# What marshmallow itself says, so that a reworded message in a new version fails here.
MARSHMALLOW_MESSAGES = [
    (fields.String(required=True), ma.missing),
    (fields.String(), None),
    (fields.String(), 3),
    (fields.String(), b"\xff"),
    (fields.Integer(), "x"),
    (fields.Integer(), 1e400),
    (fields.Float(), "x"),
    (fields.Float(), float("inf")),
    (fields.Boolean(), "maybe"),
    (fields.List(fields.String()), "x"),
    (fields.Dict(), "x"),
    (fields.Nested(ma.Schema, many=True), "x"),
    (fields.String(validate=validate.Length(1, 2)), ""),
    (fields.String(validate=validate.Length(min=2)), "x"),
    (fields.String(validate=validate.Length(max=1)), "xy"),
    (fields.String(validate=validate.Length(equal=3)), "x"),
    (fields.String(validate=validate.OneOf(["a", "b c"])), "x"),
    (fields.String(validate=validate.Equal("a")), "x"),
    (fields.String(validate=validate.Regexp("a+")), "x"),
    *[(fields.Integer(validate=validate.Range(0, 5, min_inclusive=low, max_inclusive=high)), 9)
      for low in (True, False) for high in (True, False)],
    (fields.Integer(validate=validate.Range(min=0)), -1),
    (fields.Integer(validate=validate.Range(min=0, min_inclusive=False)), -1),
    (fields.Integer(validate=validate.Range(max=0)), 1),
    (fields.Integer(validate=validate.Range(max=0, max_inclusive=False)), 1),
]


@pytest.mark.parametrize(("field", "value"), MARSHMALLOW_MESSAGES)
def test_every_marshmallow_message_the_schemas_use_has_a_spanish_text(field, value):
    english = _message(field, value)
    spanish = translate(english, "es")
    assert spanish != english and "{" not in spanish
    assert translate(english, "en") == english


def test_schema_level_messages_are_in_the_catalogue():
    for english in ma.Schema._default_error_messages.values():
        assert english in SPANISH
