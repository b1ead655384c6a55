"""Request and response examples of the games operations: one game of Ana's and Bea's, from its
creation to Ana's discard, as the service answered it (a test validates each example against
its schema)."""

GAME_ID = "FN5TWe4w7I_tWEVw"
CUT_COMMITMENT = "3401347967acf7142edd4274154760919e2a7a4da66f99352a7633b1b19d5217"
HAND_COMMITMENT = "f89d335967369dab1de223771c52c628c9a527e31d771d140f5719e8250406e1"
OPTIONS = {"target": 121, "counting": "manual", "muggins": "call", "count_time_limit": 60}
ANA = {"seat": 0, "kind": "human", "name": "Ana", "taken": True}
BEA = {"seat": 1, "kind": "human", "name": "Bea", "taken": True}

CREATE_REQUEST = {"seats": [{"kind": "human", "name": "Ana"}, {"kind": "human"}],
                  "options": OPTIONS}

# The view of a new game: both seats are to cut for the deal.
CUT_VIEW = {
    "version": 0, "phase": "cut_for_deal",
    "options": {"players": 2, "teams": None, **OPTIONS, "skunk": "standard",
                "exact_finish": False, "match": False},
    "seat": 0, "game_number": 1, "hand_number": 0, "dealer": None, "pone": None,
    "crib_owner": None, "starter_cutter": None, "sides": [[0], [1]], "side_of_seat": [0, 1],
    "scores": [0, 0], "match_points": [0, 0], "count": 0, "pile": [], "table": [],
    "starter": None, "turn": None, "to_act": [0, 1],
    "legal_actions": [{"type": "cut_for_deal", "min_depth": 4, "max_depth": 48}],
    "deadline": None, "counting": None, "hand": [], "kept": [], "discards": [],
    "hand_sizes": [0, 0], "crib_size": 0, "crib": None, "shown_hands": [],
    "cut_for_deal": {"round": 1, "seats": [0, 1], "cards": [None, None], "deck_size": 52},
    "pending_muggins": [], "winner": None, "results": [], "seed_commitment": CUT_COMMITMENT,
    "revealed_seeds": [],
    "history": [{"type": "cut_round", "round": 1, "seats": [0, 1],
                 "seed_commitment": CUT_COMMITMENT}],
}
CREATED = {
    "game_id": GAME_ID, "seat": 0, "token": "48dybYUE8_cryd77twUsWw",
    "invites": [{"seat": 1, "code": "7B26NzNZP0tx10_ZEeiMnQ"}],
    "game": {"game_id": GAME_ID, "version": 1, "seat": 0,
             "seats": [ANA, {"seat": 1, "kind": "human", "name": "Player 2", "taken": False}],
             "last_event": 1, "view": CUT_VIEW},
}

JOIN_REQUEST = {"code": "7B26NzNZP0tx10_ZEeiMnQ", "name": "Bea"}
JOINED = {
    "game_id": GAME_ID, "seat": 1, "token": "FUDpTUmFeO9wDi1hmWDmng",
    "game": {"game_id": GAME_ID, "version": 2, "seat": 1, "seats": [ANA, BEA], "last_event": 1,
             "view": {**CUT_VIEW, "seat": 1}},
}

# Ana reads the game once both have cut (her 9H against Bea's 3S: Bea deals).
DEALT = {"type": "dealt", "hand_number": 1, "dealer": 1, "pone": 0, "counts": [6, 6],
         "crib_from_deck": 0, "seed_commitment": HAND_COMMITMENT}
ANA_HAND = ["QC", "KH", "3S", "2D", "8S", "QS"]
GAME = {
    "game_id": GAME_ID, "version": 4, "seat": 0, "seats": [ANA, BEA], "last_event": 5,
    "view": {
        **CUT_VIEW, "version": 2, "phase": "discard", "hand_number": 1, "dealer": 1, "pone": 0,
        "crib_owner": 1, "starter_cutter": 0,
        "legal_actions": [{"type": "discard", "count": 2, "cards": ANA_HAND}],
        "hand": ANA_HAND, "hand_sizes": [6, 6], "cut_for_deal": None,
        "seed_commitment": HAND_COMMITMENT, "history": [DEALT],
    },
}

# One request per action type; the discard is the one Ana makes next.
ACTION_REQUESTS = {
    "cut_for_deal": {"summary": "Cut for the deal at a random depth",
                     "value": {"type": "cut_for_deal", "depth": None}},
    "discard": {"summary": "Put two cards in the crib",
                "value": {"type": "discard", "cards": ["QC", "king of hearts"]}},
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
}
ACTED = {
    **GAME, "version": 5, "last_event": 6,
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
        {"number": 1, "type": "cut_round", "round": 1, "seats": [0, 1],
         "seed_commitment": CUT_COMMITMENT},
        {"number": 2, "type": "dealer_cut", "seat": 0, "depth": 29, "card": "9H"},
        {"number": 3, "type": "dealer_cut", "seat": 1, "depth": 38, "card": "3S"},
        {"number": 4, "type": "cut_result", "round": 1,
         "seed": "cef4bfa3ad670ab14c4ee7e22dc30a3f69d7b6321ac4864ae5f4cb6f4766c6c0",
         "cards": ["9H", "3S"], "dealer": 1, "tied": []},
        {"number": 5, **DEALT, "cards": ANA_HAND},
        {"number": 6, "type": "discarded", "seat": 0, "count": 2, "cards": ANA_HAND[:2]},
    ],
    "last_event": 6,
}
