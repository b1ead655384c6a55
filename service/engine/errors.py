"""The codes of the errors the engine raises (service.errors' InvalidInputError for malformed
input, IllegalActionError for actions the rules refuse now). README lists them;
tests/engine/test_errors.py keeps this list exact."""

CODES = (
    "invalid_options", "invalid_action", "invalid_state", "unknown_seat", "wrong_phase",
    "not_your_turn", "game_over", "card_not_in_hand", "duplicate_card", "unknown_card",
    "wrong_discard_count", "count_would_exceed_31", "invalid_cut_depth", "not_a_claim_phase",
    "invalid_claim", "nothing_to_call", "too_late_to_abort", "not_timed_out",
)
