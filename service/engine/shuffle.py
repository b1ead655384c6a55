"""Deterministic shuffles and random cuts, derived only from the game seed.

Seeds:
    hand seed  = sha256(game_seed || b"hand" || hand_number as 4 bytes big-endian)
    cut seed   = sha256(game_seed || b"cut"  || round as 4 bytes big-endian)   (cutting for deal)
    commitment = sha256(seed) as hex, published before the seed is used; the seed itself is
                 revealed once the hand (or the cut for deal) is over, so anyone can check it.

Stream: block i of the stream of a seed is sha256(seed || i as 8 bytes big-endian), i = 0, 1, ...;
the blocks are read as consecutive 32-bit big-endian unsigned words. A uniform integer below n is
drawn by rejection: words >= 2**32 - (2**32 mod n) are skipped, the result is word mod n.

Deck order: start from the 52 cards in index order (S A..K, H A..K, D A..K, C A..K) and run
Fisher–Yates from the top: for i = 51 down to 1, swap positions i and j = below(i + 1).
The deal then takes cards from position 0 onwards.

Random cut depth (a cut with depth null): a uniform integer in [low, high] drawn from the stream
of sha256(seed || label); the label is b"starter" for the starter cut of a hand (hand seed) and
b"seat" || seat as 1 byte for a cut for deal (cut seed).
"""
from __future__ import annotations

import struct
from collections.abc import Iterator
from hashlib import sha256
from itertools import count

from service.cards import DECK, Card

_WORD = 1 << 32


def hand_seed(game_seed: bytes, hand_number: int) -> bytes:
    return sha256(game_seed + b"hand" + hand_number.to_bytes(4, "big")).digest()


def cut_seed(game_seed: bytes, round_number: int) -> bytes:
    return sha256(game_seed + b"cut" + round_number.to_bytes(4, "big")).digest()


def commitment(seed: bytes) -> str:
    return sha256(seed).hexdigest()


def _words(seed: bytes) -> Iterator[int]:
    """The stream: 32-bit big-endian words of sha256(seed || counter), counter 0, 1, ..."""
    for counter in count():
        yield from struct.unpack(">8I", sha256(seed + counter.to_bytes(8, "big")).digest())


def _below(words: Iterator[int], n: int) -> int:
    limit = _WORD - _WORD % n
    word = next(words)
    while word >= limit:
        word = next(words)
    return word % n


def shuffled_deck(seed: bytes) -> tuple[Card, ...]:
    deck = list(DECK)
    words = _words(seed)
    for i in range(51, 0, -1):
        j = _below(words, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def random_depth(seed: bytes, label: bytes, low: int, high: int) -> int:
    return low + _below(_words(sha256(seed + label).digest()), high - low + 1)
