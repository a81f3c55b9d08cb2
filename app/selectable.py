"""The Selectable Units form (seeds, "Selectable Units"): the units that may act now.

They are the unit options of the command being filled in (a move's units, an attack's
attackers), as the game offers them at this position: a unit that has moved this impulse is
not offered, and is offered again next impulse.  Choosing one is the same as clicking it on
the map."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UISelectionList

from .commandfill import same
from .forms import FormWindow, gui_text


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

    def build(self, field) -> None:
        if self.form is None:
            self.form = FormWindow(self.gui, self.forms.form_rect("selectable"), "Selectable units",
                                   object_id="#selectable_units")
        form = self.form
        form.clear()
        options = field.all_options()
        self.unit_ids = [o.value for o in options]
        chosen = self.forms.fill.values.get(field.name)
        items = [(gui_text(o.label or str(o.value)), f"#u{i}") for i, o in enumerate(options)]
        selected = next((items[i] for i, o in enumerate(options) if field.kind == "unit" and same(o.value, chosen)),
                        None)
        inner = form.get_container().rect
        lst = UISelectionList(pygame.Rect(2, 2, max(120, inner.width - 4), max(80, inner.height - 4)), items,
                              self.gui.manager, container=form, default_selection=selected)
        form.unit_list = lst
        form.unit_ids = self.unit_ids

        def picked(_text) -> None:
            found = lst.get_single_selection(include_object_id=True)
            if found is not None:
                self.forms.choose_unit(field.name, self.unit_ids[int(found[1][2:])])

        self.gui.on(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, lst, picked)
