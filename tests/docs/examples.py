"""The docs' runnable examples: read from the pages, run as requests, compared with what they show.

The format (shared with the docs' authors): a fenced `console` block holds commands, lines
starting with `$ curl ` (a trailing backslash, or a quote left open, continues one), each
followed by its expected output up to the next line starting with `$ `. Other `$ ` lines
(`$ cribbage ...`, `$ NAME=...`) are not run here. A block right after
`<!-- example: not run -->` is skipped. Expected JSON may leave keys out (`...` inside an
object), stop early (`...` as an array's last item), match any value (`"<anything>"`) or
capture one (`"$NAME"`, then equal to it everywhere after, and substituted into later
commands). Other output is compared line by line, `<...>` matching any text; a `data: ` line
of a stream is compared as JSON when its expectation reads as JSON. A stream is read until it
ends or has sent as many lines as the example shows, so a live game's stream can be shown by
its first messages.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

NOT_RUN = "<!-- example: not run -->"
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*(\S*)")
CAPTURE = re.compile(r"^\$([A-Za-z_][A-Za-z0-9_]*)$")
VARIABLE = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
UNRUN_CURL = re.compile(r"(^\s*(\$ )?|\$\()curl (?![^>]*>\s*\S+\s*$)")
WILDCARD = re.compile(r"<[^<>]*>")
ELLIPSIS = "\u2026ellipsis\u2026"  # what a bare `...` becomes while the expectation is parsed


class FormatError(ValueError):
    """An example the format does not allow (the page is wrong, not the app)."""


class Mismatch(AssertionError):
    """The app answered other than the example shows; the message says where."""


@dataclass(frozen=True)
class Example:
    page: Path
    line: int       # of the `$ curl` line, counted from 1
    command: str    # without the `$ ` and the continuation backslashes
    expected: str   # the output lines as the page shows them


@dataclass
class Request:
    method: str
    path: str       # with the query
    headers: dict[str, str] = field(default_factory=dict)
    data: str | None = None
    include_headers: bool = False  # curl -i


def page_examples(page: Path) -> list[Example]:
    """The page's runnable examples, in order."""
    examples: list[Example] = []
    lines = page.read_text(encoding="utf-8").split("\n")
    index = 0
    previous = ""
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            if lines[index].strip():
                previous = lines[index].strip()
            index += 1
            continue
        fence, language = opening.group(2), opening.group(3)
        end = index + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        if language == "console" and previous != NOT_RUN:
            indent = len(opening.group(1))
            body = [line[indent:] if not line[:indent].strip() else line.lstrip()
                    for line in lines[index + 1:end]]
            examples.extend(_block_examples(page, index + 2, body))
        previous = ""
        index = end + 1
    return examples


def unrun_requests(page: Path) -> list[int]:
    """Lines of curl requests in blocks that are not `console` (so not run), other than those
    whose answer goes to a file: a request shown with its answer must be an example."""
    lines = page.read_text(encoding="utf-8").split("\n")
    found = []
    fence = None
    for number, line in enumerate(lines, 1):
        opening = FENCE.match(line)
        if fence is None and opening:
            fence, language = opening.group(2), opening.group(3)
        elif fence is not None and line.strip().startswith(fence):
            fence = None
        elif fence is not None and language != "console" and UNRUN_CURL.search(line):
            found.append(number)
    return found


def _block_examples(page: Path, first_line: int, body: list[str]) -> list[Example]:
    examples = []
    index = 0
    while index < len(body):
        if not body[index].startswith("$ curl "):
            index += 1
            continue
        start = index
        command = body[index][2:]
        while index + 1 < len(body) and (command.endswith("\\") or _open_quote(command)):
            index += 1
            command = (command[:-1] + " " + body[index].strip() if command.endswith("\\")
                       else command + "\n" + body[index])
        index += 1
        output_start = index
        while index < len(body) and not body[index].startswith("$ "):
            index += 1
        examples.append(Example(page, first_line + start, command,
                                "\n".join(body[output_start:index])))
    return examples


def _open_quote(command: str) -> bool:
    """Whether a quote is still open at the line's end (the shell then reads the next line)."""
    try:
        shlex.split(command)
    except ValueError:
        return True
    return False


def substitute(command: str, captured: dict[str, Any]) -> str:
    """The command with each `$NAME` (or `${NAME}`) replaced by the value captured for it."""
    def value(match: re.Match) -> str:
        name = match.group(1) or match.group(2)
        if name not in captured:
            raise FormatError(f"${name} is used before an expected output captures it")
        return str(captured[name])
    return VARIABLE.sub(value, command)


def parse_curl(command: str) -> Request:
    """The request a curl command line makes, for the flags the format allows."""
    try:
        words = shlex.split(command)
    except ValueError as error:
        raise FormatError(f"{error}: {command}") from None
    if words[:1] != ["curl"]:
        raise FormatError(f"not a curl command: {command}")
    method = None
    url = None
    headers: dict[str, str] = {}
    data = None
    include = False
    words = words[1:]
    while words:
        word = words.pop(0)
        if word in ("-X", "--request", "-H", "--header", "-d", "--data", "--data-raw"):
            if not words:
                raise FormatError(f"{word} needs a value")
            value = words.pop(0)
            if word in ("-X", "--request"):
                method = value
            elif word in ("-H", "--header"):
                name, _, text = value.partition(":")
                headers[name.strip()] = text.strip()
            else:
                data = value
        elif re.fullmatch(r"-[siN]+", word):
            include = include or "i" in word
        elif word.startswith("-"):
            raise FormatError(f"curl flag {word} is not in the docs' format")
        elif word in ("|", ">", ">>", "<", ";", "&&", "||"):
            raise FormatError(f"{word}: pipes and redirections are not in the docs' format")
        elif url is None:
            url = word
        else:
            raise FormatError(f"a second URL: {word}")
    if url is None:
        raise FormatError("no URL")
    parts = urlsplit(url if "://" in url else "http://" + url)
    if parts.netloc != "localhost:8000":
        raise FormatError(f"the URL must be localhost:8000/..., not {url}")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    if data is not None and not any(name.lower() == "content-type" for name in headers):
        headers["Content-Type"] = "application/x-www-form-urlencoded"  # as curl sends -d
    return Request(method or ("POST" if data is not None else "GET"), path, headers, data,
                   include)


def parse_expected_json(text: str) -> Any:
    """The expectation as JSON, each bare `...` marked (see `matches`); FormatError if not JSON.

    In an object the mark takes the place of a key (given a value so that it parses), in an
    array that of an item."""
    marked = []
    brackets: list[str] = []
    in_string = False
    index = 0
    while index < len(text):
        char = text[index]
        if in_string:
            if char == "\\":
                marked.append(text[index:index + 2])
                index += 2
                continue
            in_string = char != '"'
        elif char == '"':
            in_string = True
        elif char in "[{":
            brackets.append(char)
        elif char in "]}" and brackets:
            brackets.pop()
        elif text.startswith("...", index):
            in_object = brackets[-1:] == ["{"]
            marked.append(f'"{ELLIPSIS}": true' if in_object else f'"{ELLIPSIS}"')
            index += 3
            continue
        marked.append(char)
        index += 1
    try:
        return json.loads("".join(marked), object_pairs_hook=_object)
    except json.JSONDecodeError as error:
        raise FormatError(f"not JSON: {error}") from None


class OpenObject(dict):
    """An expected object written with `...`: keys it does not list are not compared."""


def _object(pairs: list[tuple[str, Any]]) -> dict:
    keys = [key for key, _ in pairs if key != ELLIPSIS]
    if len(set(keys)) != len(keys):
        raise FormatError(f"a key repeated in {keys}")
    kind = OpenObject if len(keys) < len(pairs) else dict
    return kind((key, value) for key, value in pairs if key != ELLIPSIS)


def matches(expected: Any, actual: Any, captured: dict[str, Any], where: str = "$") -> None:
    """Raise Mismatch naming the first place where `actual` differs from `expected`."""
    if isinstance(expected, str):
        capture = CAPTURE.match(expected)
        if capture:
            name = capture.group(1)
            if name not in captured:
                captured[name] = actual
                return
            expected = captured[name]
        elif WILDCARD.fullmatch(expected):
            return
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            raise Mismatch(f"{where}: expected an object, got {_short(actual)}")
        missing = [key for key in expected if key not in actual]
        if missing:
            raise Mismatch(f"{where}: no key {missing[0]!r} in the answer")
        extra = [key for key in actual if key not in expected]
        if extra and not isinstance(expected, OpenObject):
            raise Mismatch(f"{where}: keys not in the example (add them or `...`): {extra}")
        for key, value in expected.items():
            matches(value, actual[key], captured, f"{where}.{key}")
        return
    if isinstance(expected, list):
        if not isinstance(actual, list):
            raise Mismatch(f"{where}: expected an array, got {_short(actual)}")
        items = list(expected)
        is_open = bool(items) and items[-1] == ELLIPSIS
        if is_open:
            items.pop()
        if ELLIPSIS in items:
            raise FormatError(f"{where}: `...` may only be an array's last item")
        if len(actual) < len(items) or (not is_open and len(actual) != len(items)):
            raise Mismatch(f"{where}: expected {len(items)}{'+' if is_open else ''} items, "
                           f"got {len(actual)}: {_short(actual)}")
        for index, item in enumerate(items):
            matches(item, actual[index], captured, f"{where}[{index}]")
        return
    if expected == ELLIPSIS:
        raise FormatError(f"{where}: `...` stands for keys or items, not a value")
    if type(expected) is not type(actual) or expected != actual:
        raise Mismatch(f"{where}: expected {_short(expected)}, got {_short(actual)}")


def line_matches(expected: str, actual: str) -> bool:
    """A line of text output against its expectation, `<...>` matching any text."""
    pattern = ".*".join(re.escape(part) for part in WILDCARD.split(expected))
    return re.fullmatch(pattern, actual) is not None


def compare_text(expected: str, actual: str, captured: dict[str, Any]) -> None:
    """Line by line; a `data: ` line whose expectation reads as JSON is compared as JSON."""
    wanted = expected.rstrip("\n").split("\n") if expected.strip() else []
    got = actual.rstrip("\n").split("\n") if actual.strip() else []
    for number, line in enumerate(wanted):
        if number >= len(got):
            raise Mismatch(f"line {number + 1}: expected {line!r}, the output has ended")
        data = _data_json(line)
        if data is not None and got[number].startswith("data: "):
            try:
                answer = json.loads(got[number][len("data: "):])
            except json.JSONDecodeError:
                raise Mismatch(f"line {number + 1}: expected JSON data, got {got[number]!r}") \
                    from None
            matches(data, answer, captured, f"line {number + 1} data")
        elif not line_matches(line, got[number]):
            raise Mismatch(f"line {number + 1}: expected {line!r}, got {got[number]!r}")
    if len(got) > len(wanted):
        raise Mismatch(f"line {len(wanted) + 1}: more output than the example shows: "
                       f"{got[len(wanted)]!r}")


def _data_json(line: str) -> Any:
    if not line.startswith("data: "):
        return None
    try:
        return parse_expected_json(line[len("data: "):])
    except FormatError:
        return None


def compare_body(expected: str, actual: str, captured: dict[str, Any]) -> None:
    """A body: as JSON when the expectation reads as JSON, else as text lines."""
    try:
        wanted = parse_expected_json(expected) if expected.strip() else None
    except FormatError:
        wanted = None
    if wanted is None:
        compare_text(expected, actual, captured)
        return
    try:
        answer = json.loads(actual)
    except json.JSONDecodeError:
        raise Mismatch(f"expected JSON, got {_clip(actual)}") from None
    matches(wanted, answer, captured)


def compare_with_headers(expected: str, status_line: str, headers: list[tuple[str, str]],
                         body: str, captured: dict[str, Any]) -> None:
    """curl -i: the status line, the headers shown (others not compared), a blank line, the body."""
    lines = expected.split("\n")
    if not lines or not line_matches(lines[0], status_line):
        raise Mismatch(f"status: expected {lines[0] if lines else ''!r}, got {status_line!r}")
    index = 1
    while index < len(lines) and lines[index].strip():
        name, _, value = lines[index].partition(":")
        values = [text for key, text in headers if key.lower() == name.strip().lower()]
        if not any(line_matches(value.strip(), text) for text in values):
            raise Mismatch(f"header {name.strip()}: expected {value.strip()!r}, got {values}")
        index += 1
    compare_body("\n".join(lines[index + 1:]), body, captured)


def _short(value: Any) -> str:
    """A JSON value as JSON, cut short."""
    return _clip(json.dumps(value))


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
