"""A pegging board as a picture: one track of holes a side, its front peg at the score and its
back peg at the score before, as on a real board."""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from service.drawing.svg import circle, document, group, rect, text

MARGIN = 16
HOLES_PER_ROW = 40
HOLE_SPACING = 10
GROUP_GAP = 6  # between groups of five holes
START_WIDTH = 18  # the start hole, left of the first row
TRACK_HEIGHT = 14
ROW_GAP = 12
HEADER_LINE = 22
PEG_COLOURS = ("#c0392b", "#1f5fbf", "#1e8449")


class Side(NamedTuple):
    name: str
    score: int
    previous: int  # the score before the last points: where the back peg stands


def board_svg(sides: Sequence[Side], target: int, title: str) -> str:
    rows = -(-target // HOLES_PER_ROW)
    row_height = len(sides) * TRACK_HEIGHT + ROW_GAP
    board_top = MARGIN + HEADER_LINE * len(sides) + 8
    width = 2 * MARGIN + START_WIDTH + _column_x(HOLES_PER_ROW - 1) + HOLE_SPACING
    height = board_top + rows * row_height + MARGIN

    def hole(side: int, score: int) -> tuple[float, float]:
        if score == 0:
            return MARGIN + START_WIDTH / 2, board_top + side * TRACK_HEIGHT + TRACK_HEIGHT / 2
        row, column = divmod(score - 1, HOLES_PER_ROW)
        return (MARGIN + START_WIDTH + _column_x(column) + HOLE_SPACING / 2,
                board_top + row * row_height + side * TRACK_HEIGHT + TRACK_HEIGHT / 2)

    body = [rect(0, 0, width, height, "#f4f1e8", radius=10),
            rect(MARGIN - 4, board_top - 4, width - 2 * MARGIN + 8, rows * row_height,
                 "#c8a26b", radius=6)]
    for number, side in enumerate(sides):
        colour = PEG_COLOURS[number]
        y = MARGIN + HEADER_LINE * number + 14
        holes = [circle(*hole(number, score), 2, "#5a3b1e") for score in range(target + 1)]
        back, front = hole(number, side.previous), hole(number, side.score)
        body += [
            circle(MARGIN + 6, y - 5, 6, colour),
            text(MARGIN + 18, y, f"{side.name}: {side.score}", 15, weight="bold"),
            group(side.name, holes + [circle(*back, 4, "#ffffff", colour),
                                      circle(*front, 5, colour, "#1b1b1b")]),
        ]
    return document(width, height, title, body)


def _column_x(column: int) -> float:
    return column * HOLE_SPACING + (column // 5) * GROUP_GAP
