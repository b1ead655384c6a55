"""One card face: its rank in the corners, its suit large in the middle."""
from __future__ import annotations

from service.cards import Card
from service.drawing.svg import group, rect, text

WIDTH, HEIGHT = 64, 90
SUIT_SYMBOLS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}
RED, BLACK = "#b3122e", "#1b1b1b"


def card_svg(card: Card, x: float, y: float) -> str:
    rank = card.text[:-1]
    symbol = SUIT_SYMBOLS[card.suit]
    colour = RED if card.suit in "HD" else BLACK
    return group(card.text, [
        rect(x, y, WIDTH, HEIGHT, "#fffdf7", "#6b6b6b", radius=6),
        text(x + 6, y + 18, rank, 15, colour, weight="bold"),
        text(x + 6, y + 33, symbol, 14, colour),
        text(x + WIDTH / 2, y + HEIGHT / 2 + 14, symbol, 38, colour, anchor="middle"),
        text(x + WIDTH - 6, y + HEIGHT - 8, rank, 15, colour, anchor="end", weight="bold"),
    ])
