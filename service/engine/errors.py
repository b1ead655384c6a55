"""Engine errors: a stable code per reason, in two kinds: malformed input, refused actions."""
from __future__ import annotations


class RuleError(ValueError):
    """An action or option the rules refuse.

    `code` is stable and machine-readable (the HTTP layer maps it once); `params` holds the values
    a message needs (for example the allowed depth range of a cut).
    """

    def __init__(self, code: str, message: str | None = None, **params):
        super().__init__(message or code.replace("_", " "))
        self.code = code
        self.params = params

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {str(self)!r}, **{self.params!r})"


class InvalidInputError(RuleError):
    """Malformed input: options, the shape of an action, a stored state, a card, a seat."""


class IllegalActionError(RuleError):
    """A well-formed action that the rules refuse in this state (turn, phase, cards, count)."""


MALFORMED_CODES = frozenset({"invalid_options", "invalid_action", "invalid_state",
                             "unknown_card", "duplicate_card", "unknown_seat"})

# Every code the engine raises (README lists them; tests/engine/test_errors.py keeps this exact).
CODES = (
    "invalid_options", "invalid_action", "invalid_state", "unknown_seat", "wrong_phase",
    "not_your_turn", "game_over", "card_not_in_hand", "duplicate_card", "unknown_card",
    "wrong_discard_count", "count_would_exceed_31", "invalid_cut_depth", "not_a_claim_phase",
    "invalid_claim", "nothing_to_call",
)
