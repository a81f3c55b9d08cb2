"""Fonts of the map and its forms, and small text sized by its glyph height.

pygame's bundled font (freesansbold) is the one font every machine has.  Its digits are
about half the point size tall and wide, so a counter's factors at 9-pixel digits would not
fit a 22-pixel counter; ``glyph_text`` renders large and scales down to an exact digit
height, narrowed a little, which stays readable and fits.
"""

from __future__ import annotations

import pygame

_FONTS: dict[tuple[int, bool], pygame.font.Font] = {}
_TEXTS: dict[tuple, pygame.Surface] = {}
_DIGIT_BOX: dict[tuple[int, bool], tuple[int, int]] = {}
NARROW = 0.82  # width kept when a text is scaled to its glyph height (a condensed face)


_LINES: dict[tuple, pygame.Surface] = {}
LINES_KEPT = 4000  # rendered lines of the window's panels, kept until this many (then all forgotten)


def _forget() -> None:
    _FONTS.clear()
    _LINES.clear()
    _TEXTS.clear()
    _DIGIT_BOX.clear()


def font(size: int, bold: bool = False) -> pygame.font.Font:
    key = (size, bold)
    if key not in _FONTS:
        if not pygame.font.get_init():
            pygame.font.init()
        if not _FONTS:  # fonts die with pygame.quit(); forget them then, so a new init makes new ones
            pygame.register_quit(_forget)
        f = pygame.font.Font(None, size)
        f.set_bold(bold)
        _FONTS[key] = f
    return _FONTS[key]


def line(size: int, text: str, colour, bold: bool = False) -> pygame.Surface:
    """``text`` rendered in ``font(size, bold)``, antialiased, cached: the panels redraw the
    same titles, lists and legends every frame."""
    key = (size, bold, text, tuple(colour))
    found = _LINES.get(key)
    if found is None:
        if len(_LINES) >= LINES_KEPT:
            _LINES.clear()
        found = _LINES[key] = font(size, bold).render(text, True, colour)
    return found


def _digit_box(size: int, bold: bool) -> tuple[int, int]:
    """The first and last pixel rows a digit's ink covers in a line rendered at ``size``."""
    key = (size, bold)
    if key not in _DIGIT_BOX:
        img = font(size, bold).render("0123456789", True, (255, 255, 255), (0, 0, 0))
        rows = [y for y in range(img.get_height())
                if any(img.get_at((x, y))[0] > 127 for x in range(img.get_width()))]
        _DIGIT_BOX[key] = (rows[0], rows[-1]) if rows else (0, img.get_height() - 1)
    return _DIGIT_BOX[key]


def glyph_text(text: str, digit_height: int, colour, max_width: int | None = None, bold: bool = True,
               ) -> pygame.Surface:
    """``text`` with its digits ``digit_height`` pixels tall (rows more than half inked),
    cropped to the ink's rows, narrowed, and squeezed further to ``max_width`` if given.
    Transparent background; cached."""
    key = (text, digit_height, tuple(colour), max_width, bold)
    found = _TEXTS.get(key)
    if found is not None:
        return found
    size = max(8, int(digit_height * 2.6))  # render about twice as tall as needed, then scale
    top, bottom = _digit_box(size, bold)
    img = font(size, bold).render(text or " ", True, colour)
    scale = (digit_height + 0.4) / (bottom - top + 1)  # + 0.4: smoothing thins the edge rows
    # keep a little of the rows above and below the digits (letters reach a bit further)
    pad = max(1, int(round(1 / scale)))
    top_row, bottom_row = max(0, top - pad), min(img.get_height() - 1, bottom + pad)
    img = img.subsurface((0, top_row, img.get_width(), bottom_row - top_row + 1))
    height = max(1, int(round(img.get_height() * scale)))
    width = max(1, int(round(img.get_width() * scale * NARROW)))
    if max_width is not None and width > max_width:
        width = max(1, max_width)
    found = _TEXTS[key] = pygame.transform.smoothscale(img, (width, height))
    return found
