"""Request and response examples of the OpenAPI document (a test checks they are true)."""

from typing import Any

SHOW_REQUEST = {'hand': ['5H', '5S', '6D', '4C'], 'starter': 'JH', 'crib': False}
SHOW_RESPONSE = {'hand': ['5H', '5S', '6D', '4C'],
 'starter': 'JH',
 'crib': False,
 'total': 16,
 'breakdown': [{'kind': 'fifteen', 'cards': ['5H', 'JH'], 'points': 2},
               {'kind': 'fifteen', 'cards': ['5S', 'JH'], 'points': 2},
               {'kind': 'fifteen', 'cards': ['4C', '5H', '6D'], 'points': 2},
               {'kind': 'fifteen', 'cards': ['4C', '5S', '6D'], 'points': 2},
               {'kind': 'pair', 'cards': ['5H', '5S'], 'points': 2},
               {'kind': 'run', 'cards': ['4C', '5H', '6D'], 'points': 3},
               {'kind': 'run', 'cards': ['4C', '5S', '6D'], 'points': 3}],
 'summary': 'fifteen two, fifteen four, fifteen six, fifteen eight and a double run of three '
            'makes sixteen'}

VERIFY_REQUEST = {'hand': ['5H', '5S', '6D', '4C'],
 'starter': 'JH',
 'crib': False,
 'claimed': [{'kind': 'fifteen', 'cards': ['5H', 'JH']},
             {'kind': 'fifteen', 'cards': ['5S', 'JH']},
             {'kind': 'pair', 'cards': ['5H', '5S']},
             {'kind': 'run', 'cards': ['4C', '5H', '6D']},
             {'kind': 'flush', 'cards': ['5H', '5S', '6D', '4C']}]}
VERIFY_RESPONSE = {'hand': ['5H', '5S', '6D', '4C'],
 'starter': 'JH',
 'crib': False,
 'claimed': 13,
 'actual': 16,
 'correct': False,
 'missed': 7,
 'overclaimed': 4,
 'missed_items': [{'kind': 'fifteen', 'cards': ['4C', '5H', '6D'], 'points': 2},
                  {'kind': 'fifteen', 'cards': ['4C', '5S', '6D'], 'points': 2},
                  {'kind': 'run', 'cards': ['4C', '5S', '6D'], 'points': 3}],
 'wrong_items': [{'kind': 'flush', 'cards': ['5H', '5S', '6D', '4C'], 'points': 4}],
 'breakdown': [{'kind': 'fifteen', 'cards': ['5H', 'JH'], 'points': 2},
               {'kind': 'fifteen', 'cards': ['5S', 'JH'], 'points': 2},
               {'kind': 'fifteen', 'cards': ['4C', '5H', '6D'], 'points': 2},
               {'kind': 'fifteen', 'cards': ['4C', '5S', '6D'], 'points': 2},
               {'kind': 'pair', 'cards': ['5H', '5S'], 'points': 2},
               {'kind': 'run', 'cards': ['4C', '5H', '6D'], 'points': 3},
               {'kind': 'run', 'cards': ['4C', '5S', '6D'], 'points': 3}],
 'explanation': 'Claimed 13, worth 16. Missed 7: fifteen 4C 5H 6D for 2; fifteen 4C 5S 6D for '
                '2; run 4C 5S 6D for 3. Not there, 4: flush 5H 5S 6D 4C for 4.'}

PEGGING_REQUEST = {'pile': ['5H', '4S', '6D']}
PEGGING_RESPONSE = {'pile': ['5H', '4S', '6D'],
 'count': 15,
 'points': 5,
 'breakdown': [{'kind': 'fifteen', 'cards': ['5H', '4S', '6D'], 'points': 2},
               {'kind': 'run', 'cards': ['5H', '4S', '6D'], 'points': 3}],
 'summary': 'fifteen for five'}

# A JSON document, whose plays the next example reuses
REPLAY_REQUEST: dict[str, Any] = {'players': 2,
 'dealer': 0,
 'plays': [{'seat': 1, 'card': 'JH'},
           {'seat': 0, 'card': '5S'},
           {'seat': 1, 'card': '7C'},
           {'seat': 0, 'card': '6H'},
           {'seat': 0, 'card': '2S'},
           {'seat': 1, 'card': '6D'},
           {'seat': 0, 'card': '4S'},
           {'seat': 1, 'card': '4H'}]}
REPLAY_RESPONSE = {'players': 2,
 'dealer': 0,
 'seats_inferred': False,
 'plays': [{'index': 0, 'seat': 1, 'card': 'JH', 'count': 10, 'points': 0, 'breakdown': []},
           {'index': 1,
            'seat': 0,
            'card': '5S',
            'count': 15,
            'points': 2,
            'breakdown': [{'kind': 'fifteen', 'cards': ['JH', '5S'], 'points': 2}]},
           {'index': 2, 'seat': 1, 'card': '7C', 'count': 22, 'points': 0, 'breakdown': []},
           {'index': 3,
            'seat': 0,
            'card': '6H',
            'count': 28,
            'points': 3,
            'breakdown': [{'kind': 'run', 'cards': ['5S', '7C', '6H'], 'points': 3}]},
           {'index': 4, 'seat': 0, 'card': '2S', 'count': 30, 'points': 0, 'breakdown': []},
           {'index': 5, 'seat': 1, 'card': '6D', 'count': 6, 'points': 0, 'breakdown': []},
           {'index': 6, 'seat': 0, 'card': '4S', 'count': 10, 'points': 0, 'breakdown': []},
           {'index': 7,
            'seat': 1,
            'card': '4H',
            'count': 14,
            'points': 2,
            'breakdown': [{'kind': 'pair', 'cards': ['4S', '4H'], 'points': 2}]}],
 'go_points': [{'seat': 0, 'kind': 'go', 'points': 1, 'after_play': 4, 'count': 30},
               {'seat': 1, 'kind': 'last_card', 'points': 1, 'after_play': 7, 'count': 14}],
 'resets': [{'after_play': 4, 'count': 30}],
 'passes': [{'seat': 1, 'before_play': 4, 'count': 28}],
 'totals': [6, 3]}
VERIFY_REQUESTS = {
    "items": {"summary": "A claim listing its combinations", "value": VERIFY_REQUEST},
    "points": {"summary": "A claim of a number of points",
               "value": {**VERIFY_REQUEST, "claimed": 14}},
}

REPLAY_REQUESTS = {
    "seats": {"summary": "Each card with its seat (Board Game Arena's example of the play)",
              "value": REPLAY_REQUEST},
    "cards": {"summary": "Only the cards; the seats are inferred",
              "value": {"players": 2, "dealer": 0,
                        "cards": [play["card"] for play in REPLAY_REQUEST["plays"]]}},
}

SHOW_BATCH_REQUEST = {'shows': [{'hand': ['5H', '5S', '6D', '4C'], 'starter': 'JH'},
                                {'hand': ['2H', '4H', '6H', '8H'], 'starter': 'KS', 'crib': True},
                                {'hand': ['5H', '5X', '6D', '4C'], 'starter': 'JH'}],
                      'breakdown': False, 'all_or_nothing': False}
PEGGING_BATCH_REQUEST = {'piles': [{'pile': ['5H', '4S', '6D']}, {'pile': ['KH', 'KS']},
                                   {'pile': ['KH', 'QS', 'JD', '5C']}],
                         'breakdown': False, 'all_or_nothing': False}
SHOW_BATCH_RESPONSE = {'count': 3, 'scored': 2, 'failed': 1, 'sum': 16,
 'errors': [{'index': 2, 'code': 'unknown_card', 'field': 'shows[2].hand[1]',
             'detail': 'shows[2].hand[1]: "5X" is not a card'}],
 'totals': [16, 0, None]}
PEGGING_BATCH_RESPONSE = {'count': 3, 'scored': 2, 'failed': 1, 'sum': 7,
 'errors': [{'index': 2, 'code': 'count_exceeds_31', 'field': 'piles[2].pile[3]',
             'detail': 'piles[2].pile[3]: the count reaches 35, over 31'}],
 'points': [5, 2, None], 'counts': [15, 20, None]}
