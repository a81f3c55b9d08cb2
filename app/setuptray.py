"""The Setup Tray form (seeds, "Setup Tray"): the units waiting to be placed, by set-up area.

- The set-up areas list: "All areas" and each area still holding units, with how many;
  choosing one lists only its units, centres the map on it and outlines its hexes.
- The units list: each unit is "Ready" or "In Stack".  A click moves a unit between the
  two (seeds: "Land and naval: Ready <-> In Stack"); the units In Stack are in hand.
- A click on the map places every unit in hand there, one ``PlaceUnit`` command each, so the
  rules check each placement; the first refusal stops and its reason is shown.
- "Restore Setup" sends ``RestoreSetup`` (every unit still in the tray to its saved default
  position); "All Ready" empties the hand.

Set-up areas come from the scenario when it publishes them (Barbarossa: ``oob``); other
scenarios list their tray as one area.  Not yet: the air list with its pilots, the filter
buttons, naval units at sea, Set Weather and the Setup Rules text.
"""

from __future__ import annotations

import importlib

import pygame
import pygame_gui
from pygame_gui.elements import UISelectionList, UITextBox

from .forms import FormWindow

ALL_AREAS = "All areas"
TRAY = "setup-tray"


class SetupTray:
    def __init__(self, forms):
        self.forms = forms
        self.game = forms.game
        self.gui = forms.gui
        self.form: FormWindow | None = None
        self.area: str | None = None  # the area id the lists show; None: all
        self.in_stack: list[str] = []
        self._built_for = None

    # ------------------------------------------------------------------ data
    def active(self) -> bool:
        return not self.forms.hidden() and "PlaceUnit" in self.game.legal_commands()

    def _scenario_data(self):
        """The scenario's authored set-up areas, if it publishes them."""
        k = self.game.state.kernel
        for name in (k.scenario, k.options.get("scenario_rules")):
            if not name:
                continue
            try:
                oob = importlib.import_module(f"plugins.scenarios.{name}.oob")
                return oob
            except ImportError:
                continue
        return None

    def tray_units(self) -> list:
        """The deciding power's units in the setup tray, in the tray's order."""
        units = self.forms.units()
        actor = self.forms.actor()
        if units is None or actor is None:
            return []
        powers = set(self.forms.my_powers(actor))
        return [u for u in units.units.values() if u.where == TRAY and u.power in powers]

    def area_of(self, unit_id: str) -> tuple[str, str]:
        """(area id, area name) of a unit; the whole tray when the scenario has no areas."""
        oob = self._scenario_data()
        if oob is not None:
            data = oob.scenario_data()
            found = data.unit(unit_id)
            if found is not None and found.area in data.areas:
                return found.area, data.areas[found.area].name
        return "tray", "Setup tray"

    def areas(self) -> list[tuple[str, str, int]]:
        """(id, name, units waiting) for each area still holding units, in the tray's order."""
        seen: dict[str, list] = {}
        for unit in self.tray_units():
            area, name = self.area_of(unit.id)
            seen.setdefault(area, [name, 0])[1] += 1
        return [(area, name, n) for area, (name, n) in seen.items()]

    def area_hexes(self, area: str | None) -> list:
        oob = self._scenario_data()
        if area is None or oob is None or area == "tray":
            return []
        try:
            return sorted(oob.area_hexes(area))
        except (KeyError, AttributeError):
            return []

    def listed_units(self) -> list:
        return [u for u in self.tray_units() if self.area is None or self.area_of(u.id)[0] == self.area]

    def label(self, unit) -> str:
        from .counters import factor_text

        state = "In Stack" if unit.id in self.in_stack else "Ready"
        return f"{state:9} {unit.name or unit.id} ({unit.type} {factor_text(unit)})"

    # ------------------------------------------------------------------ the form
    def refresh(self) -> None:
        if not self.active():
            if self.form is not None:
                self.gui.close(self.form)
                self.form = None
            return
        waiting = {u.id for u in self.tray_units()}
        self.in_stack = [u for u in self.in_stack if u in waiting]
        if self.area is not None and all(a != self.area for a, _, _ in self.areas()):
            self.area = None
        k = self.game.state.kernel
        key = (k.seq, self.area, tuple(self.in_stack), self.forms.status[0])
        if key == self._built_for and self.form is not None:
            return
        self._built_for = key
        self.build()

    def build(self) -> None:
        if self.form is None:
            self.form = FormWindow(self.gui, self.forms.form_rect("setup_tray"), "Setup Tray",
                                   object_id="#setup_tray")
        form = self.form
        form.clear()
        manager = self.gui.manager
        inner = form.get_container().rect
        w, h = inner.width, inner.height
        left = max(160, w * 2 // 5)
        areas = self.areas()
        total = sum(n for _, _, n in areas)
        area_items = [(f"{ALL_AREAS} ({total})", "*")] + [(f"{name} ({n})", area) for area, name, n in areas]
        area_list = UISelectionList(pygame.Rect(2, 2, left - 6, h - 40), area_items, manager, container=form,
                                    default_selection=next((i for i in area_items if i[1] == (self.area or "*")), None))
        form.area_list = area_list
        self.gui.on(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, area_list,
                    lambda _t: self.choose_area(self.forms._id(area_list.get_single_selection(include_object_id=True))))
        units = self.listed_units()
        unit_items = [(self.label(u), u.id) for u in units]
        unit_list = UISelectionList(pygame.Rect(left, 2, w - left - 2, h - 40), unit_items, manager, container=form)
        form.unit_list = unit_list
        self.gui.on(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, unit_list,
                    lambda _t: self.toggle(self.forms._id(unit_list.get_single_selection(include_object_id=True))))
        form.button((2, h - 34, 120, 30), "Restore Setup", self.restore_setup,
                    tip="every unit still in the tray to its saved default position")
        form.button((126, h - 34, 90, 30), "All Ready", self.all_ready)
        hand = f"In hand: {len(self.in_stack)} unit(s), click a hex to place them" if self.in_stack else \
            f"{total} unit(s) to place: click units to pick them up"
        status = self.forms.status[0] if self.forms.status[1] == self.forms_red() else ""
        text = UITextBox(hand + (f"<br><font color='#ff8060'>{status}</font>" if status else ""),
                         pygame.Rect(220, h - 38, w - 222, 38), manager, container=form)
        form.hand_text = hand

    @staticmethod
    def forms_red():
        from .playforms import RED

        return RED

    # ------------------------------------------------------------------ actions
    def choose_area(self, area: str | None) -> None:
        self.area = None if area in (None, "*") else area
        hexes = self.area_hexes(self.area)
        if hexes and self.forms.window.primary is not None:
            # centre on the area: the hex nearest its mean
            mean = (sum(c for c, _ in hexes) / len(hexes), sum(r for _, r in hexes) / len(hexes))
            centre = min(hexes, key=lambda h: (h[0] - mean[0]) ** 2 + (h[1] - mean[1]) ** 2)
            self.forms.window.primary.center_on(centre)
        self._built_for = None

    def toggle(self, unit_id: str | None) -> None:
        """Seeds: a click moves a unit Ready -> In Stack, and back."""
        if unit_id is None:
            return
        if unit_id in self.in_stack:
            self.in_stack.remove(unit_id)
        else:
            self.in_stack.append(unit_id)
        self._built_for = None

    def all_ready(self) -> None:
        self.in_stack = []
        self._built_for = None

    def restore_setup(self) -> None:
        if self.forms.submit({"type": "RestoreSetup", "actor": self.forms.actor()}):
            self.in_stack = []
        self._built_for = None

    def map_click(self, hex_) -> bool:
        """Place the units in hand on ``hex_``; True when the click was used."""
        if not self.in_stack or hex_ is None:
            return False
        units = self.forms.units()
        for unit_id in list(self.in_stack):
            power = units.units[unit_id].power if units is not None and unit_id in units.units else self.forms.actor()
            if not self.forms.submit({"type": "PlaceUnit", "actor": power, "unit": unit_id, "hex": list(hex_)}):
                break  # the rule's reason is in the status line
            self.in_stack.remove(unit_id)
        self._built_for = None
        return True
