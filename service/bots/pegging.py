"""Play analysis: each card you may play with its expected points over the rest of the play.

The search (the OpenAPI description repeats it): in each sampled deal the other players' hands
are drawn from what you have seen (service.bots.belief: the cards you have not seen, the goes
said, the hands strong players keep), each other player is given a pegging policy from a mix
that is realistic for strong players (service.bots.playout), and for every card you may play the
rest of the hand's play is simulated to its last card. The same sampled deals and policies serve
every card, so the comparison between cards is not blurred by different luck. A card's
- points: what it scores now (fifteen, 31, pairs, runs, and the last card when it is);
- expected_for / expected_against: the points your side / the average other side pegs from
  here to the end of the play, this card included, averaged over the sampled deals;
- expected: expected_for - expected_against, what the search maximises;
- win_chance: near the end of a game (a side needs ENDGAME_NEED points or fewer), the chance to
  win: 1 when your side pegs out first, 0 when another does, else the chance after the play
  from every side's need then (service.bots.endgame: the two-player model; with more players,
  when every side's score is given, the shows in counting order and the deals after by the
  sides' races; else a rule on the leading other side);
  the card with the best win_chance is then played.
A card that reaches the target at once is always first (with exact_finish, points that would
pass the target count as none); ties go to the higher count value, then the deck order.

Deterministic: analyse_play draws from the rng it is given, by default one seeded from the
position itself, so the analysis endpoint and the `hard` player see the same sampled deals.
The sampled deals run compiled where the extension is built (service.bots.fast_playout: the
same draws and totals); `play_outs` below is their reference in Python.
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field

from service.bots import fast_playout
from service.bots.belief import Belief
from service.bots.endgame import AfterPlay, after_play, in_endgame
from service.bots.playout import POLICY_MIX, draw_policies, peg_points, play_out
from service.cards import DECK, Card
from service.errors import InvalidInputError

# How many deals the search samples: as many as the budget of simulated cards allows (cards
# that fit x cards left to play per deal), within MIN_DEALS..MAX_DEALS: 3,000 cards with two
# players (a lead gets 93 deals, later decisions up to 144), 1,500 with more (six players: a
# lead gets 12 deals). More deals leave fewer close choices to chance: going from 1,000 cards
# to 2,000 with two players (and drawing the hands by rejection, service.bots.belief) gained
# 0.2 pegging points a hand (bench/match.py). The budget was set when the deals ran in Python
# (p99 50 ms from a fresh process); compiled (service.bots.fast_playout) a two-player decision
# takes p99 about 3 ms of CPU (bench/decision_cpu.py), and `effort` multiplies the budget.
MAX_DEALS = 144
MIN_DEALS = 12
CARD_BUDGET = {2: 3000}
DEFAULT_CARD_BUDGET = 1500
EFFORT = 1
TEAM_LAYOUTS = {"2x2": (4, 2), "3x2": (6, 3), "2x3": (6, 2)}  # players, sides


class PlayPositionError(InvalidInputError):
    """A pegging position that cannot happen."""

    def __init__(self, code: str, message: str, **params):
        super().__init__(message, code=code, **params)


@dataclass(frozen=True, slots=True)
class PlayPosition:
    """A seat's decision in the play. Other seats are numbered clockwise from you (you are 0):
    seat 1 sits on your left and plays after you."""

    hand: tuple[Card, ...]                # the cards you still hold
    pile: tuple[Card, ...] = ()           # the cards played since the count was last reset
    seen: tuple[Card, ...] = ()           # every other card you have seen (starter, earlier
                                          # cards of this hand, your discards)
    players: int = 2
    teams: str | None = None
    hand_sizes: tuple[int, ...] | None = None  # cards seats 1.. hold (default: as many as you)
    dealer_seat: int | None = None        # who dealt (default: the seat on your right)
    goes: tuple[tuple[int, int], ...] = ()  # (seat, count) for each go said in this hand
    played_by: tuple[tuple[int, Card], ...] = ()  # (seat, card): who played a pile/seen card
    own_score: int = 0
    opponent_score: int = 0               # the leading other side's score
    # Every other side's score, clockwise from your left (its highest is opponent_score);
    # without it every other side counts as the leader. Not in the repr, the search's seed
    # (search_rng): a position samples the same deals whether it is known or not.
    other_scores: tuple[int, ...] | None = field(default=None, repr=False)
    target: int = 121
    show_points: int | None = None        # your hand's show points, when you know them
    exact_finish: bool = False            # points that would pass the target are not scored

    @property
    def count(self) -> int:
        return sum(card.value for card in self.pile)

    @property
    def sizes(self) -> tuple[int, ...]:
        if self.hand_sizes is not None:
            return self.hand_sizes
        return (len(self.hand),) * (self.players - 1)

    @property
    def dealer(self) -> int:
        return self.players - 1 if self.dealer_seat is None else self.dealer_seat

    @property
    def side_of(self) -> tuple[int, ...]:
        sides = TEAM_LAYOUTS[self.teams][1] if self.teams else self.players
        return tuple(seat % sides for seat in range(self.players))

    @property
    def scores(self) -> tuple[int, ...]:
        """Every side's score, yours first, then clockwise from your left."""
        if self.other_scores is not None:
            return (self.own_score, *self.other_scores)
        return (self.own_score,) + (self.opponent_score,) * max(self.side_of)


@dataclass(frozen=True, slots=True)
class PlayOption:
    card: Card
    points: int
    expected_for: float
    expected_against: float
    expected: float
    win_chance: float | None              # None unless the game may end in this hand
    wins: bool                            # reaches the target at once


@dataclass(frozen=True, slots=True)
class PlayAnalysis:
    options: tuple[PlayOption, ...]       # best first
    sampled_deals: int

    @property
    def recommendation(self) -> Card | None:
        """The card to play, or None when no card fits (a go)."""
        return self.options[0].card if self.options else None


def analyse_play(position: PlayPosition, rng: random.Random | None = None, *,
                 effort: int = EFFORT) -> PlayAnalysis:
    """Every card of `position.hand` that fits under 31, best first; `effort` multiplies the
    card budget and MAX_DEALS. Raises PlayPositionError."""
    belief = check_position(position)
    playable = [card for card in position.hand if position.count + card.value <= 31]
    if not playable:
        return PlayAnalysis((), 0)
    rng = search_rng(position) if rng is None else rng
    side_of = position.side_of
    needs = [position.target - score for score in position.scores]
    own_need = needs[0]
    endgame = in_endgame(own_need, min(needs[1:]))
    hand = [card.index for card in position.hand]
    cards = [card.index for card in playable]
    ranks = tuple(card.rank for card in position.pile)
    cards_left = len(position.hand) + sum(position.sizes)
    budget = effort * CARD_BUDGET.get(position.players, DEFAULT_CARD_BUDGET)
    deals = max(MIN_DEALS, min(effort * MAX_DEALS, budget // (len(playable) * cards_left)))
    arguments = (belief, rng, deals, hand, cards, ranks, position.count, side_of, needs,
                 position.exact_finish, endgame)
    outcome = fast_playout.play_outs(*arguments)
    for_totals, against_totals, records = play_outs(*arguments) if outcome is None else outcome
    totals = {card: [for_totals[at], against_totals[at], 0.0]   # for, against, win
              for at, card in enumerate(playable)}
    if records is not None:
        chance = after_play(position.players, position.teams, position.dealer, position.scores,
                            position.target, position.show_points, position.exact_finish,
                            position.other_scores is not None)
        for at, (*points, first_out) in enumerate(zip(*[iter(records)] * (len(needs) + 1))):
            totals[playable[at % len(playable)]][2] += _win(first_out, needs, points, chance)
    options = [_option(position, card, totals[card], deals, endgame, own_need)
               for card in playable]
    options.sort(key=lambda o: (not o.wins, -(o.win_chance or 0.0), -o.expected,
                                -o.card.value, o.card.index))
    return PlayAnalysis(tuple(options), deals)


def play_outs(belief: Belief, rng: random.Random, deals: int, hand: list[int],
              playable: list[int], ranks: tuple[int, ...], count: int,
              side_of: tuple[int, ...], needs: list[int], exact_finish: bool,
              record: bool, mix: tuple[float, ...] = POLICY_MIX
              ) -> tuple[list[float], list[float], list[int] | None]:
    """The sampled deals, the reference (service.bots.fast_playout runs the same compiled):
    per card of `playable`, the sums over `deals` deals of the points your side pegs and of
    the average other side's; with `record`, also (each side's points, yours first, then the
    first side out or -1) of every deal and card, in that order, flat."""
    others = max(side_of)
    for_totals, against_totals = [0.0] * len(playable), [0.0] * len(playable)
    records: list[int] | None = [] if record else None
    for _ in range(deals):
        other_hands = belief.sample(rng)
        cautions = draw_policies(rng, len(side_of), mix)
        for at, card in enumerate(playable):
            hands = [list(hand)] + [list(held) for held in other_hands]
            points, first_out = play_out(hands, ranks, count, card, cautions, side_of, needs,
                                         exact_finish)
            for_totals[at] += points[0]
            against_totals[at] += sum(points[1:]) / others
            if records is not None:
                records += (*points, first_out)
    return for_totals, against_totals, records


def _win(first_out: int, needs: list[int], points: list[int], chance: AfterPlay) -> float:
    if first_out >= 0:
        return float(first_out == 0)
    return chance(tuple(need - pegged for need, pegged in zip(needs, points)))


def _option(position: PlayPosition, card: Card, total: list[float], deals: int,
            endgame: bool, own_need: int) -> PlayOption:
    pile = (*(c.rank for c in position.pile), card.rank)
    count = position.count + card.value
    points = peg_points(pile, count)
    if len(position.hand) == 1 and not any(position.sizes) and count < 31:
        points += 1
    if position.exact_finish and points > own_need:
        points = 0
    expected_for, against = total[0] / deals, total[1] / deals
    return PlayOption(card, points, expected_for, against, expected_for - against,
                      total[2] / deals if endgame else None,
                      points == own_need if position.exact_finish else points >= own_need)


def search_rng(position: PlayPosition) -> random.Random:
    """A generator seeded from the position: the same position always samples the same deals."""
    digest = hashlib.blake2b(repr(position).encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def check_position(position: PlayPosition) -> Belief:
    """Raise PlayPositionError if the position cannot happen; else what it says of the others."""
    players = position.players
    if not 2 <= players <= 6:
        raise PlayPositionError("invalid_players", f"players must be 2-6, got {players}",
                                field="players", players=players)
    if position.teams is not None and TEAM_LAYOUTS.get(position.teams, (0,))[0] != players:
        raise PlayPositionError("invalid_teams",
                                f"teams {position.teams!r} do not fit {players} players",
                                field="teams", teams=position.teams, players=players)
    groups = {"hand": position.hand, "pile": position.pile, "seen": position.seen}
    where: dict[Card, str] = {}
    for name, cards in groups.items():
        for card in cards:
            if card in where:
                raise PlayPositionError("card_seen_twice",
                                        f"{card} is both in {where[card]} and in {name}",
                                        index=cards.index(card), field=name, card=str(card),
                                        first=where[card])
            where[card] = name
    count = 0
    for index, card in enumerate(position.pile):
        count += card.value
        if count > 31:
            raise PlayPositionError("count_exceeds_31", f"the pile's count reaches {count}",
                                    index=index, field="pile", count=count)
    if count == 31:
        raise PlayPositionError("count_is_31", "at 31 the count starts again: send an empty pile",
                                field="pile")
    if len(position.hand) > 5:
        raise PlayPositionError("too_many_cards", "a player holds at most 5 cards in the play",
                                field="hand", max=5, got=len(position.hand))
    _check_seats(position)
    _check_other_scores(position)
    if position.target <= max(position.own_score, position.opponent_score):
        raise PlayPositionError("game_already_won", "a score has already reached the target",
                                field="target", target=position.target)
    belief = _belief(position, where)
    if not belief.feasible():
        raise PlayPositionError("impossible_hands", "the cards you have not seen cannot make "
                                "the other hands", field="goes" if position.goes else "hand_sizes")
    return belief


def _check_seats(position: PlayPosition) -> None:
    players = position.players
    sizes = position.sizes
    if len(sizes) != players - 1:
        raise PlayPositionError("wrong_hand_sizes", f"{players} players: give the cards of "
                                f"{players - 1} other players, not {len(sizes)}",
                                field="hand_sizes", players=players, expected=players - 1,
                                got=len(sizes))
    for index, size in enumerate(sizes):
        if not 0 <= size <= 5:
            raise PlayPositionError("invalid_next_cards", f"a player cannot hold {size} cards",
                                    field="hand_sizes", index=index, got=size)
    seat_fields: list[tuple[str, int | None, int, int]] = [
        ("dealer_seat", None, position.dealer, 0)]
    seat_fields += [("goes", index, seat, 1) for index, (seat, _) in enumerate(position.goes)]
    seat_fields += [("played_by", index, seat, 1)
                    for index, (seat, _) in enumerate(position.played_by)]
    for field, entry, seat, lowest in seat_fields:  # entry: its index in `field` (a list)
        if not lowest <= seat < players:
            raise PlayPositionError("seat_out_of_range", f"there is no other seat {seat}",
                                    field=field, index=entry, seat=seat, players=players)
    known = set(position.pile) | set(position.seen)
    for index, (_, card) in enumerate(position.played_by):
        if card not in known:
            raise PlayPositionError("played_card_unseen", f"{card} is neither in pile nor seen",
                                    field="played_by", index=index, card=str(card))


def _check_other_scores(position: PlayPosition) -> None:
    others = position.other_scores
    if others is None:
        return
    expected = max(position.side_of)
    if len(others) != expected:
        raise PlayPositionError("wrong_score_count", f"give {expected} other sides' scores, "
                                f"not {len(others)}", field="other_scores", expected=expected,
                                got=len(others))
    if max(others) != position.opponent_score:
        raise PlayPositionError("scores_disagree", f"the leading other side has {max(others)}, "
                                f"not opponent_score {position.opponent_score}",
                                field="other_scores", leading=max(others),
                                opponent_score=position.opponent_score)


def _belief(position: PlayPosition, known: dict[Card, str]) -> Belief:
    others = range(1, position.players)
    above = {seat: 0 for seat in others}
    for seat, count in position.goes:
        above[seat] = max(above[seat], 31 - count)
    played: dict[int, list[int]] = {seat: [] for seat in others}
    for seat, card in position.played_by:
        played[seat].append(card.rank)
    return Belief(
        pool=tuple(card.index for card in DECK if card not in known),
        sizes=position.sizes, above=tuple(above[seat] for seat in others),
        played=tuple(tuple(played[seat]) for seat in others), players=position.players,
        dealer=tuple(seat == position.dealer for seat in others))
