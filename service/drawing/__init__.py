"""SVG pictures of the game: a show and a pegging board, as text, from plain values."""
from service.drawing.board import Side, board_svg
from service.drawing.show import ShowWords, show_svg

__all__ = ["ShowWords", "Side", "board_svg", "show_svg"]
