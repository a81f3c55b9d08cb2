"""The Setup Tray form (seeds, "Setup Tray"): the units waiting to be placed, by set-up area.

Everything it lists comes from the game: the units are the unit options of the offered
``PlaceUnit`` commands (those in the tray, and those placed this step, which may be placed
again), the hexes a unit may go to are that unit's hex options, and the set-up areas come
from the scenario through the front-end hook ``setup_areas`` (a scenario without areas has
its tray listed as one).

- The set-up areas list: "All areas" and each area holding units to place, with how many;
  choosing one lists only its units, centres the map on it and outlines its hexes.
- The units list: each unit is "Ready" or "In Stack".  A click moves a unit between the
  two (seeds: "Land and naval: Ready <-> In Stack"); the units In Stack are in hand, and the
  hexes the first of them may be placed in are outlined.
- A click on the map places every unit in hand there, one ``PlaceUnit`` command each; the
  first refusal stops and the rule's reason is shown.
- "Restore Setup" sends ``RestoreSetup`` when offered; "All Ready" empties the hand.
- At sea (seeds "Setup Tray", naval units placed at sea during setup; Ships in Flames 16.1.1):
  when the first unit in hand is offered ``PlaceUnitAtSea``, its sea boxes are listed under
  the areas ("At sea: Baltic Sea, section 1"); a click on a row, or on that section's box on
  the map (the sea boxes layer's click, app/navalclicks.py), sets every unit in hand up there,
  one ``PlaceUnitAtSea`` each.
"""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UISelectionList, UITextBox

from kernel.choices import CommandChoice, Option

from .commandfill import same
from .forms import FormWindow
from .uihooks import ask_game

ALL_AREAS = "All areas"
WHOLE_TRAY = ("tray", "Setup tray")
PLACE = "PlaceUnit"
AT_SEA = "PlaceUnitAtSea"
RESTORE = "RestoreSetup"
TRAY_COMMANDS = (PLACE, AT_SEA, RESTORE)  # the tray offers these; the Play form leaves them to it

UNIT_ROWS_THEME = {"#tray_units.button": {"misc": {"text_horiz_alignment": "left", "text_horiz_alignment_padding": "6"}}}


class SetupTray:
    def __init__(self, forms):
        self.forms = forms
        self.game = forms.game
        self.gui = forms.gui
        self.form: FormWindow | None = None
        self.area: str | None = None  # the area id the lists show; None: all
        self.in_stack: list[str] = []
        self._areas: dict[str, list[dict]] = {}  # power -> the scenario's set-up areas
        self._built_for = None

    # ------------------------------------------------------------------ what the game offers
    def place_choices(self) -> list[CommandChoice]:
        return [c for c in self.forms.decisions.offered(PLACE) if c.fields and c.fields[0].kind == "unit"]

    def active(self) -> bool:
        return not self.forms.hidden() and bool(self.place_choices())

    def offered_units(self) -> list[tuple[CommandChoice, Option]]:
        """(command, unit option) of every unit that may be placed now, in the tray's order."""
        return [(c, o) for c in self.place_choices() for o in c.fields[0].all_options()]

    def unit_option(self, unit_id: str) -> tuple[CommandChoice, Option] | None:
        return next(((c, o) for c, o in self.offered_units() if same(o.value, unit_id)), None)

    def scenario_areas(self, power: str) -> list[dict]:
        if power not in self._areas:
            self._areas[power] = ask_game(self.game, "setup_areas", state=self.game.state, power=power) or []
        return self._areas[power]

    def area_of(self, unit_id: str, power: str) -> tuple[str, str]:
        """(area id, area name) of a unit; the whole tray when the scenario has no areas."""
        for area in self.scenario_areas(power):
            if unit_id in area["units"]:
                return area["id"], area["name"]
        return WHOLE_TRAY

    def areas(self) -> list[tuple[str, str, int]]:
        """(id, name, units to place) for each area holding units, in the tray's order."""
        seen: dict[str, list] = {}
        for choice, option in self.offered_units():
            area, name = self.area_of(option.value, choice.actor)
            seen.setdefault(area, [name, 0])[1] += 1
        return [(area, name, n) for area, (name, n) in seen.items()]

    def listed_units(self) -> list[str]:
        return [o.value for c, o in self.offered_units()
                if self.area is None or self.area_of(o.value, c.actor)[0] == self.area]

    def label(self, unit_id: str) -> str:
        found = self.unit_option(unit_id)
        state = "In Stack" if unit_id in self.in_stack else "Ready"
        return f"{state:9} {self.forms.worded(found[1].label) if found and found[1].label else unit_id}"

    def area_hexes(self, area: str | None) -> list[tuple[int, int]]:
        for power in {c.actor for c in self.place_choices()}:
            for a in self.scenario_areas(power):
                if a["id"] == area:
                    return [tuple(h) for h in a["hexes"]]
        return []

    def outlined(self) -> list[tuple[int, int]]:
        """The hexes the first unit in hand may be placed in, else the chosen area's."""
        for unit_id in self.in_stack:
            found = self.unit_option(unit_id)
            if found is not None:
                return [tuple(o.value) for f in found[1].next_fields() if f.kind == "hex" for o in f.all_options()]
        return self.area_hexes(self.area)

    def sea_option(self, unit_id: str) -> tuple[CommandChoice, Option] | None:
        """(command, unit option) of ``PlaceUnitAtSea`` for ``unit_id``, when it is offered."""
        return next(((c, o) for c in self.forms.decisions.offered(AT_SEA) if c.fields
                     for o in c.fields[0].all_options() if same(o.value, unit_id)), None)

    def sea_places(self) -> list[Option]:
        """The sea boxes the first unit in hand may set up in (none: it sets up only in port)."""
        found = self.sea_option(self.in_stack[0]) if self.in_stack else None
        if found is None:
            return []
        return [o for f in found[1].next_fields() for o in f.all_options()]

    # ------------------------------------------------------------------ the form
    def refresh(self) -> None:
        if not self.active():
            if self.form is not None:
                self.gui.close(self.form)
                self.form = None
            return
        waiting = {o.value for _, o in self.offered_units()}
        self.in_stack = [u for u in self.in_stack if u in waiting]
        if self.area is not None and all(a != self.area for a, _, _ in self.areas()):
            self.area = None
        key = (self.forms.decisions.position(), self.area, tuple(self.in_stack), self.forms.status[0])
        if key == self._built_for and self.form is not None:
            return
        self._built_for = key
        self.build()

    def build(self) -> None:
        if self.form is None:
            self.form = FormWindow(self.gui, self.forms.form_rect("setup_tray"), "Setup Tray", object_id="#setup_tray")
        form = self.form
        form.clear()
        manager = self.gui.manager
        inner = form.get_container().rect
        w, h = inner.width, inner.height
        left = max(160, w * 2 // 5)
        areas = self.areas()
        total = sum(n for _, _, n in areas)
        area_items = [(f"{ALL_AREAS} ({total})", "#all")] + [(f"{name} ({n})", f"#a{i}") for i, (_, name, n) in
                                                              enumerate(areas)]
        area_ids = {"#all": None, **{f"#a{i}": area for i, (area, _, _) in enumerate(areas)}}
        current = next((item for item in area_items if area_ids[item[1]] == self.area), None)
        places = self.sea_places()
        areas_h = (h - 40) // 2 if places else h - 40  # the sea boxes of the unit in hand below
        area_list = UISelectionList(pygame.Rect(2, 2, left - 6, areas_h), area_items, manager, container=form,
                                    default_selection=current)
        form.sea_list = None
        if places:
            sea_list = UISelectionList(pygame.Rect(2, areas_h + 4, left - 6, h - 44 - areas_h),
                                       [(self.forms.worded(o.label) or str(o.value), f"#s{i}") for i, o in enumerate(places)],
                                       manager, container=form, object_id="#tray_seas")
            sea_list.places = places
            form.sea_list = sea_list

            def sea_row(_text) -> None:
                picked = sea_list.get_single_selection(include_object_id=True)
                if picked is not None:
                    self.place_at_sea(places[int(picked[1][2:])].value)

            self.gui.on(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, sea_list, sea_row)
        form.area_list = area_list
        self.gui.on(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, area_list,
                    lambda _t: self.choose_area(area_ids[area_list.get_single_selection(include_object_id=True)[1]]))
        units = self.listed_units()
        unit_items = [(self.label(u), f"#u{i}") for i, u in enumerate(units)]
        manager.get_theme().load_theme(UNIT_ROWS_THEME)  # "Ready" / "In Stack" in a column, the names after it
        unit_list = UISelectionList(pygame.Rect(left, 2, w - left - 2, h - 40), unit_items, manager, container=form,
                                    object_id="#tray_units")
        form.unit_list = unit_list

        def toggled(_text) -> None:
            picked = unit_list.get_single_selection(include_object_id=True)
            if picked is not None:
                self.toggle(units[int(picked[1][2:])])

        self.gui.on(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, unit_list, toggled)
        restore = next(iter(self.forms.decisions.offered(RESTORE)), None)
        button = form.button((2, h - 34, 120, 30), "Restore Setup", self.restore_setup,
                             tip="every unit still in the tray to its saved default position")
        if restore is None:
            button.disable()
        form.button((126, h - 34, 90, 30), "All Ready", self.all_ready)
        where = "a hex or a sea box" if places else "a hex"
        hand = f"In hand: {len(self.in_stack)} unit(s), click {where} to place them" if self.in_stack else \
            f"{total} unit(s) to place: click units to pick them up"
        status = self.forms.status[0] if self.forms.status_is_refusal() else ""
        UITextBox(hand + (f"<br><font color='#ff8060'>{status}</font>" if status else ""),
                  pygame.Rect(220, h - 38, w - 222, 38), manager, container=form)
        form.hand_text = hand

    # ------------------------------------------------------------------ actions
    def choose_area(self, area: str | None) -> None:
        self.area = area
        hexes = self.area_hexes(area)
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
        restore = next(iter(self.forms.decisions.offered(RESTORE)), None)
        if restore is not None and self.forms.submit(restore.base()):
            self.in_stack = []
        self._built_for = None

    def map_click(self, hex_) -> bool:
        """Place the units in hand on ``hex_``; True when the click was used."""
        if not self.in_stack or hex_ is None:
            return False
        for unit_id in list(self.in_stack):
            found = self.unit_option(unit_id)
            if found is None:
                break
            choice, option = found
            hex_field = next((f.name for f in option.next_fields() if f.kind == "hex"), "hex")
            command = {**choice.base(), choice.fields[0].name: unit_id, hex_field: list(hex_)}
            if not self.forms.submit(command):
                break  # the rule's reason is in the status line
            self.in_stack.remove(unit_id)
        self._built_for = None
        return True

    def place_at_sea(self, sea) -> bool:
        """Set every unit in hand up at sea in ``sea`` ("AREA:section"); True when some went."""
        placed = False
        for unit_id in list(self.in_stack):
            found = self.sea_option(unit_id)
            if found is None:
                break
            choice, option = found
            sea_field = next((f.name for f in option.next_fields()), "sea")
            if not self.forms.submit({**choice.base(), choice.fields[0].name: unit_id, sea_field: sea}):
                break  # the rule's reason is in the status line
            self.in_stack.remove(unit_id)
            placed = True
        self._built_for = None
        return placed

    def sea_click(self, values: list) -> bool:
        """A click on a sea box of the map (what it stands for: "AREA:section" first): the units
        in hand set up there; True when the click was used (a hand to place)."""
        if not self.in_stack:
            return False
        boxes = [v for v in values if isinstance(v, str) and ":" in v]
        if boxes:
            self.place_at_sea(boxes[0])
        return True
