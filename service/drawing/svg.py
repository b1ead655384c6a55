"""The few SVG elements the pictures are made of, with every text escaped."""
from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

FONTS = "DejaVu Sans, Arial, sans-serif"


def document(width: float, height: float, title: str, body: list[str]) -> str:
    """A standalone SVG document: its title is what a screen reader says of the picture."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img">'
            f'<title>{escape(title)}</title><g font-family="{FONTS}">{"".join(body)}</g></svg>')


def text(x: float, y: float, content: str, size: int = 14, fill: str = "#1b1b1b",
         anchor: str = "start", weight: str = "normal") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" fill="{fill}" '
            f'text-anchor="{anchor}" font-weight="{weight}">{escape(content)}</text>')


def rect(x: float, y: float, width: float, height: float, fill: str, stroke: str = "none",
         radius: float = 0) -> str:
    return (f'<rect x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}" rx="{radius:g}" '
            f'fill="{fill}" stroke="{stroke}"/>')


def circle(x: float, y: float, radius: float, fill: str, stroke: str = "none") -> str:
    return f'<circle cx="{x:g}" cy="{y:g}" r="{radius:g}" fill="{fill}" stroke="{stroke}"/>'


def group(label: str, body: list[str]) -> str:
    return f"<g aria-label={quoteattr(label)}>{''.join(body)}</g>"
