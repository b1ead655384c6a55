"""What each operation refuses in a request that follows its schema: the documented refusals
(each response's description in openapi.yaml names its codes), and the schemathesis
configuration that accepts exactly those, by status and by problem code."""

from __future__ import annotations

import schemathesis
from schemathesis.config import SchemathesisConfig

# operationId -> status -> the problem codes it may carry (None: no body, e.g. 304)
REFUSALS: dict[str, dict[int, tuple[str, ...] | None]] = {
    "scoreShow": {422: ("duplicate_card",)},
    "verifyShow": {422: ("duplicate_card", "card_not_held")},
    "scorePegging": {422: ("duplicate_card", "count_exceeds_31")},
    # A batch that follows the schema can still be larger than the batch body limit
    "scoreShowBatch": {413: ("payload_too_large",), 422: ("invalid_items",)},
    "scorePeggingBatch": {413: ("payload_too_large",), 422: ("invalid_items",)},
    "drawShow": {422: ("duplicate_card",)},
    "drawBoard": {422: ("validation_failed",)},
    "replayPegging": {422: ("validation_failed", "duplicate_card", "count_exceeds_31",
                            "seat_out_of_range", "play_out_of_turn", "play_skipped_playable",
                            "wrong_play_count", "wrong_total_plays", "seats_not_inferable")},
    "analyseDiscard": {422: ("duplicate_card", "wrong_hand_size", "dealer_owns_crib",
                             "invalid_teams", "game_already_won", "scores_given_twice",
                             "wrong_score_count", "dealer_out_of_range",
                             "crib_owner_mismatch", "dealer_hand_mismatch")},
    "analysePlay": {422: ("duplicate_card", "card_seen_twice", "count_exceeds_31", "count_is_31",
                          "count_mismatch", "too_many_cards", "invalid_next_cards",
                          "game_already_won", "invalid_teams", "wrong_hand_sizes",
                          "seat_out_of_range", "dealer_mismatch", "played_card_unseen",
                          "impossible_hands", "scores_given_twice", "wrong_score_count")},
    "analysePosition": {422: ("invalid_teams", "wrong_score_count", "dealer_out_of_range",
                              "game_already_won")},
    # The games: besides what the schema cannot say, the state of the game and its secrets (a
    # game id, an invite code, a seat token the generator cannot know).
    "createGame": {401: ("missing_token", "invalid_player_token"),
                   409: ("too_many_live_games",),
                   422: ("creator_not_human", "no_human_seat", "invalid_options",
                         "rated_needs_players")},
    "joinGame": {401: ("missing_token", "invalid_player_token"), 403: ("invalid_invite",),
                 404: ("game_not_found",),
                 409: ("seat_taken", "player_already_seated", "too_many_live_games")},
    "getGame": {304: None, 403: ("invalid_token",), 404: ("game_not_found",)},
    "actInGame": {401: ("missing_token",), 403: ("invalid_token", "not_your_seat"),
                  404: ("game_not_found",),
                  409: ("not_your_turn", "wrong_phase", "card_not_in_hand",
                        "count_would_exceed_31", "wrong_discard_count", "invalid_cut_depth",
                        "invalid_claim", "nothing_to_call", "not_a_claim_phase", "game_over",
                        "too_late_to_abort"),
                  412: ("version_mismatch",),
                  422: ("invalid_action", "duplicate_card", "ambiguous_card",
                        "idempotency_key_reused")},
    "listEvents": {403: ("invalid_token",), 404: ("game_not_found",),
                   422: ("after_out_of_range",)},
    "getGameAnalysis": {403: ("invalid_token",), 404: ("game_not_found",)},
    "renameSeat": {401: ("missing_token",), 403: ("invalid_token", "not_your_seat"),
                   404: ("game_not_found",)},
    "createStreamTicket": {401: ("missing_token",), 403: ("invalid_token",),
                           404: ("game_not_found",)},
    "streamGame": {403: ("invalid_token", "invalid_ticket"), 404: ("game_not_found",),
                   422: ("after_out_of_range",)},
    # Players and rematches: a rematch needs a finished game, a decline an open offer
    "listPlayerGames": {401: ("missing_token", "invalid_player_token"),
                        422: ("invalid_cursor",)},
    "getPlayer": {401: ("missing_token", "invalid_player_token")},
    "changePlayer": {401: ("missing_token", "invalid_player_token")},
    "deletePlayer": {401: ("missing_token", "invalid_player_token")},
    "getLeaderboard": {401: ("missing_token", "invalid_player_token"),
                       422: ("invalid_format", "invalid_season")},
    "rematchGame": {401: ("missing_token",), 403: ("invalid_token",), 404: ("game_not_found",),
                    409: ("game_not_over", "rematch_already_accepted", "too_many_live_games")},
    "declineRematch": {401: ("missing_token",), 403: ("invalid_token",),
                       404: ("game_not_found",), 409: ("no_rematch_offer",)},
    # Seeks: a seek id the generator cannot know, the layout and options that must fit
    "createSeek": {401: ("missing_token", "invalid_player_token"),
                   422: ("invalid_options",)},
    "getSeek": {401: ("missing_token", "invalid_player_token"), 404: ("seek_not_found",)},
    "cancelSeek": {401: ("missing_token", "invalid_player_token"), 403: ("not_your_seek",),
                   404: ("seek_not_found",)},
    "listLiveGames": {422: ("invalid_cursor",)},
    # Webhooks: a URL the generator makes rarely resolves to a public address
    "createGameWebhook": {401: ("missing_token",), 403: ("invalid_token",),
                          404: ("game_not_found",), 409: ("too_many_webhooks",),
                          422: ("invalid_webhook_url", "webhook_address_refused",
                                "webhook_host_unresolved")},
    "listGameWebhooks": {401: ("missing_token",), 403: ("invalid_token",),
                         404: ("game_not_found",)},
    "deleteGameWebhook": {401: ("missing_token",), 403: ("invalid_token",),
                          404: ("game_not_found", "webhook_not_found")},
    "listGameWebhookDeliveries": {401: ("missing_token",), 403: ("invalid_token",),
                                  404: ("game_not_found", "webhook_not_found")},
    "createPlayerWebhook": {401: ("missing_token", "invalid_player_token"),
                            409: ("too_many_webhooks",),
                            422: ("invalid_webhook_url", "webhook_address_refused",
                                "webhook_host_unresolved")},
    "listPlayerWebhooks": {401: ("missing_token", "invalid_player_token")},
    "deletePlayerWebhook": {401: ("missing_token", "invalid_player_token"),
                            404: ("webhook_not_found",)},
    "listPlayerWebhookDeliveries": {401: ("missing_token", "invalid_player_token"),
                                    404: ("webhook_not_found",)},
    # Push subscriptions: generated keys are seldom a P-256 point, endpoints seldom public
    "createGamePushSubscription": {
        401: ("missing_token",), 403: ("invalid_token",), 404: ("game_not_found",),
        409: ("too_many_push_subscriptions",),
        422: ("invalid_push_keys", "invalid_webhook_url", "webhook_address_refused",
              "webhook_host_unresolved")},
    "listGamePushSubscriptions": {401: ("missing_token",), 403: ("invalid_token",),
                                  404: ("game_not_found",)},
    "deleteGamePushSubscription": {401: ("missing_token",), 403: ("invalid_token",),
                                   404: ("game_not_found", "push_subscription_not_found")},
    "createPlayerPushSubscription": {
        401: ("missing_token", "invalid_player_token"), 409: ("too_many_push_subscriptions",),
        422: ("invalid_push_keys", "invalid_webhook_url", "webhook_address_refused",
              "webhook_host_unresolved")},
    "listPlayerPushSubscriptions": {401: ("missing_token", "invalid_player_token")},
    "deletePlayerPushSubscription": {401: ("missing_token", "invalid_player_token"),
                                     404: ("push_subscription_not_found",)},
    "listGamePushDeliveries": {401: ("missing_token",), 403: ("invalid_token",),
                               404: ("game_not_found", "push_subscription_not_found")},
    "listPlayerPushDeliveries": {401: ("missing_token", "invalid_player_token"),
                                 404: ("push_subscription_not_found",)},
}


# Operations whose resource a DELETE closes but keeps, readable: a cancelled seek reads as
# cancelled for a day (schemathesis' use_after_free check expects a 404 after the DELETE).
KEPT_AFTER_DELETE = ("getSeek",)


def config(max_examples: int | None = None) -> SchemathesisConfig:
    """Every check; positive data must succeed but for its operation's documented refusals,
    and a closed seek is still read."""
    generation = {"mode": "all"}
    if max_examples is not None:
        generation["max-examples"] = max_examples
    return SchemathesisConfig.from_dict({
        "generation": generation,
        "checks": {"enabled": True,
                   "positive_data_acceptance": {"expected-statuses": ["2xx"]}},
        "operations": [
            {"include-operation-id": operation, "checks": {
                "positive_data_acceptance": {
                    "expected-statuses": ["2xx", *map(str, REFUSALS.get(operation, ()))]},
                **({"use_after_free": {"enabled": False}} if operation in KEPT_AFTER_DELETE
                   else {})}}
            for operation in [*REFUSALS, *(kept for kept in KEPT_AFTER_DELETE
                                           if kept not in REFUSALS)]],
    })


@schemathesis.check
def refused_as_documented(ctx, response, case):
    """A request that follows the schema is refused only with a documented problem code."""
    if case.meta is None or not case.meta.generation.mode.is_positive \
            or not 400 <= response.status_code < 500:
        return None
    operation = case.operation.definition.raw.get("operationId")
    codes = REFUSALS.get(operation, {}).get(response.status_code, ())
    code = response.json().get("code") if codes is not None else None
    if codes is not None and code not in codes:
        raise AssertionError(f"{operation} refused a request that follows its schema with "
                             f"{response.status_code} {code}, not a documented refusal")
    return None
