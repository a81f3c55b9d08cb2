"""Text the window draws itself, shown in a form as a picture: the Play form's boxes that
change with every move (the status line, the log, the activities left).

A pygame_gui text box parses its HTML and lays it out again on every new text (~3 ms each,
three of them after each move).  A plate knows only what those boxes use (``<b>``, ``<br>``,
``<font color=...>`` and HTML entities), wraps words to its width and draws them in the
theme's own font and colours, so it reads like the text boxes around it; it is as tall as
its text.  ``html_text`` keeps the markup, as a text box's does.
"""

from __future__ import annotations

import html
import re
from importlib.resources import files

import pygame
from pygame_gui.elements import UIImage

PAD = 6  # pixels between the plate's border and its text (as a text box pads)
SIZE = 14  # the point size of pygame_gui's default theme font (Noto Sans)
LEADING = 4  # pixels between lines, as a text box spaces them
_TAG = re.compile(r"<(/?)(b|br|font)\b([^>]*)>", re.IGNORECASE)
_COLOUR = re.compile(r"""color\s*=\s*['"]?(#[0-9a-fA-F]{6})""")


def runs(markup: str, colour) -> list[list[tuple[str, bool, tuple]]]:
    """The markup as lines (split at ``<br>``) of (text, bold, colour) runs."""
    lines: list[list] = [[]]
    bold, colours = 0, [colour]
    at = 0
    for tag in _TAG.finditer(markup):
        if tag.start() > at:
            lines[-1].append((html.unescape(markup[at:tag.start()]), bold > 0, colours[-1]))
        at = tag.end()
        closing, name = tag.group(1) == "/", tag.group(2).lower()
        if name == "br":
            lines.append([])
        elif name == "b":
            bold += -1 if closing else 1
        elif closing:
            if len(colours) > 1:
                colours.pop()
        else:
            found = _COLOUR.search(tag.group(3))
            colours.append(pygame.Color(found.group(1)) if found else colours[-1])
    if at < len(markup):
        lines[-1].append((html.unescape(markup[at:]), bold > 0, colours[-1]))
    return lines


_FACES: dict[bool, pygame.font.Font] = {}


def _face(bold: bool) -> pygame.font.Font:
    """The theme's font (pygame_gui's own Noto Sans files), as a plain pygame font: measuring
    a word with it draws nothing."""
    if bold not in _FACES:
        if not _FACES:  # fonts die with pygame.quit(); forget them then
            pygame.register_quit(_FACES.clear)
        f = pygame.font.Font(str(files("pygame_gui.data") / ("NotoSans-Bold.ttf" if bold else "NotoSans-Regular.ttf")),
                             SIZE)
        f.set_point_size(SIZE)
        _FACES[bold] = f
    return _FACES[bold]


def plate_surface(manager, markup: str, width: int) -> pygame.Surface:
    """The plate's picture: ``markup`` wrapped to ``width`` pixels, as tall as it needs."""
    theme = manager.get_theme()
    text_colour, background = theme.get_colour("normal_text"), theme.get_colour("dark_bg")
    line_h = _face(False).get_linesize() + LEADING
    pictures = [_line_picture(tuple((text, bold, tuple(colour)) for text, bold, colour in line), width,
                              tuple(background), line_h)
                for line in runs(markup, text_colour)]
    surface = pygame.Surface((width, 2 * PAD + sum(p.get_height() for p in pictures)))
    surface.fill(background)
    y = PAD
    for picture in pictures:
        surface.blit(picture, (0, y))
        y += picture.get_height()
    pygame.draw.rect(surface, theme.get_colour("normal_border"), surface.get_rect(), 1)
    return surface


_LINES: dict[tuple, pygame.Surface] = {}  # one markup line drawn (the log's lines come back shifted)
LINES_KEPT = 64


def _line_picture(line: tuple, width: int, background: tuple, line_h: int) -> pygame.Surface:
    """One line of runs (text, bold, colour) wrapped to ``width`` and drawn: as many rows as
    it needs, the plate's padding on the left; kept for the next plates that show it."""
    key = (line, width, background, line_h)
    found = _LINES.get(key)
    if found is not None:
        return found
    room = width - 2 * PAD
    placed: list[list] = [[]]  # per drawn row: its runs as [text, bold, colour, x]
    x = 0  # where the next word starts
    for text, bold, colour in line:
        face = _face(bold)
        for word in re.findall(r"\S+\s*|\s+", text):
            row = placed[-1]
            same = bool(row) and row[-1][1] == bold and row[-1][2] == colour
            start = row[-1][3] if same else x
            joined = (row[-1][0] if same else "") + word
            if x and start + face.size(joined.rstrip())[0] > room and word.strip():
                placed.append([])  # wrap before a word that does not fit (a longer one is cut)
                row, same, start, joined = placed[-1], False, 0, word.lstrip()
            if same:
                row[-1][0] = joined
            else:
                row.append([joined, bold, colour, start])
            x = start + face.size(joined)[0]
    found = pygame.Surface((width, line_h * len(placed)))
    found.fill(background)
    for n, row in enumerate(placed):
        for text, bold, colour, x in row:
            if text.strip():
                found.blit(_face(bold).render(text.rstrip(), True, colour, background), (PAD + x, n * line_h))
    if len(_LINES) >= LINES_KEPT:
        _LINES.pop(next(iter(_LINES)))
    if not _LINES:  # surfaces die with pygame.quit(); forget them then
        pygame.register_quit(_LINES.clear)
    _LINES[key] = found
    return found


def text_plate(manager, markup: str, rect: pygame.Rect, container, surface: pygame.Surface | None = None) -> UIImage:
    """A plate at ``rect``'s top-left, ``rect.width`` wide, as tall as its text (``surface``:
    its picture, when already drawn)."""
    surface = surface if surface is not None else plate_surface(manager, markup, rect.width)
    plate = UIImage(pygame.Rect(rect.x, rect.y, rect.width, surface.get_height()), surface, manager,
                    container=container)
    plate.html_text = markup
    return plate
