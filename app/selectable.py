"""The Selectable Units form (seeds, "Selectable Units"): the units that may act now.

They are the unit options of the command being filled in (a move's units, an attack's
attackers), as the game offers them at this position: a unit that has moved this impulse is
not offered, and is offered again next impulse.  Choosing one is the same as clicking it on
the map."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIImage, UIScrollingContainer

from .commandfill import same
from .counters import counter_picture
from .forms import FormWindow

ROW_H = 44  # a counter picture (40 px, its factors readable) and the unit's label beside it
PICTURE = 40


class SelectableUnits:
    def __init__(self, forms):
        self.forms = forms
        self.gui = forms.gui
        self.form: FormWindow | None = None
        self.unit_ids: list = []
        self._built_for = None

    def unit_field(self):
        """The first unit field of the command being filled in (its options are the units)."""
        fill = self.forms.fill
        if fill is None or self.forms.hidden():
            return None
        return next((f for f in fill.fields() if f.kind in ("unit", "units")), None)

    def refresh(self) -> None:
        field = self.unit_field()
        if field is None:
            if self.form is not None:
                self.gui.close(self.form)
                self.form = None
            self._built_for = None
            return
        fill = self.forms.fill
        key = (self.forms.decisions.position(), fill.type, fill.actor, repr(fill.values.get(field.name)))
        if key == self._built_for and self.form is not None:
            return
        self._built_for = key
        self.build(field)

    def chosen(self, field, value) -> bool:
        now = self.forms.fill.values.get(field.name)
        if field.kind == "units":
            return any(same(value, v) for v in now or [])
        return same(value, now)

    def build(self, field) -> None:
        """One row per offered unit: its counter (app/counters.py) and its label, a button;
        the chosen ones marked."""
        if self.form is None:
            self.form = FormWindow(self.gui, self.forms.form_rect("selectable"), "Selectable units",
                                   object_id="#selectable_units")
        form = self.form
        form.clear()
        options = field.all_options()
        self.unit_ids = [o.value for o in options]
        inner = form.get_container().rect
        box = UIScrollingContainer(pygame.Rect(0, 0, inner.width, inner.height), self.gui.manager, container=form)
        box.set_scrollable_area_dimensions((inner.width - 20, ROW_H * len(options) + 4))
        units = self.forms.window.model.units()
        rows = []
        for i, option in enumerate(options):
            y = 2 + ROW_H * i
            unit = units.units.get(option.value) if units is not None and isinstance(option.value, str) else None
            if unit is not None:
                UIImage(pygame.Rect(2, y, PICTURE, PICTURE), counter_picture(unit, PICTURE), self.gui.manager,
                        container=box)
            marked = self.chosen(field, option.value)
            button = UIButton(pygame.Rect(PICTURE + 6, y + 4, inner.width - PICTURE - 30, PICTURE - 8),
                              ("> " if marked else "") + str(option.label or option.value), self.gui.manager,
                              container=box, object_id="#selectable_unit")
            button.unit_id = option.value
            form.owned.append(button)
            self.gui.on(pygame_gui.UI_BUTTON_PRESSED, button,
                        lambda _e=None, v=option.value: self.pick(field.name, v))
            rows.append(button)
        form.unit_rows = rows
        form.unit_ids = self.unit_ids

    def pick(self, field_name: str, unit_id) -> None:
        """As a click on the unit on the map: choose it, and centre the map on it (issue 11
        item 6, "the map follows the action")."""
        self.forms.choose_unit(field_name, unit_id)
        at = self.forms.map.unit_hex(unit_id)
        window = self.forms.window
        if at is not None and window.primary is not None:
            window.primary.center_on(at)
