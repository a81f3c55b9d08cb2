"""Text for the replay viewer's fixed-width rows: characters the font lacks replaced, and
texts cut to a width in pixels."""

from __future__ import annotations

from .detailed import font
from .forms import SUBSTITUTES


def printable(text: str, size: int = 16) -> str:
    """The text with characters the default font lacks replaced (arrows, dashes), so no
    box stands where a player expects a word."""
    out = []
    f = font(size)
    for ch in text:
        if ord(ch) > 127:
            ch = SUBSTITUTES.get(ch, ch)
            if len(ch) == 1 and f.metrics(ch)[0] is None:
                ch = "?"
        out.append(ch)
    return "".join(out)


def fit(text: str, size: int, width: int) -> str:
    """``text`` cut to ``width`` pixels, ending in "..." when cut."""
    f = font(size)
    if f.size(text)[0] <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the dots
        mid = (low + high + 1) // 2
        if f.size(text[:mid] + "...")[0] <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low] + "..."
