"""The game's own words, in English and Spanish: numbers, the count of a show as a player says
it ("fifteen two, fifteen four and a pair makes six"), the play, a claim checked."""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Sequence

from service.scoring import ClaimCheck, ScoreItem

DEFAULT_LANGUAGE = "en"

_EN_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
             "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_EN_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_ES_UNITS = ("cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce "
             "quince dieciséis diecisiete dieciocho diecinueve veinte veintiuno veintidós "
             "veintitrés veinticuatro veinticinco veintiséis veintisiete veintiocho "
             "veintinueve").split()
_ES_TENS = "_ _ _ treinta cuarenta cincuenta sesenta setenta ochenta noventa".split()


def number_words(number: int, language: str) -> str:
    """`number` (0-999) spelt out: 29 -> "twenty-nine" / "veintinueve"; larger ones as digits."""
    if not 0 <= number < 1000:
        return str(number)
    if language == "es":
        return _spanish_number(number)
    return _english_number(number)


def _english_number(number: int) -> str:
    if number < 20:
        return _EN_UNITS[number]
    if number < 100:
        tens, units = divmod(number, 10)
        return _EN_TENS[tens] + (f"-{_EN_UNITS[units]}" if units else "")
    hundreds, rest = divmod(number, 100)
    words = f"{_EN_UNITS[hundreds]} hundred"
    return words + (f" and {_english_number(rest)}" if rest else "")


_ES_HUNDREDS = ("_ ciento doscientos trescientos cuatrocientos quinientos seiscientos "
                "setecientos ochocientos novecientos").split()


def _spanish_number(number: int) -> str:
    if number < 30:
        return _ES_UNITS[number]
    if number < 100:
        tens, units = divmod(number, 10)
        return _ES_TENS[tens] + (f" y {_ES_UNITS[units]}" if units else "")
    if number == 100:
        return "cien"
    hundreds, rest = divmod(number, 100)
    return _ES_HUNDREDS[hundreds] + (f" {_spanish_number(rest)}" if rest else "")


# Words of the show and the play, by language.
PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "fifteen_call": "fifteen {n}",
        "pair": "a pair", "three_of_a_kind": "a pair royal",
        "four_of_a_kind": "a double pair royal",
        "run": "a run of {k}", "run_2": "a double run of {k}", "run_3": "a triple run of {k}",
        "run_4": "a double double run of {k}", "runs": "{m} runs of {k}",
        "flush": "a flush of {k}", "nobs": "one for his nobs",
        "and": " and ", "makes": "{calls} makes {total}", "nothing": "no points",
        "kind.fifteen": "fifteen", "kind.pair": "pair", "kind.run": "run",
        "kind.flush": "flush", "kind.nobs": "nobs",
        "kind.thirty_one": "thirty-one", "kind.three_of_a_kind": "pair royal",
        "kind.four_of_a_kind": "double pair royal",
        "explain.correct": "Claimed {claimed}: correct.",
        "explain.wrong": "Claimed {claimed}, worth {actual}.",
        "explain.breakdown": "The count is: {items}.",
        "explain.missed": "Missed {points}: {items}.",
        "explain.wrong_items": "Not there, {points}: {items}.",
        "explain.item": "{kind} {cards} for {points}",
    },
    "es": {
        "fifteen_call": "quince {n}",
        "pair": "un par", "three_of_a_kind": "un trío", "four_of_a_kind": "un póquer",
        "run": "una escalera de {k}", "run_2": "una escalera doble de {k}",
        "run_3": "una escalera triple de {k}", "run_4": "una escalera cuádruple de {k}",
        "runs": "{m} escaleras de {k}",
        "flush": "un color de {k}", "nobs": "uno por sus nobs",
        "and": " y ", "makes": "{calls} suman {total}", "nothing": "ningún punto",
        "kind.fifteen": "quince", "kind.pair": "par", "kind.run": "escalera",
        "kind.flush": "color", "kind.nobs": "nobs",
        "kind.thirty_one": "treinta y uno", "kind.three_of_a_kind": "trío",
        "kind.four_of_a_kind": "póquer",
        "explain.correct": "Declarados {claimed}: correcto.",
        "explain.wrong": "Declarados {claimed}, valen {actual}.",
        "explain.breakdown": "La cuenta es: {items}.",
        "explain.missed": "Faltan {points}: {items}.",
        "explain.wrong_items": "No existen, {points}: {items}.",
        "explain.item": "{kind} con {cards}, por {points}",
    },
}
_ES_RANKS = ("_ as dos tres cuatro cinco seis siete ocho nueve diez jota reina rey").split()
_ES_SUITS = {"S": "picas", "H": "corazones", "D": "diamantes", "C": "tréboles"}


def phrase(key: str, language: str, **params) -> str:
    template = PHRASES.get(language, PHRASES[DEFAULT_LANGUAGE])[key]
    return template.format(**params) if params else template



_SAME_RANK = {1: "pair", 3: "three_of_a_kind", 6: "four_of_a_kind"}  # by pairs of one rank
_COPIES = {0: 1, 1: 2, 3: 3, 6: 4}  # cards of one rank, by the pairs they make


def show_summary(items: Sequence[ScoreItem], total: int, language: str) -> str:
    """The count as a player says it: "fifteen two, fifteen four and a double run of three makes
    twelve". Pairs inside a double or triple run are said as part of the run."""
    shape = tuple([(item.kind, tuple([card.rank for card in item.cards])) for item in items])
    return _say_show(shape, total, language)


# What is said depends only on the items' kinds and ranks: the same few thousand shapes recur,
# and saying one costs more than the rest of a scoring request.
@lru_cache(maxsize=8192)
def _say_show(shape: tuple[tuple[str, tuple[int, ...]], ...], total: int, language: str) -> str:
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


def item_text(item: ScoreItem, language: str) -> str:
    """One combination: "fifteen 4C 5H 6D for 2" in English's own card codes; in Spanish the
    cards in words, "quince con cuatro de tréboles, cinco de corazones y seis de diamantes,
    por 2"."""
    if language == "es":
        names = [f"{_ES_RANKS[card.rank]} de {_ES_SUITS[card.suit]}" for card in item.cards]
        cards = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} y {names[-1]}"
    else:
        cards = " ".join(card.text for card in item.cards)
    return phrase("explain.item", language, kind=phrase(f"kind.{item.kind}", language),
                  cards=cards, points=item.points)


def claim_explanation(check: ClaimCheck, itemised: bool, language: str) -> str:
    """The BSD `-e` explanation: a wrong count lists each combination missed or wrongly claimed
    (for a bare number, the whole true count)."""
    if check.claimed == check.actual and not check.missed_items and not check.wrong_items:
        return phrase("explain.correct", language, claimed=check.claimed)
    parts = [phrase("explain.wrong", language, claimed=check.claimed, actual=check.actual)]

    def listing(items: Sequence[ScoreItem]) -> str:
        return "; ".join(item_text(item, language) for item in items)

    if not itemised:
        if check.breakdown:
            parts.append(phrase("explain.breakdown", language, items=listing(check.breakdown)))
        return " ".join(parts)
    if check.missed_items:
        parts.append(phrase("explain.missed", language,
                            points=sum(item.points for item in check.missed_items),
                            items=listing(check.missed_items)))
    if check.wrong_items:
        parts.append(phrase("explain.wrong_items", language,
                            points=sum(item.points for item in check.wrong_items),
                            items=listing(check.wrong_items)))
    return " ".join(parts)
