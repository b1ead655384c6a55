"""Request and response examples of the games operations: one game of Ana's and Bea's, from its
creation to Ana's discard and new name, as the service answered it (a test validates each
example against its schema)."""

from typing import Any

GAME_ID = "jKnDr5bA5CmPTtLa"
CUT_COMMITMENT = "c81fbb1f0f61e816e12daf19a009256cb32ffd21cbf2645f950411e5b78e0baa"
HAND_COMMITMENT = "a32493b513f02bdc2b8acaacc0884dda3fad13743f7a798f6915b5f2ff7736dd"
GAME_SEED_COMMITMENT = "d0dad94c14b492b9624b14478eb84d32d147bab1d5b919ff1d6a2809c036c8da"
OPTIONS = {"target": 121, "counting": "manual", "muggins": "call", "count_time_limit": 60}
ANA = {"seat": 0, "kind": "human", "name": "Ana", "taken": True, "connected": True}
BEA = {"seat": 1, "kind": "human", "name": "Bea", "taken": True, "connected": True}

CREATE_REQUEST = {"seats": [{"kind": "human", "name": "Ana"}, {"kind": "human"}],
                  "options": OPTIONS}

# The view of a new game: both seats are to cut for the deal.
CUT_VIEW = {
    "version": 0, "phase": "cut_for_deal",
    "options": {"players": 2, "teams": None, **OPTIONS, "skunk": "standard",
                "exact_finish": False, "match": False, "turn_time_limit": None,
                "on_timeout": "computer", "timeout_level": "hard", "hints": False,
                "start_scores": None, "first_dealer": None,
                "preset_deck": False},
    "seat": 0, "game_number": 1, "hand_number": 0, "dealer": None, "pone": None,
    "crib_owner": None, "starter_cutter": None, "sides": [[0], [1]], "side_of_seat": [0, 1],
    "scores": [0, 0], "match_points": [0, 0], "count": 0, "pile": [], "table": [],
    "starter": None, "turn": None, "to_act": [0, 1],
    "legal_actions": [{"type": "cut_for_deal", "min_depth": 4, "max_depth": 48}],
    "deadline": None, "deadline_ms_left": None, "turn_deadline": None, "turn_ms_left": None,
    "can_abort": True,
    "counting": None, "hand": [], "kept": [], "discards": [],
    "hand_sizes": [0, 0], "crib_size": 0, "crib": None, "shown_hands": [],
    "cut_for_deal": {"round": 1, "seats": [0, 1], "cards": [None, None], "deck_size": 52},
    "pending_muggins": [], "winner": None, "results": [], "seed_commitment": CUT_COMMITMENT,
    "revealed_seeds": [], "game_seed_commitment": GAME_SEED_COMMITMENT, "game_seed": None,
    "history": [{"type": "cut_round", "round": 1, "seats": [0, 1],
                 "seed_commitment": CUT_COMMITMENT}],
    "hint": None,
}
CREATED = {
    "game_id": GAME_ID, "seat": 0, "token": "NxGjRLiFNVKfSMTomxHEKw",
    "invites": [{"seat": 1, "code": "Vca6na1AtsKfak1aTpgLiQ"}],
    "game": {"game_id": GAME_ID, "version": 1, "seat": 0,
             "seats": [ANA, {"seat": 1, "kind": "human", "name": "Player 2", "taken": False,
                             "connected": False}],
             "last_event": 1, "view": CUT_VIEW, "rematch": None, "rematch_of": None,
             "rated": False},
}

JOIN_REQUEST = {"code": "Vca6na1AtsKfak1aTpgLiQ", "name": "Bea"}
JOINED = {
    "game_id": GAME_ID, "seat": 1, "token": "Gkylk531vAQBfbwL4QpdPA",
    "game": {"game_id": GAME_ID, "version": 2, "seat": 1, "seats": [ANA, BEA], "last_event": 2,
             "view": {**CUT_VIEW, "seat": 1}, "rematch": None, "rematch_of": None,
             "rated": False},
}

# Ana reads the game once both have cut (her 7H against Bea's 2H: Bea deals).
DEALT = {"type": "dealt", "hand_number": 1, "dealer": 1, "pone": 0, "counts": [6, 6],
         "crib_from_deck": 0, "seed_commitment": HAND_COMMITMENT}
ANA_HAND = ["9D", "6D", "AS", "2C", "4C", "QH"]
GAME: dict[str, Any] = {  # a JSON document, whose view the examples below reuse
    "game_id": GAME_ID, "version": 4, "seat": 0, "seats": [ANA, BEA], "last_event": 6,
    "view": {
        **CUT_VIEW, "version": 2, "phase": "discard", "hand_number": 1, "dealer": 1, "pone": 0,
        "crib_owner": 1, "starter_cutter": 0,
        "legal_actions": [{"type": "discard", "count": 2, "cards": ANA_HAND}],
        "hand": ANA_HAND, "hand_sizes": [6, 6], "cut_for_deal": None,
        "seed_commitment": HAND_COMMITMENT, "history": [DEALT],
    },
    "rematch": None, "rematch_of": None, "rated": False,
}

# One request per action type; the discard is the one Ana makes next.
ACTION_REQUESTS = {
    "cut_for_deal": {"summary": "Cut for the deal at a random depth",
                     "value": {"type": "cut_for_deal", "depth": None}},
    "discard": {"summary": "Put two cards in the crib",
                "value": {"type": "discard", "cards": ["9D", "six of diamonds"]}},
    "cut_starter": {"summary": "Cut for the starter, lifting 20 cards",
                    "value": {"type": "cut_starter", "depth": 20}},
    "play": {"summary": "Play the only held card of a rank",
             "value": {"type": "play", "card": "k"}},
    "claim": {"summary": "Claim the count of the hand shown",
              "value": {"type": "claim", "points": 8}},
    "claim_items": {"summary": "Claim the count combination by combination",
                    "value": {"type": "claim", "items": [
                        {"kind": "fifteen", "cards": ["5H", "JH"]},
                        {"kind": "pair", "cards": ["5H", "5S"]}]}},
    "muggins": {"summary": "Take the points an opponent's count missed",
                "value": {"type": "muggins"}},
    "next_game": {"summary": "Play the next game of the match", "value": {"type": "next_game"}},
    "end_match": {"summary": "End the match", "value": {"type": "end_match"}},
    "resign": {"summary": "Resign the game", "value": {"type": "resign"}},
    "abort": {"summary": "Abort the game before its first card is played",
              "value": {"type": "abort"}},
}
ACTED = {
    **GAME, "version": 5, "last_event": 7,
    "view": {
        **GAME["view"], "version": 3, "to_act": [1], "legal_actions": [],
        "hand": ANA_HAND[2:], "kept": ANA_HAND[2:], "discards": ANA_HAND[:2],
        "hand_sizes": [4, 6], "crib_size": 2,
        "history": [DEALT, {"type": "discarded", "seat": 0, "count": 2}],
    },
}

EVENTS = {
    "game_id": GAME_ID, "seat": 0,
    "events": [
        {"number": 1, "time": "2026-11-25T10:04:05.678Z", "type": "cut_round", "round": 1,
         "seats": [0, 1], "seed_commitment": CUT_COMMITMENT},
        {"number": 2, "time": "2026-11-25T10:04:41.093Z", "type": "seat_joined", "seat": 1,
         "name": "Bea"},
        {"number": 3, "time": "2026-11-25T10:04:44.310Z", "type": "dealer_cut", "seat": 0,
         "depth": 46, "card": "7H"},
        {"number": 4, "time": "2026-11-25T10:04:47.552Z", "type": "dealer_cut", "seat": 1,
         "depth": 18, "card": "2H"},
        {"number": 5, "time": "2026-11-25T10:04:47.552Z", "type": "cut_result", "round": 1,
         "seed": "29f4bc8fbb9520bbf922c4a15490bb8c97d29856320ef75205d9991949f94279",
         "cards": ["7H", "2H"], "dealer": 1, "tied": []},
        {"number": 6, "time": "2026-11-25T10:04:47.552Z", **DEALT, "cards": ANA_HAND},
        {"number": 7, "time": "2026-11-25T10:05:02.217Z", "type": "discarded", "seat": 0,
         "count": 2, "cards": ANA_HAND[:2]},
    ],
    "last_event": 7,
    "state": {"version": 5, "etag": '"5-0"', "phase": "discard", "to_act": [1],
              "legal_actions": [], "deadline": None, "deadline_ms_left": None,
              "turn_deadline": None, "turn_ms_left": None},
}

# The last events of another game: Ana's count takes her past 121, the hand's seed and then the
# game seed (whose sha256 every view showed as game_seed_commitment) are revealed, and the
# final game_over says why the game ended.
GAME_OVER_EVENTS = {
    "game_id": GAME_ID, "seat": 0,
    "events": [
        {"number": 212, "time": "2026-11-25T10:31:17.204Z", "type": "claim", "seat": 0,
         "hand": "hand", "cards": ["5H", "5S", "JD", "4C"], "starter": "6D", "claimed": 8,
         "true_count": 8, "items": [
             {"kind": "fifteen", "cards": ["5H", "JD"], "points": 2},
             {"kind": "fifteen", "cards": ["5S", "JD"], "points": 2},
             {"kind": "fifteen", "cards": ["5H", "4C", "6D"], "points": 2},
             {"kind": "fifteen", "cards": ["5S", "4C", "6D"], "points": 2}],
         "points": 8, "scores": [123, 97]},
        {"number": 213, "time": "2026-11-25T10:31:17.204Z", "type": "game_won", "winner": 0,
         "seats": [0], "scores": [123, 97], "skunks": [0, 0], "game_points": 1,
         "match_points": [1, 0], "resigned": None},
        {"number": 214, "time": "2026-11-25T10:31:17.204Z", "type": "hand_revealed",
         "hand_number": 14,
         "seed": "5be8d4f07a5b8a3cf9e4f0ef0ee3f8f5d8d8a8e70b3a0b4e3d2e9d6b0a0f4c21"},
        {"number": 215, "time": "2026-11-25T10:31:17.204Z", "type": "game_seed_revealed",
         "seed": "c6120b27bd6924a165d20aed4c2bce7947be99191962ff622b85c35d41ee0ed4",
         "commitment": GAME_SEED_COMMITMENT},
        {"number": 216, "time": "2026-11-25T10:31:17.204Z", "type": "game_over",
         "reason": "won", "winner": 0, "seats": [0], "scores": [123, 97], "game_points": 1,
         "match_points": [1, 0], "games": 1},
    ],
    "last_event": 216,
    "state": {"version": 143, "etag": '"143-0"', "phase": "game_over", "to_act": [],
              "legal_actions": [], "deadline": None, "deadline_ms_left": None,
              "turn_deadline": None, "turn_ms_left": None},
}

# Then Ana renames her seat, and asks for a ticket to follow the game from a browser.
RENAME_REQUEST = {"name": "Ana María"}
RENAMED: dict[str, Any] = {**ACTED, "version": 6, "last_event": 8,
                           "seats": [{**ANA, "name": "Ana María"}, BEA]}
TICKET = {"ticket": "nO7KazN0_Pvg97UXVH6Tfg", "expires_in": 60}

# After a finished game, Ana offers a rematch and Bea accepts: the new game starts with Ana
# dealing (Bea dealt the first hand of the old one).
REMATCH_ID = "Qm3xT0aV9kLrWc2B"
REMATCH = {"game_id": REMATCH_ID, "status": "open", "offered_by": 0, "accepted": [0],
           "declined_by": None, "expires_at": "2027-01-15T09:00:00.000Z",
           "expires_ms_left": 3600000}
REMATCH_OFFERED = {"game_id": REMATCH_ID, "seat": 0, "token": "t3Xb0mQ8vS1aZk2Lw9YcRg",
                   "rematch": REMATCH, "game": None}
REMATCH_HAND = ["3S", "8D", "8C", "JH", "KD", "5C"]
REMATCH_STARTED = {
    "game_id": REMATCH_ID, "seat": 1, "token": "Zr0pW7nE4uYq6Hc1Lk5VbA",
    "rematch": {**REMATCH, "status": "started", "accepted": [0, 1]},
    "game": {
        "game_id": REMATCH_ID, "version": 1, "seat": 1, "seats": [ANA, BEA], "last_event": 2,
        "view": {
            **GAME["view"], "version": 0, "seat": 1, "dealer": 0, "pone": 1, "crib_owner": 0,
            "starter_cutter": 1, "to_act": [0, 1],
            "legal_actions": [{"type": "discard", "count": 2, "cards": REMATCH_HAND}],
            "hand": REMATCH_HAND,
            "history": [{**DEALT, "dealer": 0, "pone": 1}]},
        "rematch": None, "rematch_of": GAME_ID, "rated": False},
}
REMATCH_DECLINED = {**RENAMED, "version": 40, "last_event": 120,
                    "view": {**RENAMED["view"], "phase": "game_over", "to_act": [],
                             "legal_actions": [], "scores": [121, 87], "winner": 0},
                    "rematch": {**REMATCH, "status": "declined", "declined_by": 1}}

# The analysis of a game to 31 between Ana and a `hard` computer, Ana's discard and first
# card after the first hand's show, then (abridged to those and the computer's discard) once
# the game is over.
_ANA_DISCARD = {"hand_number": 1, "game_number": 1, "seat": 0, "kind": "discard", "dealer": 1,
                "scores": [0, 0], "held": ["QC", "AH", "5D", "QD", "QH", "5C"], "pile": [],
                "chosen": ["AH", "QH"], "best": ["QC", "AH"], "points_lost": 0.0543,
                "win_chance_lost": 0.0023}
_ANA_LEAD = {"hand_number": 1, "game_number": 1, "seat": 0, "kind": "play", "dealer": 1,
             "scores": [0, 0], "held": ["QC", "5D", "QD", "5C"], "pile": [], "chosen": ["5D"],
             "best": ["QD"], "points_lost": 2.476, "win_chance_lost": 0.0442}
_COMPUTER_DISCARD = {"hand_number": 1, "game_number": 1, "seat": 1, "kind": "discard",
                     "dealer": 1, "scores": [0, 0],
                     "held": ["3C", "KD", "5H", "2C", "10S", "6D"], "pile": [],
                     "chosen": ["5H", "6D"], "best": ["5H", "6D"], "points_lost": 0.0069,
                     "win_chance_lost": 0.0}
OWN_ANALYSIS = {
    "game_id": GAME_ID, "seat": 0, "complete": False, "hands": [1],
    "decisions": [_ANA_DISCARD, _ANA_LEAD],
    "seats": [{"seat": 0, "side": 0, "decisions": 2, "points_lost": 2.5303,
               "win_chance_lost": 0.0465, "worst": [1, 0]}],
    "sides": [{"side": 0, "seats": [0], "decisions": 2, "points_lost": 2.5303,
               "win_chance_lost": 0.0465}],
}
GAME_ANALYSIS = {
    "game_id": GAME_ID, "seat": None, "complete": True, "hands": [1],
    "decisions": [_COMPUTER_DISCARD, _ANA_DISCARD, _ANA_LEAD],
    "seats": [{"seat": 0, "side": 0, "decisions": 2, "points_lost": 2.5303,
               "win_chance_lost": 0.0465, "worst": [2, 1]},
              {"seat": 1, "side": 1, "decisions": 1, "points_lost": 0.0069,
               "win_chance_lost": 0.0, "worst": [0]}],
    "sides": [{"side": 0, "seats": [0], "decisions": 2, "points_lost": 2.5303,
               "win_chance_lost": 0.0465},
              {"side": 1, "seats": [1], "decisions": 1, "points_lost": 0.0069,
               "win_chance_lost": 0.0}],
}

# Seat 0's analysis after the first hand of a game of four in teams of two (its partner and
# opponents `hard` computers): the points lost valued by the teams' race to 121.
_TEAM_DISCARD = {"hand_number": 1, "game_number": 1, "seat": 0, "kind": "discard", "dealer": 3,
                 "scores": [0, 0], "held": ["6H", "4H", "5H", "AC", "9S"], "pile": [],
                 "chosen": ["6H"], "best": ["AC"], "points_lost": 4.8506,
                 "win_chance_lost": 0.0948}
_TEAM_PLAY = {"hand_number": 1, "game_number": 1, "seat": 0, "kind": "play", "dealer": 3,
              "scores": [2, 0], "held": ["5H", "AC", "9S"], "pile": ["4H", "JS", "JH", "AD"],
              "chosen": ["5H"], "best": ["5H"], "points_lost": 0.0, "win_chance_lost": 0.0}
TEAM_ANALYSIS = {
    "game_id": GAME_ID, "seat": 0, "complete": False, "hands": [1],
    "decisions": [_TEAM_DISCARD, {**_TEAM_PLAY, "scores": [0, 0],
                                  "held": ["4H", "5H", "AC", "9S"], "pile": [],
                                  "chosen": ["4H"], "best": ["4H"]}, _TEAM_PLAY],
    "seats": [{"seat": 0, "side": 0, "decisions": 3, "points_lost": 4.8506,
               "win_chance_lost": 0.0948, "worst": [0]}],
    "sides": [{"side": 0, "seats": [0], "decisions": 3, "points_lost": 4.8506,
               "win_chance_lost": 0.0948}],
}

LIVE_GAMES = {
    "games": [{"game_id": GAME_ID, "players": 2, "teams": None, "target": 121, "rated": True,
               "phase": "play", "scores": [14, 9],
               "seats": [{"seat": 0, "kind": "human", "name": "Ana"},
                         {"seat": 1, "kind": "human", "name": "Bea"}],
               "created_at": "2027-01-15T08:15:40.000Z",
               "updated_at": "2027-01-15T08:19:02.250Z"}],
    "next_cursor": "1800000000.0:" + GAME_ID,
}
