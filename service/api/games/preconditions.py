"""ETags of a game view and the If-Match / If-None-Match lists that name them (RFC 9110 13.1)."""

from __future__ import annotations

import re

from service.api.problems import Problem
from service.games import GameSnapshot

OUR_TAG = re.compile(r'(?:W/)?"(\d{1,18})-(?:\d+|spectator)"')  # "<version>-<seat>"
ENTITY_TAG = re.compile(r'(?:W/)?"[\x21\x23-\x7e\x80-\xff]*"')  # etagc includes ","
_ELEMENT = rf"[ \t]*(?:{ENTITY_TAG.pattern}[ \t]*)?"  # list elements may be empty
ENTITY_TAG_LIST = re.compile(rf"{_ELEMENT}(?:,{_ELEMENT})*")
_ANY = r"[ \t]*\*[ \t]*"
# Every If-Match header accepted_versions takes (the OpenAPI document states it)
IF_MATCH_PATTERN = rf"^(?:{_ANY}|{ENTITY_TAG_LIST.pattern})$"


def etag(snapshot: GameSnapshot) -> str:
    seat = "spectator" if snapshot.seat is None else snapshot.seat
    return f'"{snapshot.version}-{seat}"'


def entity_tags(header: str) -> list[str] | None:
    """The entity-tags of a comma-separated list, in order; None when the list is malformed."""
    if not ENTITY_TAG_LIST.fullmatch(header):
        return None
    return ENTITY_TAG.findall(header)


def accepted_versions(if_match: str | None) -> frozenset[int] | None:
    """The versions an If-Match header accepts; None when any will do (absent or `*`). A header
    that is not a list of entity-tags is a 400; a tag that is not one of ours names no version."""
    if if_match is None or re.fullmatch(_ANY, if_match):
        return None
    tags = entity_tags(if_match)
    if tags is None:
        raise Problem(400, "invalid_if_match", "If-Match: not a list of quoted entity-tags",
                      header="If-Match")
    return frozenset(int(found.group(1)) for found in map(OUR_TAG.fullmatch, tags) if found)


def none_match(if_none_match: str | None, current: str) -> bool:
    """Whether an If-None-Match header names `current` (weak comparison)."""
    if if_none_match is None:
        return False
    if if_none_match.strip() == "*":
        return True
    return any(tag.removeprefix("W/") == current for tag in entity_tags(if_none_match) or ())
