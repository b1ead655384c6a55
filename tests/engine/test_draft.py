"""The Draft declares GameState's fields as they are, so the type checker sees what rule
functions assign (a field added to GameState is declared on Draft too)."""
from __future__ import annotations

import dataclasses

from service.engine.state import Draft, GameState


def test_the_draft_declares_every_field_of_the_state_with_its_type():
    fields = {field.name: field.type for field in dataclasses.fields(GameState)}
    declared = {name: annotation for name, annotation in Draft.__annotations__.items()
                if name not in ("now", "events")}
    assert declared == fields
