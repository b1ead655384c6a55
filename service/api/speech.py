"""Spoken-style summaries of a show, a pegging play and a claim check, in English or Spanish."""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from service.i18n import number_words, phrase
from service.scoring import Combination

_SAME_RANK = {1: "pair", 3: "three_of_a_kind", 6: "four_of_a_kind"}  # by pairs of one rank
_COPIES = {0: 1, 1: 2, 3: 3, 6: 4}  # cards of one rank, by the pairs they make


def show_summary(combos: Sequence[Combination], ranks: tuple[int, ...], total: int,
                 language: str) -> str:
    """The count as a player says it: "fifteen two, fifteen four and a double run of three makes
    twelve". Pairs inside a double or triple run are said as part of the run.

    `combos`, `ranks` and `total` are those of a `show_combinations` result.
    """
    return _say_shape(tuple([(kind, tuple([ranks[i] for i in positions]))
                             for kind, positions, _ in combos]), total, language)


def _say_shape(shape: tuple[tuple[str, tuple[int, ...]], ...], total: int, language: str) -> str:
    """`show_summary` of items given as (kind, ranks): what is said depends on nothing else."""
    def words(n: int) -> str:
        return number_words(n, language)

    calls = []
    fifteens = sum(1 for kind, _ in shape if kind == "fifteen")
    for running in range(2, 2 * fifteens + 1, 2):
        calls.append(phrase("fifteen_call", language, n=words(running)))

    pairs_by_rank = Counter(ranks[0] for kind, ranks in shape if kind == "pair")
    runs = Counter(tuple(sorted(ranks)) for kind, ranks in shape if kind == "run")
    for ranks, count in runs.items():
        # n cards of a rank make n * (n - 1) / 2 pairs
        copies = {rank: _COPIES[pairs_by_rank.get(rank, 0)] for rank in ranks}
        repeated = tuple(sorted(n for n in copies.values() if n > 1))
        spoken = {(): "run", (2,): "run_2", (3,): "run_3", (2, 2): "run_4"}.get(repeated)
        k = words(len(ranks))
        if spoken is None:
            calls.append(phrase("runs", language, m=words(count), k=k))
            continue
        calls.append(phrase(spoken, language, k=k))
        for rank, n in copies.items():
            if n > 1:
                del pairs_by_rank[rank]
    for pairs in pairs_by_rank.values():
        calls.append(phrase(_SAME_RANK[pairs], language))
    for kind, ranks in shape:
        if kind == "flush":
            calls.append(phrase("flush", language, k=words(len(ranks))))
        elif kind == "nobs":
            calls.append(phrase("nobs", language))

    if not calls:
        return phrase("nothing", language)
    if fifteens == len(shape):
        return ", ".join(calls)
    said = ", ".join(calls[:-1]) + phrase("and", language) + calls[-1] if len(calls) > 1 \
        else calls[0]
    return phrase("makes", language, calls=said, total=words(total))


def pegging_summary(count: int, points: int, language: str) -> str:
    """What the player says on laying the card: "fifteen for two", or just the count."""
    said = number_words(count, language)
    if not points:
        return said
    return f"{said} {'por' if language == 'es' else 'for'} {number_words(points, language)}"


def item_text(item_kind: str, cards: Sequence[str], points: int, language: str) -> str:
    return phrase("explain.item", language, kind=phrase(f"kind.{item_kind}", language),
                  cards=" ".join(cards), points=points)


def claim_explanation(*, claimed: int, actual: int, breakdown: Sequence[dict],
                      missed_items: Sequence[dict], wrong_items: Sequence[dict],
                      itemised: bool, language: str) -> str:
    """The BSD `-e` explanation: a wrong count lists each combination missed or wrongly claimed
    (for a bare number, the whole true count)."""
    if claimed == actual and not missed_items and not wrong_items:
        return phrase("explain.correct", language, claimed=claimed)
    parts = [phrase("explain.wrong", language, claimed=claimed, actual=actual)]

    def listing(items: Sequence[dict]) -> str:
        return "; ".join(item_text(item["kind"], item["cards"], item["points"], language)
                         for item in items)

    if not itemised:
        if breakdown:
            parts.append(phrase("explain.breakdown", language, items=listing(breakdown)))
        return " ".join(parts)
    if missed_items:
        parts.append(phrase("explain.missed", language,
                            points=sum(item["points"] for item in missed_items),
                            items=listing(missed_items)))
    if wrong_items:
        parts.append(phrase("explain.wrong_items", language,
                            points=sum(item["points"] for item in wrong_items),
                            items=listing(wrong_items)))
    return " ".join(parts)
