"""The discard `hard` makes, one function for `hard`, its hints and the post-game analysis: the
best weighted net of hand and crib (service.bots.discard) and, near the end of a game (a side
needs ENDGAME_NEED points or fewer), the best chance to win: with two players by the exact
model (service.bots.win_probability), with more players and teams by the sides' races
(service.bots.side_race). Games with exact_finish, and positions beyond the models' reach in a
game (win_probability.IN_GAME_REACH), are ranked by points only.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from service.bots import side_race, win_probability
from service.bots.discard import DiscardOption, analyse_discard
from service.cards import Card
from service.engine import GameOptions


@dataclass(frozen=True, slots=True)
class RankedDiscards:
    options: tuple[DiscardOption, ...]   # by the weighted net, best first
    chances: tuple[float, ...] | None    # each option's chance to win, near the end

    @property
    def best(self) -> DiscardOption:
        """The option `hard` takes: the best chance to win (ties: the better net), else net."""
        if self.chances is None:
            return self.options[0]
        return self.options[max(range(len(self.options)), key=self.chances.__getitem__)]


def rank_discards(hand: Sequence[Card], game: GameOptions, seat: int, dealer: int,
                  scores: Sequence[int]) -> RankedDiscards:
    """The discards of `seat` from `hand` in a deal dealt by seat `dealer`, `scores` per side."""
    own_crib = game.side_of(seat) == game.side_of(dealer)
    options = tuple(analyse_discard(hand, players=game.players, own_crib=own_crib,
                                    teams=game.teams))
    if game.exact_finish or not win_probability.is_endgame(scores, game.target) \
            or not win_probability.within_reach(game.players, scores, game.target):
        return RankedDiscards(options, None)
    if game.players == 2:
        chances = win_probability.discard_win_chances(
            options, hand, scores[seat], scores[1 - seat], own_crib, game.target, game.skunk)
    else:
        chances = side_race.discard_win_chances(options, hand, scores, seat, dealer, game)
    return RankedDiscards(options, tuple(float(chance) for chance in chances))
