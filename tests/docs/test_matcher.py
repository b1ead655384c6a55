"""The examples' runner itself: what it accepts, what it refuses, and what it says when it does."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.docs.examples import (FormatError, Mismatch, Request, compare_body, compare_text,
                                 compare_with_headers, page_examples, parse_curl,
                                 parse_expected_json, substitute,
                                 unrun_requests)
from tests.docs.test_examples import ExampleFailed, page_app, run_example


def compare(expected: str, actual: str, captured: dict | None = None) -> dict:
    captured = {} if captured is None else captured
    compare_body(expected, actual, captured)
    return captured


def refusal(expected: str, actual: str, captured: dict | None = None) -> str:
    with pytest.raises(Mismatch) as refused:
        compare(expected, actual, captured)
    return str(refused.value)


def test_a_value_in_angle_brackets_matches_any_value():
    compare('{"id": "<game id>", "time": "<time>"}', '{"id": "Xy12", "time": 1700000000}')


def test_an_object_without_dots_must_have_exactly_its_keys():
    assert refusal('{"a": 1}', '{"a": 1, "b": 2}') == (
        "$: keys not in the example (add them or `...`): ['b']")
    assert refusal('{"a": 1, "b": 2}', '{"a": 1}') == "$: no key 'b' in the answer"


def test_dots_in_an_object_leave_the_other_keys_uncompared():
    compare('{"a": 1, ..., "c": {"d": 4, ...}}', '{"a": 1, "b": 2, "c": {"d": 4, "e": 5}}')
    assert refusal('{..., "c": {"d": 4, ...}}', '{"c": {"d": 5}}') == (
        "$.c.d: expected 4, got 5")


def test_dots_as_an_arrays_last_item_let_more_items_follow():
    compare('{"cards": ["KC", "8H", ...]}', '{"cards": ["KC", "8H", "KS"]}')
    assert refusal('{"cards": ["KC", "8H", ...]}', '{"cards": ["KC"]}') == (
        '$.cards: expected 2+ items, got 1: ["KC"]')
    assert refusal('["KC", "8H"]', '["KC", "8H", "KS"]') == (
        '$: expected 2 items, got 3: ["KC", "8H", "KS"]')
    assert refusal('["KC", "8H", ...]', '["KC", "9H"]') == '$[1]: expected "8H", got "9H"'


def test_dots_in_the_middle_of_an_array_are_refused_as_a_format_error():
    with pytest.raises(FormatError, match=r"`\.\.\.` may only be an array's last item"):
        compare('[1, ..., 3]', '[1, 2, 3]')


def test_dots_inside_a_string_are_text():
    compare('{"detail": "Claimed 12, worth 16. The count is: ..."}',
            '{"detail": "Claimed 12, worth 16. The count is: ..."}')
    assert parse_expected_json('["a...b", ...]') == ["a...b", "\u2026ellipsis\u2026"]


def test_a_capture_takes_the_first_value_then_must_be_equal():
    captured = compare('{"game_id": "$GAME"}', '{"game_id": "Xy12"}')
    assert captured == {"GAME": "Xy12"}
    compare('{"game": {"game_id": "$GAME"}}', '{"game": {"game_id": "Xy12"}}', captured)
    assert refusal('{"game_id": "$GAME"}', '{"game_id": "Zz99"}', captured) == (
        '$.game_id: expected "Xy12", got "Zz99"')


def test_values_are_compared_with_their_type():
    assert refusal('{"seat": 1}', '{"seat": true}') == "$.seat: expected 1, got true"
    assert refusal('{"seat": 1}', '{"seat": "1"}') == '$.seat: expected 1, got "1"'


def test_json_expected_but_text_answered_is_a_mismatch():
    assert refusal('{"a": 1}', "Internal Server Error") == (
        "expected JSON, got Internal Server Error")


def test_text_is_compared_line_by_line_with_wildcards():
    compare_text("id: <n>\nevent: end", "id: 29\nevent: end\n\n", {})
    with pytest.raises(Mismatch, match="line 2: expected 'event: end', got 'event: state'"):
        compare_text("id: <n>\nevent: end", "id: 29\nevent: state", {})
    with pytest.raises(Mismatch, match="more output than the example shows: 'data: x'"):
        compare_text("event: end", "event: end\ndata: x", {})


def test_a_streams_data_line_is_compared_as_json_when_it_reads_as_json():
    captured = {"GAME": "Xy12"}
    compare_text('data: {"game_id": "$GAME", ...}', 'data: {"game_id":"Xy12","seat":0}', captured)
    with pytest.raises(Mismatch, match=r"line 1 data\.seat: expected 1, got 0"):
        compare_text('data: {"seat": 1, ...}', 'data: {"seat":0}', captured)


def test_with_curl_i_the_status_and_the_headers_shown_are_compared():
    headers = [("ETag", '"1-0"'), ("Location", "/v1/games/Xy12")]
    expected = 'HTTP/1.1 201 CREATED\nETag: "1-0"\n\n{"seat": 0}'
    compare_with_headers(expected, "HTTP/1.1 201 CREATED", headers, '{"seat": 0}', {})
    with pytest.raises(Mismatch, match="header ETag: expected '\"1-0\"', got \\['\"2-0\"'\\]"):
        compare_with_headers(expected, "HTTP/1.1 201 CREATED", [("ETag", '"2-0"')],
                             '{"seat": 0}', {})
    with pytest.raises(Mismatch, match="status: expected 'HTTP/1.1 201 CREATED', got 'HTTP/1.1 "
                                       "200 OK'"):
        compare_with_headers(expected, "HTTP/1.1 200 OK", headers, '{"seat": 0}', {})


def test_curl_commands_become_requests():
    assert parse_curl("curl -s localhost:8000/v1/games/Xy12 -H 'Authorization: Bearer t'") == (
        Request("GET", "/v1/games/Xy12", {"Authorization": "Bearer t"}))
    assert parse_curl("curl -si http://localhost:8000/v1/games -H 'Content-Type: "
                      "application/json' -d '{\"seats\": []}'") == Request(
        "POST", "/v1/games", {"Content-Type": "application/json"}, '{"seats": []}', True)
    assert parse_curl("curl -s -X DELETE 'localhost:8000/v1/games/Xy12/rematch?x=1'") == (
        Request("DELETE", "/v1/games/Xy12/rematch?x=1"))
    with pytest.raises(FormatError, match="curl flag -o is not in the docs' format"):
        parse_curl("curl -s -o out.json localhost:8000/v1/ping")
    with pytest.raises(FormatError, match=r"\|: pipes and redirections are not in"):
        parse_curl("curl -sN localhost:8000/v1/games/Xy12/stream | head -c 300")
    with pytest.raises(FormatError, match="must be localhost:8000"):
        parse_curl("curl -s example.com/v1/ping")


def test_variables_are_replaced_by_captured_values_and_unknown_ones_refused():
    assert substitute('curl "localhost:8000/v1/games/$GAME?after=${N}"', {"GAME": "Xy", "N": 3}) \
        == 'curl "localhost:8000/v1/games/Xy?after=3"'
    with pytest.raises(FormatError, match=r"\$BEA is used before an expected output captures it"):
        substitute("curl -H 'Authorization: Bearer $BEA' localhost:8000/", {})


PAGE = """# A page

```console
$ curl -s localhost:8000/v1/games -H 'Content-Type: application/json' -d '{
  "seats": [{"kind": "human"}, {"kind": "human"}]}'
{"game_id": "$GAME", ...}
$ GAME=<the id>
$ cribbage show 5H 5S 6D 4C JH
sixteen
$ curl -s localhost:8000/v1/games/$GAME \\
  -H 'Accept-Language: es'
{"game_id": "$GAME", ...}
```

<!-- example: not run -->
```console
$ curl -s "localhost:8000/v1/games/$GAME/events?wait=25"
```

```sh
curl -s localhost:8000/v1/ping
```
"""


def test_a_page_gives_its_curl_commands_with_their_lines_and_expected_output(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    examples = page_examples(page)
    assert [(example.line, example.command, example.expected) for example in examples] == [
        (4, ("curl -s localhost:8000/v1/games -H 'Content-Type: application/json' -d '{\n"
             '  "seats": [{"kind": "human"}, {"kind": "human"}]}\''),
         '{"game_id": "$GAME", ...}'),
        (10, "curl -s localhost:8000/v1/games/$GAME  -H 'Accept-Language: es'",
         '{"game_id": "$GAME", ...}')]


def test_a_page_runs_against_the_app_and_a_wrong_expectation_fails_with_its_place(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(PAGE.replace('es\'\n{"game_id": "$GAME", ...}',
                                 'es\'\n{"game_id": "$GAME", "version": 9, ...}'),
                    encoding="utf-8")
    client = page_app().test_client()
    captured: dict = {}
    first, second = page_examples(page)
    run_example(client, first, captured)
    with pytest.raises(ExampleFailed) as failed:
        run_example(client, second, captured)
    message = str(failed.value)
    assert message.startswith(f"{page}:10: $.version: expected 9, got 1\n"
                              "$ curl -s localhost:8000/v1/games/$GAME  -H 'Accept-Language: es'\n"
                              '--- expected\n{"game_id": "$GAME", "version": 9, ...}\n'
                              f'--- actual\n{{"game_id":"{captured["GAME"]}","version":1,')


def test_a_request_outside_console_blocks_is_found_unless_its_answer_goes_to_a_file(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(PAGE + """
```sh
GAME=$(curl -s localhost:8000/v1/games -d '{}' | jq -r .game_id)
curl -s 'localhost:8000/v1/show/image.svg?hand=5H,5S,6D,4C&starter=JH' > show.svg
$ curl -s localhost:8000/v1/ping
```
""", encoding="utf-8")
    assert unrun_requests(page) == [21, 25, 27]


LIVE_STREAM = """```console
$ curl -s localhost:8000/v1/games -H 'Content-Type: application/json' \\
  -d '{"seats": [{"kind": "human", "name": "Ana"}, {"kind": "human"}]}'
{"game_id": "$GAME", "token": "$ANA", ...}
$ curl -sN localhost:8000/v1/games/$GAME/stream -H "Authorization: Bearer $ANA"
retry: 3000
event: snapshot
data: {"game_id": "$GAME", "version": 1, "seat": 0, ...}
```
"""


def test_a_live_games_stream_is_read_as_far_as_the_example_shows(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(LIVE_STREAM, encoding="utf-8")
    client = page_app().test_client()
    captured: dict = {}
    create, follow = page_examples(page)
    run_example(client, create, captured)
    run_example(client, follow, captured)  # returns: the stream is closed after three lines
    wrong = replace(follow, expected=follow.expected.replace('"version": 1', '"version": 2'))
    with pytest.raises(ExampleFailed, match="line 3 data.version: expected 2, got 1"):
        run_example(client, wrong, captured)
