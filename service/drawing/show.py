"""A show as a picture: the hand (or crib) and the starter as cards, the points, and each
scoring combination in words."""
from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from service.cards import Card
from service.drawing import card
from service.drawing.svg import document, group, rect, text

MARGIN = 16
CARD_GAP = 8
STARTER_GAP = 28
TOTAL_WIDTH = 110
LINE_HEIGHT = 20
CHARACTER_WIDTH = 7.6  # an average character at 14 px, to wrap long lines


@dataclass(frozen=True)
class ShowWords:
    """Everything the picture says, in the reader's language."""

    hand_label: str  # "Hand" or "Crib"
    starter_label: str
    points_label: str
    items: Sequence[str]  # each combination: "fifteen 5H JH for 2"
    summary: str  # the count as a player says it


def show_svg(hand: Sequence[Card], starter: Card, total: int, words: ShowWords) -> str:
    cards_width = len(hand) * (card.WIDTH + CARD_GAP) - CARD_GAP
    starter_x = MARGIN + cards_width + STARTER_GAP
    total_x = starter_x + card.WIDTH + MARGIN
    width = total_x + TOTAL_WIDTH + MARGIN
    top = MARGIN + 20
    wrap = int((width - 2 * MARGIN) / CHARACTER_WIDTH)
    lines = [line for item in words.items for line in textwrap.wrap(item, wrap)]
    summary = textwrap.wrap(words.summary, wrap)
    height = top + card.HEIGHT + MARGIN + LINE_HEIGHT * (len(lines) + len(summary)) + MARGIN
    body = [
        rect(0, 0, width, height, "#0f5132", radius=10),
        text(MARGIN, MARGIN + 8, words.hand_label, 14, "#f4f1e8", weight="bold"),
        text(starter_x, MARGIN + 8, words.starter_label, 14, "#f4f1e8", weight="bold"),
        group(words.hand_label, [card.card_svg(held, MARGIN + index * (card.WIDTH + CARD_GAP),
                                               top) for index, held in enumerate(hand)]),
        group(words.starter_label, [card.card_svg(starter, starter_x, top)]),
        text(total_x + TOTAL_WIDTH / 2, top + 52, str(total), 44, "#ffd866", "middle", "bold"),
        text(total_x + TOTAL_WIDTH / 2, top + 76, words.points_label, 14, "#f4f1e8", "middle"),
    ]
    y = top + card.HEIGHT + MARGIN + 14
    for line in lines:
        body.append(text(MARGIN, y, line, 14, "#f4f1e8"))
        y += LINE_HEIGHT
    for line in summary:
        body.append(text(MARGIN, y, line, 14, "#ffd866", weight="bold"))
        y += LINE_HEIGHT
    title = f"{words.hand_label}: {' '.join(held.text for held in hand)}; " \
            f"{words.starter_label}: {starter.text}; {total} {words.points_label}. {words.summary}"
    return document(width, height, title, body)
