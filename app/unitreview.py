"""The Unit Review form (Ctrl+U), from the seeds' "Unit Review" and "Unit View Filter": "a
vertical list of units ... Each unit has a short description to its right stating where it is
currently located", filtered down "to a tight group in which you are currently interested"
("by checking Armor, On Map, and Germany, you can see a list all the German armor that is on
the map"; "out of supply enemy units are something you are considering attacking").

Filters (cumulative, as the Unit View Filter's): power, unit type, supply (on the map: in or
out of supply, the game's answer through the ``supply_status`` hook) and where (on the map,
reinforcements to come or still to set up, eliminated, the pools).  Each row shows the unit's
counter picture (app/counters.counter_picture) and where it is; a click on a row centres the
current detailed map on the unit and selects its hex, a double click also closes the form
(seeds: "Double clicking on a unit closes this form and repositions the current detailed map
so it is centered on the selected unit").
"""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UIImage, UILabel, UIScrollingContainer

from .counters import KNOWN_TYPES, counter_picture, factor_text
from .forms import FormWindow, gui_text
from .mapstyle import power_code
from .uihooks import ask_game

SIZE = (620, 600)
ROW_H = 44
PICTURE = 40
MAX_ROWS = 300  # pygame_gui builds a widget per row; narrow the filter to see more
ALL = "all"
# where a unit is (units plugin's ``where``) -> the filter's group
WHERE_GROUPS = {"map": "on map", "arriving": "reinforcements", "setup-tray": "reinforcements",
                "eliminated": "eliminated"}  # the rest: force, production and reserve pools
WHERE_CHOICES = ("anywhere", "on map", "reinforcements", "eliminated", "pools")
SUPPLY_CHOICES = ("in or out of supply", "in supply", "out of supply")
ROW_THEME = {"#unit_row": {"misc": {"text_horiz_alignment": "left", "text_horiz_alignment_padding": "8"}}}


def where_group(unit) -> str:
    return WHERE_GROUPS.get(unit.where, "pools")


def power_name(power: str) -> str:
    return "USSR" if power == "ussr" else power.replace("-", " ").title()


def type_name(type_id: str) -> str:
    kind = KNOWN_TYPES.get(type_id)
    return f"{type_id} ({kind})" if kind and kind != type_id else type_id


class UnitFilter:
    """The Unit View Filter's choices; ``ALL`` (or the first choice) leaves a group out."""

    def __init__(self):
        self.power = ALL
        self.type = ALL
        self.supply = SUPPLY_CHOICES[0]
        self.where = WHERE_CHOICES[0]

    def keeps(self, unit, out_of_supply: set[str]) -> bool:
        if self.power != ALL and unit.power != self.power:
            return False
        if self.type != ALL and unit.type != self.type:
            return False
        if self.where != WHERE_CHOICES[0] and where_group(unit) != self.where:
            return False
        if self.supply != SUPPLY_CHOICES[0]:
            # supply is a question for units on the map ("Supply Sources and Paths")
            if not unit.on_map:
                return False
            if (unit.id in out_of_supply) != (self.supply == "out of supply"):
                return False
        return True


class UnitReview:
    def __init__(self, window):
        self.window = window
        self.gui = window.gui
        self.game = window.game
        self.filter = UnitFilter()
        self.closed = False
        self.rows: list[tuple[str, UIButton]] = []  # (unit id, its row button)
        self.list: UIScrollingContainer | None = None
        sw, sh = self.gui.size
        w, h = min(SIZE[0], sw), min(SIZE[1], sh)
        self.size = (w, h)
        self.form = FormWindow(self.gui, pygame.Rect(max(0, (sw - w) // 2 - 120), max(0, (sh - h) // 2), w, h),
                               "Unit Review", object_id="#unit_review")
        self._build_filters()
        self.count = UILabel(pygame.Rect(8, 72, w - 30, 22), "", self.gui.manager, container=self.form)
        self.form.owned.append(self.count)
        self.form.button((w - 122, h - 72, 100, 30), "Close", self.close)
        self.show()

    # ------------------------------------------------------------ filters
    def units(self) -> list:
        units = self.window.model.units()
        return list(units.units.values()) if units is not None else []

    def _build_filters(self) -> None:
        m = self.gui.manager
        units = self.units()
        powers = sorted({u.power for u in units})
        types = sorted({u.type for u in units})
        self.power_names = {ALL: "all powers"} | {p: power_name(p) for p in powers}
        self.type_names = {ALL: "all types"} | {t: type_name(t) for t in types}
        menus = [("power", list(self.power_names.values()), 8, 140),
                 ("type", list(self.type_names.values()), 152, 150),
                 ("supply", list(SUPPLY_CHOICES), 306, 160),
                 ("where", list(WHERE_CHOICES), 470, 122)]
        self.menus = {}
        for name, options, x, width in menus:
            UILabel(pygame.Rect(x, 4, width, 20), name, m, container=self.form)
            menu = UIDropDownMenu(options, options[0], pygame.Rect(x, 26, width, 32), m, container=self.form)
            self.gui.on(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, menu, lambda text, n=name: self.set_filter(n, text))
            self.menus[name] = menu

    def set_filter(self, name: str, text: str) -> None:
        """A filter menu changed (``text`` as the menu shows it)."""
        if name == "power":
            self.filter.power = next(k for k, v in self.power_names.items() if v == text)
        elif name == "type":
            self.filter.type = next(k for k, v in self.type_names.items() if v == text)
        elif name == "supply":
            self.filter.supply = text
        elif name == "where":
            self.filter.where = text
        else:
            raise ValueError(f"Unit Review: no filter {name!r} (power, type, supply, where)")
        self.show()

    def out_of_supply(self) -> set[str]:
        out: set[str] = set()
        for power in self.game.state.kernel.powers():
            answer = ask_game(self.game, "supply_status", state=self.game.state, power=power)
            out.update(answer["out_of_supply"] if answer else ())
        return out

    def shown_units(self) -> list:
        """The units the filters keep: on the map first, by power, type and name."""
        out = self._out = self.out_of_supply()  # also shown in each row of a unit on the map
        kept = [u for u in self.units() if self.filter.keeps(u, out)]
        order = {g: i for i, g in enumerate(WHERE_CHOICES)}
        return sorted(kept, key=lambda u: (order.get(where_group(u), 9), u.power, u.type, u.name or u.id))

    # ------------------------------------------------------------ the list
    def describe(self, unit) -> str:
        where = where_group(unit)
        if unit.on_map:
            info = self.window.model.info(tuple(unit.hex)).lines()[0]
            where = f"at {info}" + (", OUT OF SUPPLY" if unit.id in self._out else ", in supply")
        elif unit.where == "setup-tray":
            where = "to set up (Setup Tray)"
        elif unit.where == "arriving":
            where = "reinforcement to come"
        elif where == "pools":
            where = f"in the {unit.where.replace('-', ' ')}"
        name = unit.name or unit.id
        return gui_text(f"{power_code(unit.power)}  {name}  {unit.type} {factor_text(unit)}  -  {where}")

    def show(self) -> None:
        for _, button in self.rows:
            self.gui.forget(button)
        if self.list is not None:
            self.list.kill()
        w, h = self.size
        m = self.gui.manager
        m.get_theme().load_theme(ROW_THEME)
        units = self.shown_units()
        listed = units[:MAX_ROWS]
        more = f" (the first {MAX_ROWS} listed: narrow the filter)" if len(units) > MAX_ROWS else ""
        self.count.set_text(f"{len(units)} units{more}; click one to centre the map on it")
        self.list = UIScrollingContainer(pygame.Rect(8, 96, w - 30, h - 180), m, container=self.form,
                                         allow_scroll_x=False)
        inner = w - 30 - 22
        self.list.set_scrollable_area_dimensions((inner, max(1, len(listed)) * ROW_H))
        self.rows = []
        for i, unit in enumerate(listed):
            y = i * ROW_H
            UIImage(pygame.Rect(0, y + 2, PICTURE, PICTURE), counter_picture(unit, PICTURE), m, container=self.list)
            button = UIButton(pygame.Rect(PICTURE + 6, y + 6, inner - PICTURE - 6, 32), self.describe(unit), m,
                              container=self.list, object_id="#unit_row", allow_double_clicks=True)
            self.gui.on(pygame_gui.UI_BUTTON_PRESSED, button, lambda u=unit.id: self.go_to(u))
            self.gui.on(pygame_gui.UI_BUTTON_DOUBLE_CLICKED, button, lambda _=None, u=unit.id: self.go_and_close(u))
            self.rows.append((unit.id, button))
        self.form.owned.append(self.list)

    def go_to(self, unit_id: str) -> bool:
        """Centre the current detailed map on the unit and select its hex; False when it is
        not on the map (then only a message says where it is)."""
        units = self.window.model.units()
        unit = units.units.get(unit_id) if units is not None else None
        if unit is None:
            raise KeyError(f"Unit Review: no unit {unit_id!r}")
        if not unit.on_map or self.window.primary is None:
            self.window.say(f"{unit.name or unit.id} is not on the map: {self.describe(unit).split('  -  ')[-1]}")
            return False
        hex_ = tuple(unit.hex)
        self.window.primary.center_on(hex_)
        self.window.set_selection(hex_, [u.id for u in units.in_hex(hex_)])
        self.window.say(f"Unit Review: {unit.name or unit.id} at {hex_[0]},{hex_[1]}")
        return True

    def go_and_close(self, unit_id: str) -> None:
        """Seeds, "Unit Review": "Double clicking on a unit closes this form and repositions the
        current detailed map so it is centered on the selected unit"."""
        self.go_to(unit_id)
        self.close()

    def close(self) -> None:
        if not self.closed:
            for _, button in self.rows:
                self.gui.forget(button)
            self.gui.close(self.form)
            self.closed = True
