"""The `cribbage` console command: a show, a pegging card or a discard, scored by the functions
the HTTP API calls, printed in words (`--lang es` for Spanish) or as the API's JSON (`--json`).

    cribbage score 5H 5S 6D 4C --starter JH
    cribbage peg 5H 4S 6D
    cribbage discard 5H 5S 6D 4C JH KD --dealer

Cards take every notation the API accepts (`5h`, `10d`, `5♥`, "king of diamonds"). Bad input
exits with status 2 and a message naming the argument at fault (`hand[2]: "5X" is not a card`).
The command's own words (help, errors) are English; `--lang` is the language of the game's.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from service.bots.discard import DiscardOption
from service.bots.discard_report import discard_report
from service.cards import Card, DuplicateCardError, parse_card, parse_cards
from service.errors import DomainError, InvalidInputError
from service.scoring import ScoreItem, score_pegging, score_show
from service.speech import item_text, pegging_summary, show_summary


def main(argv: Sequence[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    try:
        body, text = arguments.command(arguments)
    except DomainError as refused:
        print(f"cribbage {arguments.name}: {_problem(refused)}", file=sys.stderr)
        return 2
    print(json.dumps(body, ensure_ascii=False) if arguments.json else text)
    return 0


def score(arguments: argparse.Namespace) -> tuple[dict, str]:
    """The show of a hand or crib with the starter: POST /v1/show/score."""
    hand = parse_cards(arguments.cards, "hand")
    if not 4 <= len(hand) <= 5:
        raise InvalidInputError(f"hand: {len(hand)} cards; a hand or crib has 4 (5 in the "
                                "6-player game)", code="wrong_hand_size", field="hand")
    starter = parse_card(arguments.starter, "starter")
    if starter in hand:
        raise DuplicateCardError(f"starter: {starter} is also in the hand", field="starter",
                                 card=starter.text)
    shown = score_show(hand, starter, arguments.crib)
    summary = show_summary(shown.items, shown.total, arguments.lang)
    body = {"hand": _texts(hand), "starter": starter.text, "crib": arguments.crib,
            "total": shown.total, "breakdown": _items_json(shown.items), "summary": summary}
    return body, _with_items(f"{shown.total}: {summary}", shown.items, arguments.lang)


def peg(arguments: argparse.Namespace) -> tuple[dict, str]:
    """Points for the last card of the pile: POST /v1/pegging/score."""
    pile = parse_cards(arguments.cards, "pile")
    scored = score_pegging(pile)
    summary = pegging_summary(scored.count, scored.points, arguments.lang)
    body = {"pile": _texts(pile), "count": scored.count, "points": scored.points,
            "breakdown": _items_json(scored.items), "summary": summary}
    return body, _with_items(f"{scored.points}: {summary}", scored.items, arguments.lang)


def discard(arguments: argparse.Namespace) -> tuple[dict, str]:
    """Every discard ranked by exact expected points: POST /v1/analysis/discard."""
    hand = parse_cards(arguments.cards, "hand")
    body, options = discard_report(hand, arguments.players, arguments.dealer)
    return body, _discard_table(options)


def _discard_table(options: Sequence[DiscardOption]) -> str:
    lines = [f"{'discard':<8} {'keep':<15} {'hand':>7} {'crib':>7} {'net':>7}"]
    for option in options:
        lines.append(f"{' '.join(_texts(option.discard)):<8} {' '.join(_texts(option.keep)):<15}"
                     f" {float(option.hand):>7.3f} {float(option.crib):>7.3f}"
                     f" {float(option.net):>7.3f}")
    return "\n".join(lines)


def _problem(refused: DomainError) -> str:
    """The refusal's message, led by the argument at fault as the API's problems name it."""
    message = str(refused)
    if refused.where and not message.startswith(refused.where):
        message = f"{refused.where}: {message}"
    return f"{message} ({refused.code})"


def _with_items(headline: str, items: Sequence[ScoreItem], language: str) -> str:
    return "\n".join([headline, *(f"  {item_text(item, language)}" for item in items)])


def _items_json(items: Sequence[ScoreItem]) -> list[dict]:
    return [{"kind": item.kind, "cards": _texts(item.cards), "points": item.points}
            for item in items]


def _texts(cards: Sequence[Card]) -> list[str]:
    return [card.text for card in cards]


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true",
                        help="print the HTTP API's JSON response body instead of words")
    common.add_argument("--lang", choices=("en", "es"), default="en",
                        help="language of the count and the combinations (default: en)")
    parser = argparse.ArgumentParser(prog="cribbage", description="Score cribbage hands, "
                                     "pegging and discards.")
    commands = parser.add_subparsers(dest="name", required=True, metavar="COMMAND")

    shows = commands.add_parser("score", parents=[common], help="score a hand or crib",
                                description="The show of a hand or crib with the starter.")
    shows.add_argument("cards", nargs="+", metavar="CARD", help="the 4 cards (5 with 6 players)")
    shows.add_argument("--starter", required=True, metavar="CARD", help="the starter card")
    shows.add_argument("--crib", action="store_true",
                       help="score as the crib: only a flush with the starter counts")
    shows.set_defaults(command=score)

    pegging = commands.add_parser("peg", parents=[common], help="score the last card played",
                                  description="Points for the last card of the pile (the cards "
                                              "played since the count was last reset).")
    pegging.add_argument("cards", nargs="+", metavar="CARD", help="the pile, in order of play")
    pegging.set_defaults(command=peg)

    discards = commands.add_parser("discard", parents=[common], help="rank every discard",
                                   description="Every discard of a dealt hand with its exact "
                                               "expected hand and crib points, best first.")
    discards.add_argument("cards", nargs="+", metavar="CARD", help="the cards dealt to you")
    discards.add_argument("--players", type=int, choices=range(2, 7), default=2,
                          metavar="N", help="players at the table, 2-6 (default: 2)")
    discards.add_argument("--dealer", action="store_true",
                          help="the crib is yours (without it: an opponent's)")
    discards.set_defaults(command=discard)
    return parser


if __name__ == "__main__":
    sys.exit(main())
