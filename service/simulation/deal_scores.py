"""Make the per-deal score distributions of the win probability: the two-player exact model's
(service/bots/data/deal_scores_2.json) and every layout's per-role model
(service/bots/data/deal_roles_<layout>.json: 2, 3, 4, 5, 6 players, teams 2x2, 3x2, 2x3).

    python -m service.simulation.deal_scores [--games 40] [--level hard] [--seed deals-1]
    python -m service.simulation.deal_scores --layouts all [--seed deals-1]

Self-play of one level in games to 1000, stopped before the first deal that begins within
service.bots.win_probability.ENDGAME_NEED points of the target (where `hard` would discard by
these very data).

Two players (the default): each deal is recorded as the sequence of points the dealer and the
pone peg in order (heels first), the pone's show and the dealer's show (hand and crib). The
file keeps: the joint play points, for every pair of needs who pegs them first, and the two
show distributions (and the dealer's hand and crib apart), as counts
(service.bots.win_probability reads them). The shipped file: --games 40, 2,819 deals.

Layouts (--layouts): each deal is recorded by seat offset from the dealer (0 the dealer, 1 on
its left, ...): every point of the play with the number of cards played when it was scored
(heels at 0; a go or the last card with the card before it), each seat's show and the crib.
The file keeps, by role (a side's seat nearest the dealer's left, counting the dealer as 0):
the side's play points and, for each need, the card of the play at which the side first
reaches it; and each offset's show (the dealer's hand and crib apart), as counts
(service.bots.side_race reads them; with two players also the exact model's data from the same
deals, to measure the races' error). Deals are fewer for more players: DEALS below (3 players
1,600; 4: 600; 5: 600; 6: 350; 2x2: 1,000; 3x2 and 2x3: 300; the two-player layout 2,000):
--layouts all took 67 s of CPU with the compiled play search (9 minutes before it), and
--games 40 about 30 s.
Deterministic for a seed; bench/par.py reports the two-player deals' means (Colvert's par).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from service.bots.side_race import role_data_path
from service.bots.win_probability import DATA, is_endgame
from service.engine import Action, GameOptions, GameState, apply, new_game, to_act, view
from service.simulation.selfplay import PLAYERS


@dataclass
class Deal:
    play: list[tuple[str, int]]     # ("dealer" | "pone", points) in the order pegged
    pone_show: int = 0
    dealer_show: int = 0            # hand and crib
    dealer_crib: int = 0

    def pegged(self, role: str) -> int:
        return sum(points for who, points in self.play if who == role)


def _chosen(level: str, state: GameState, seat: int, rng: random.Random) -> Action:
    action = PLAYERS[level].choose(view(state, seat), rng)
    if action is None:  # levels leave only match decisions to people, and this is one game
        raise RuntimeError(f"{level} chose nothing in the {state.phase}")
    return action


def deals_of_game(level: str, seed: str, rng: random.Random) -> list[Deal]:
    """The deals of one two-player game to 1000 between copies of `level`, up to the endgame."""
    state = new_game(GameOptions(target=1000), seed.encode())
    deals: list[Deal] = []
    hand = 0  # the cut for the first deal is hand 0
    scores = state.scores
    while state.phase != "game_over":
        if state.hand_number != hand:
            if is_endgame(state.scores, state.options.target):
                return deals
            deals.append(Deal([]))
            hand = state.hand_number
        seat = to_act(state)[0]
        dealer = state.dealer
        state, events = apply(state, _chosen(level, state, seat, rng), 0.0)
        # Automatic counting shows the hands within the action that plays the last card: the
        # events tell the play's points from the show's.
        for event in events:
            if "scores" not in event.public:
                continue
            for side, (old, new) in enumerate(zip(scores, event.public["scores"])):
                if new == old:
                    continue
                role = "dealer" if side == dealer else "pone"
                if event.type != "show_scored":
                    deals[-1].play.append((role, new - old))
                elif role == "pone":
                    deals[-1].pone_show += new - old
                else:
                    deals[-1].dealer_show += new - old
                    if event.public["hand"] == "crib":
                        deals[-1].dealer_crib += new - old
            scores = tuple(event.public["scores"])
    return deals[:-1]  # a deal that scored past the endgame line to the target: cut short


def play_deals(level: str, games: int, seed: str, max_seconds: float | None = None) -> list[Deal]:
    started = time.perf_counter()
    deals = []
    for game in range(games):
        deals += deals_of_game(level, f"{seed}:{game}", random.Random(f"{seed}:{game}"))
        if max_seconds and time.perf_counter() - started > max_seconds:
            break
    return deals


def first_reach(deal: Deal, role: str, needs: int) -> np.ndarray:
    """For each need 0..needs: the index of the play event that first reaches it (a large
    number when never)."""
    reached = np.full(needs + 1, 1 << 20)
    total = 0
    for index, (who, points) in enumerate(deal.play):
        if who == role:
            reached[total + 1:min(total + points, needs) + 1] = index
            total += points
    reached[0] = -1
    return reached


def distributions(deals: list[Deal]) -> dict:
    most_d = max(deal.pegged("dealer") for deal in deals)
    most_p = max(deal.pegged("pone") for deal in deals)
    play = np.zeros((most_d + 1, most_p + 1), dtype=np.int64)
    race_dealer = np.zeros((most_d + 2, most_p + 2), dtype=np.int64)
    race_pone = np.zeros_like(race_dealer)
    pone_show = np.zeros(30, dtype=np.int64)
    dealer_show = np.zeros(59, dtype=np.int64)
    dealer_hand = np.zeros(30, dtype=np.int64)
    dealer_crib = np.zeros(30, dtype=np.int64)
    for deal in deals:
        play[deal.pegged("dealer"), deal.pegged("pone")] += 1
        pone_show[deal.pone_show] += 1
        dealer_show[deal.dealer_show] += 1
        dealer_hand[deal.dealer_show - deal.dealer_crib] += 1
        dealer_crib[deal.dealer_crib] += 1
        by_dealer = first_reach(deal, "dealer", most_d + 1)
        by_pone = first_reach(deal, "pone", most_p + 1)
        race_dealer += by_dealer[:, None] < by_pone[None, :]
        race_pone += by_pone[None, :] < by_dealer[:, None]
    race_dealer[0, :] = race_pone[:, 0] = 0  # a need of 0 is never asked
    return {"deals": len(deals), "play": play.tolist(), "race_dealer": race_dealer.tolist(),
            "race_pone": race_pone.tolist(), "pone_show": pone_show.tolist(),
            "dealer_show": dealer_show.tolist(), "dealer_hand": dealer_hand.tolist(),
            "dealer_crib": dealer_crib.tolist()}


# Every layout, by role ---------------------------------------------------------------------------
LAYOUTS = {"2": (2, None), "3": (3, None), "4": (4, None), "5": (5, None), "6": (6, None),
           "2x2": (4, "2x2"), "3x2": (6, "3x2"), "2x3": (6, "2x3")}
DEALS = {"2": 2000, "3": 1600, "4": 600, "5": 600, "6": 350, "2x2": 1000, "3x2": 300,
         "2x3": 300}
_PLAY_EVENTS = ("heels", "card_played", "last_card", "count_reset")


@dataclass
class SeatDeal:
    """One deal by seat offset from the dealer."""
    play: list[tuple[int, int, int]]  # (cards played so far, offset, points) in the order pegged
    shows: list[int]                  # each offset's hand; offset 0 the dealer's
    crib: int = 0


def seat_deals_of_game(options: GameOptions, level: str, seed: str,
                       rng: random.Random) -> list[SeatDeal]:
    """The deals of one game to 1000 between copies of `level`, up to the endgame."""
    state = new_game(options, seed.encode())
    players = options.players
    deals: list[SeatDeal] = []
    hand, cards = 0, 0
    while state.phase != "game_over":
        if state.hand_number != hand:
            if is_endgame(state.scores, options.target):
                return deals
            deals.append(SeatDeal([], [0] * players))
            hand, cards = state.hand_number, 0
        seat = to_act(state)[0]
        dealer = state.dealer
        state, events = apply(state, _chosen(level, state, seat, rng), 0.0)
        for event in events:
            if event.type == "card_played":
                cards += 1
            if event.type not in _PLAY_EVENTS + ("show_scored",) or not event.public["points"]:
                continue
            offset = (event.public["seat"] - dealer) % players
            points = event.public["points"]
            if event.type in _PLAY_EVENTS:
                deals[-1].play.append((cards, offset, points))
            elif event.public["hand"] == "crib":
                deals[-1].crib += points
            else:
                deals[-1].shows[offset] += points
    return deals[:-1]


def play_seat_deals(layout: str, level: str, deals: int, seed: str) -> list[SeatDeal]:
    players, teams = LAYOUTS[layout]
    options = GameOptions(players=players, teams=teams, target=1000)
    recorded: list[SeatDeal] = []
    game = 0
    while len(recorded) < deals:
        recorded += seat_deals_of_game(options, level, f"{seed}:{layout}:{game}",
                                       random.Random(f"{seed}:{layout}:{game}"))
        game += 1
    return recorded[:deals]


def role_distributions(layout: str, deals: list[SeatDeal]) -> dict:
    players, teams = LAYOUTS[layout]
    sides = GameOptions(players=players, teams=teams).sides
    cards = max(step for deal in deals for step, _, _ in deal.play) if deals else 0
    pegged = np.zeros((len(deals), sides), dtype=np.int64)
    for index, deal in enumerate(deals):
        for _, offset, points in deal.play:
            pegged[index, offset % sides] += points
    most = int(pegged.max())
    roles = []
    for role in range(sides):
        play = np.bincount(pegged[:, role], minlength=most + 1)
        # reach[n, c]: the side first has n points of the play once c cards are played
        reach = np.zeros((most + 1, cards + 1), dtype=np.int64)
        for deal in deals:
            total = 0
            for step, offset, points in deal.play:
                if offset % sides == role:
                    reach[total + 1:total + points + 1, step] += 1
                    total += points
        roles.append({"play": play.tolist(), "reach": reach[1:].tolist()})
    shows = [np.bincount([deal.shows[offset] for deal in deals], minlength=30).tolist()
             for offset in range(players)]
    crib = np.bincount([deal.crib for deal in deals], minlength=30).tolist()
    data = {"players": players, "teams": teams, "sides": sides, "deals": len(deals),
            "cards": cards, "roles": roles, "shows": shows, "crib": crib}
    if players == 2:  # the exact model's data from the same deals, to measure the race's error
        data["exact"] = distributions([two_player_deal(deal) for deal in deals])
    return data


def two_player_deal(deal: SeatDeal) -> Deal:
    return Deal([("pone" if offset else "dealer", points) for _, offset, points in deal.play],
                pone_show=deal.shows[1], dealer_show=deal.shows[0] + deal.crib,
                dealer_crib=deal.crib)


def write_json(data: dict, path: str | Path) -> None:
    with open(path, "w") as out:
        json.dump(data, out, separators=(",", ":"))
        out.write("\n")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="hard", choices=sorted(PLAYERS))
    parser.add_argument("--games", type=int, default=40, help="two-player games")
    parser.add_argument("--seed", default="deals-1")
    parser.add_argument("--output", default=str(DATA), help="the two-player file")
    parser.add_argument("--layouts", nargs="+", choices=[*LAYOUTS, "all"],
                        help="write these layouts' role files instead of the two-player file")
    parser.add_argument("--deals", type=int, help="deals per layout (default: DEALS)")
    args = parser.parse_args(argv)
    about = {"about": __doc__.splitlines()[0], "command": " ".join(sys.argv),
             "level": args.level, "seed": args.seed}
    if args.layouts:
        for layout in LAYOUTS if "all" in args.layouts else args.layouts:
            started = time.perf_counter()
            seat_deals = play_seat_deals(layout, args.level, args.deals or DEALS[layout],
                                         args.seed)
            path = role_data_path(layout)
            write_json({**about, "layout": layout, **role_distributions(layout, seat_deals)},
                       path)
            print(f"{layout}: {len(seat_deals)} deals in {time.perf_counter() - started:.0f} s "
                  f"written to {path}", flush=True)
        return
    deals = play_deals(args.level, args.games, args.seed)
    write_json({**about, "games": args.games, **distributions(deals)}, args.output)
    print(f"{len(deals)} deals from {args.games} games written to {args.output}")

if __name__ == "__main__":
    main()
