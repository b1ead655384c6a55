"""The play search's sampled deals, compiled: the same deals, play-outs and totals as the Python
reference (service.bots.pegging.play_outs), at a tenth to a thirtieth of the CPU.

What runs in C (service/bots/_playout.c): drawing the other hands (service.bots.belief, the
kept-hand weights included), the policies of the deal (service.bots.playout.draw_policies), the
play-out of every card (service.bots.playout.play_out) and the sums. The draws stay the ones
the Python code makes: the C code runs CPython's own Mersenne Twister from the state of the
generator it is given (`random.Random.getstate`) and hands the state back, and follows
Random._randbelow, .random and .sample draw for draw, so one seed gives one decision whichever
path runs, and the generator is left as the reference leaves it. Floats are computed in the
reference's order (compiled with -ffp-contract=off): the totals are equal, not merely close
(tests/bots/test_fast_playout.py checks it with hypothesis, 2-6 players).

Why C and not numpy or numba (measured on this machine, bench/decision_cpu.py): the work is a
few thousand short, branchy play-outs per decision, each a dozen dependent card choices;
vectorising them over deals in numpy pays its per-call overhead (microseconds) on every card
of every step, which is the Python loop's cost again, and the belief's rejection sampling does
not vectorise with the same draws. numba compiles the same loop, but its import and the first
call's compilation cost seconds in every fresh process (its cache helps only where the cache
directory is writable and kept) and it brings llvmlite, about 100 MB, to the core install. A
C extension of one file has no dependency, imports in microseconds and is built by
`pip install` through setuptools (ext-modules in pyproject.toml). It is optional: where no C
compiler is found the build goes on without it, `available` is False and the reference runs.
"""
from __future__ import annotations

import random

from service.bots.belief import Belief
from service.bots.kept_hands import kept_size, max_kept_hand_weight
from service.bots.kept_hands_table import LIKELIHOOD_RATIOS, TOP_BUCKET
from service.bots.playout import OWN_POLICY, POLICY_MIX, RANK, VALUE

try:
    from service.bots import _playout
except ImportError:  # built without a C compiler
    available = False
else:
    available = True
    _playout.set_tables(RANK, VALUE)

Outcome = tuple[list[float], list[float], list[int] | None]


def play_outs(belief: Belief, rng: random.Random, deals: int, hand: list[int],
              playable: list[int], ranks: tuple[int, ...], count: int,
              side_of: tuple[int, ...], needs: list[int], exact_finish: bool,
              record: bool, mix: tuple[float, ...] = POLICY_MIX) -> Outcome | None:
    """What service.bots.pegging.play_outs returns for the same arguments, with `rng` left in
    the same state; None when the extension is missing or `rng` is not a plain random.Random
    (a subclass may draw otherwise)."""
    if not available or type(rng) is not random.Random:
        return None
    version, state, gauss_next = rng.getstate()
    dealer = belief.dealer
    seats = range(len(belief.sizes))
    belief_args = (
        belief.pool, belief.sizes, belief.above, belief.played,
        [LIKELIHOOD_RATIOS.get((belief.players, dealer[seat])) for seat in seats],
        [max_kept_hand_weight(belief.players, dealer[seat]) for seat in seats],
        belief.strictest_first(), kept_size(belief.players), TOP_BUCKET)
    state, for_totals, against_totals, records = _playout.search(
        state, belief_args, mix, OWN_POLICY, deals, hand, playable, ranks, count,
        side_of, needs, exact_finish, record)
    rng.setstate((version, state, gauss_next))
    return for_totals, against_totals, records
