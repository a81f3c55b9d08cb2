"""The Find form (Ctrl+F): the seeds' "Find City/Port", "Find Country" and "Find Sea Area" in
one list.  "If you type in the first few letters of a ... name the list jumps to the first
name that matches what you type ... Clicking on OK closes the form and repositions the
current detailed map on the city or port" (a country: on its capital, else its middle; a sea
area: on its middle).

Typing narrows the list (names starting with the text first, then names containing it, as
``wif map find``); a click on a name centres the map on it and keeps the form open; OK or
Enter goes to the chosen (else the first) name and closes the form.  The look-ups are the
kernel's world map (``kernel.worldmap``), as app/cli_map.py's.
"""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UILabel, UISelectionList, UITextEntryLine

from .detailed import Selection
from .forms import FormWindow, gui_text
from .render import centre_of

SIZE = (420, 470)
LIMIT = 60  # names listed at once; typing more letters narrows the list


def place(world, kind: str, name: str):
    """The hex the map centres on for a Find row ``(kind, name)``, or None."""
    if kind in ("city", "port"):
        city = world.city(name) or world.port(name)
        return tuple(city.hex) if city else None
    if kind == "country":
        country = world.country(name)
        if country is None:
            return None
        capital = world.city(country.capital) if country.capital else None
        if capital is not None:
            return tuple(capital.hex)
        return centre_of(world.hexes_of_country(country.code), world.grid.cols)
    if kind == "sea area":
        area = world.sea_area(name)
        return centre_of(world.hexes_of_sea_area(area.code), world.grid.cols) if area else None
    raise ValueError(f"Find: unknown kind of place {kind!r} (city, port, country or sea area)")


def row_text(kind: str, name: str) -> str:
    return gui_text(f"{name}  ({kind})")


class FindForm:
    def __init__(self, window):
        self.window = window
        self.gui = window.gui
        self.world = window.model.world
        self.matches: list[tuple[str, str]] = []
        self.chosen: tuple[str, str] | None = None
        self.closed = False
        sw, sh = self.gui.size
        w, h = min(SIZE[0], sw), min(SIZE[1], sh)
        self.form = FormWindow(self.gui, pygame.Rect(max(0, sw // 2 - w - 40), max(0, (sh - h) // 2), w, h),
                               "Find city, port, country or sea area", object_id="#find_form")
        m = self.gui.manager
        self.hint = UILabel(pygame.Rect(8, 4, w - 30, 22), "type a name; click one to go there", m,
                            container=self.form)
        self.entry = UITextEntryLine(pygame.Rect(8, 28, w - 30, 32), m, container=self.form)
        self.list = UISelectionList(pygame.Rect(8, 66, w - 30, h - 150), [], m, container=self.form)
        self.form.owned += [self.hint, self.entry, self.list]
        self.form.button((8, h - 78, 100, 30), "OK", self.ok)
        self.form.button((w - 122, h - 78, 100, 30), "Close", self.close)
        self.gui.on(pygame_gui.UI_TEXT_ENTRY_CHANGED, self.entry, self.search)
        self.gui.on(pygame_gui.UI_TEXT_ENTRY_FINISHED, self.entry, lambda _text: self.ok())
        self.gui.on(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, self.list, self._clicked)
        self.entry.focus()

    # ------------------------------------------------------------ searching
    def search(self, text: str | None = None) -> list[tuple[str, str]]:
        text = self.entry.get_text() if text is None else text
        self.matches = self.world.find(text, limit=LIMIT) if text.strip() else []
        self.chosen = None
        self.list.set_item_list([row_text(k, n) for k, n in self.matches])
        if text.strip() and not self.matches:
            self.hint.set_text(f"no city, port, country or sea area matches {text!r}")
        else:
            self.hint.set_text(f"{len(self.matches)} found" if self.matches else "type a name; click one to go there")
        return self.matches

    def _clicked(self, text: str) -> None:
        found = next((m for m in self.matches if row_text(*m) == text), None)
        if found is not None:
            self.go(*found)

    # ------------------------------------------------------------ going there
    def go(self, kind: str, name: str) -> tuple[int, int] | None:
        """Centre the current detailed map on the place and mark its hex."""
        hex_ = place(self.world, kind, name)
        self.chosen = (kind, name)
        dmap = self.window.primary
        if hex_ is None or dmap is None:
            self.hint.set_text(f"{name}: no hex to show")
            return None
        dmap.center_on(hex_)
        dmap.selection = Selection(hex_, [])  # the hex ringed, no unit chosen
        self.window.say(f"Find: {name} ({kind}) at {hex_[0]},{hex_[1]}")
        return hex_

    def ok(self) -> None:
        if self.chosen is None:
            if not self.matches:
                self.search()
            if not self.matches:
                return
            self.go(*self.matches[0])
        self.close()

    def close(self) -> None:
        if not self.closed:
            self.gui.close(self.form)
            self.closed = True
