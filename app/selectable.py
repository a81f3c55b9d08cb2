"""The Selectable Units form (seeds, "Selectable Units"): the units that may act now.

They are the unit options of the command being filled in (a move's units, an attack's
attackers), as the game offers them at this position: a unit that has moved this impulse is
not offered, and is offered again next impulse.  Choosing one is the same as clicking it on
the map."""

from __future__ import annotations

import re

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIImage, UIScrollingContainer

from .commandfill import same
from .counters import counter_picture
from .forms import FormWindow
from .wording import in_words, power_name

ROW_H = 44  # a counter picture (40 px, its factors readable) and the unit's label beside it
PICTURE = 40
# rows farther than this from the view are hidden: pygame_gui hands every event and hover check
# to each visible widget of the window, in view or not (~50 rows of Barbarossa's units, each a
# picture and a button, cost ~1 ms an event); a margin of rows stays shown for the wheel's next turn
SHOWN_MARGIN_ROWS = 3
TRAILING_DETAIL = re.compile(r" \([^()]*\)$")  # "(arm, 201,49)": the counter beside it shows the type


def row_text(label: str, button, owners: tuple[str, ...] = ()) -> str:
    """The unit's label as its row ``button`` shows it (the whole label is the row's tip). When
    it does not fit: without the owner's name its counter's colour gives ("Japan "), without its
    trailing details the counter shows ("(arm, 201,49)"), else cut in the middle so that what
    tells units apart, often at the end ("convoy 3"), stays."""
    room = button.rect.width - 8
    fits = (lambda text: button.font.size(text)[0] <= room) if getattr(button, "font", None) else \
        (lambda text: len(text) * 8 <= room)
    if fits(label):
        return label
    short = next((label[len(o) + 1:] for o in owners if label.startswith(o + " ")), label)
    short = TRAILING_DETAIL.sub("", short) if not fits(short) else short
    if fits(short):
        return short
    words = short.split()
    # a number at the end tells units apart ("convoy 3", "Division 12"): kept whole after the cut
    tail = " ".join(words[-2:]) if len(words) > 2 and any(ch.isdigit() for ch in words[-1]) else ""
    head = short[:len(short) - len(tail)].rstrip()
    while head and not fits(f"{head}…{tail}"):
        head = head[:-1].rstrip()
    return f"{head}…{tail}" if head else tail


class SelectableUnits:
    def __init__(self, forms):
        self.forms = forms
        self.gui = forms.gui
        self.form: FormWindow | None = None
        self.unit_ids: list = []
        self._built_for = None
        self.rows: dict | None = None  # unit id -> (counter picture, button), while the form shows them
        self.rows_for: str | None = None  # the field they were built for
        self.box = None
        self._pending: dict = {}  # unit id -> the y its row moves to once scrolled into view
        self._shown_for = None  # the view the rows near it were shown for (the others hidden)
        self._fitted: dict = {}  # (label, row width) -> the text its row shows (fitted)
        self._worded: dict = {}  # a rule's label -> in words

    def unit_field(self):
        """The first unit field of the command being filled in (its options are the units)."""
        fill = self.forms.fill
        if fill is None or self.forms.hidden():
            return None
        return next((f for f in fill.fields() if f.kind in ("unit", "units")), None)

    def refresh(self) -> None:
        if self._pending:
            self._move_rows_in_view()
        if self.rows is not None and self.box is not None and self.box.alive() and self._view() != self._shown_for:
            self._show_rows_near_view()
        field = self.unit_field()
        if field is None:
            if self.form is not None:
                self.gui.close(self.form)
                self.form = None
                self.rows = None
            self._built_for = None
            return
        fill = self.forms.fill
        key = (self.forms.decisions.position(), fill.type, fill.actor, repr(fill.values.get(field.name)))
        if key == self._built_for and self.form is not None:
            return
        self._built_for = key
        self.build(field)

    def fitted(self, text: str, button) -> str:
        """``row_text`` remembered by label and row width: measuring a label's words in the
        font for every row at every rebuild cost ~4 ms a click."""
        key = (text, button.rect.width)
        shown = self._fitted.get(key)
        if shown is None:
            if len(self._fitted) > 4000:
                self._fitted.clear()
            shown = self._fitted[key] = row_text(text, button, self.owners())
        return shown

    def worded(self, label: str) -> str:
        """``in_words`` of a unit's label, remembered (the same labels come back at every click)."""
        shown = self._worded.get(label)
        if shown is None:
            if len(self._worded) > 4000:
                self._worded.clear()
            shown = self._worded[label] = in_words(self.forms.game, label)
        return shown

    def owners(self) -> tuple[str, ...]:
        """The powers' names as the labels begin with them ("Japan China Sea convoy 1")."""
        return tuple(power_name(p) for p in self.forms.game.state.kernel.powers())

    def chosen(self, field, value) -> bool:
        now = self.forms.fill.values.get(field.name)
        if field.kind == "units":
            return any(same(value, v) for v in now or [])
        return same(value, now)

    def build(self, field) -> None:
        """One row per offered unit: its counter (app/counters.py) and its label, a button;
        the chosen ones marked.  When only some units left the list (one moved) or a mark
        changed, the rows are kept and moved up: building a row costs ~5 ms."""
        options = field.all_options()
        texts = {o.value: ("> " if self.chosen(field, o.value) else "") + self.worded(str(o.label or o.value))
                 for o in options
                 if isinstance(o.value, str)}
        ids = [o.value for o in options]
        if self.form is not None and self.rows is not None and self.rows_for == field.name \
                and len(texts) == len(ids) and all(v in self.rows for v in ids):
            self.update_rows(ids, texts)
            return
        if self.form is None:
            self.form = FormWindow(self.gui, self.forms.form_rect("selectable"), "Selectable units",
                                   object_id="#selectable_units")
        form = self.form
        form.clear()
        self._pending = {}
        self.unit_ids = ids
        inner = form.get_container().rect
        box = UIScrollingContainer(pygame.Rect(0, 0, inner.width, inner.height), self.gui.manager, container=form)
        box.set_scrollable_area_dimensions((inner.width - 20, ROW_H * len(options) + 4))
        units = self.forms.window.model.units()
        self.rows, self.rows_for, self.box = {}, field.name, box
        for i, option in enumerate(options):
            y = 2 + ROW_H * i
            unit = units.units.get(option.value) if units is not None and isinstance(option.value, str) else None
            image = UIImage(pygame.Rect(2, y, PICTURE, PICTURE), counter_picture(unit, PICTURE), self.gui.manager,
                            container=box) if unit is not None else None
            text = texts.get(option.value, str(option.label or option.value))
            width = inner.width - PICTURE - 30
            button = UIButton(pygame.Rect(PICTURE + 6, y + 4, width, PICTURE - 8), text,
                              self.gui.manager, container=box, object_id="#selectable_unit", tool_tip_text=text)
            if self.fitted(text, button) != text:
                button.set_text(self.fitted(text, button))
            button.unit_id = option.value
            form.owned.append(button)
            self.gui.on(pygame_gui.UI_BUTTON_PRESSED, button,
                        lambda _e=None, v=option.value, name=field.name: self.pick(name, v))
            if isinstance(option.value, str):
                self.rows[option.value] = (image, button)
            else:
                self.rows = None  # not a unit id: rebuilt each time
        form.unit_rows = [self.rows[v][1] for v in ids] if self.rows is not None else []
        form.unit_ids = self.unit_ids
        self._show_rows_near_view()

    def update_rows(self, ids: list, texts: dict) -> None:
        """Drop the rows of units no longer offered, move the others up, re-mark."""
        form = self.form
        for gone in [v for v in self.rows if v not in texts]:
            self._pending.pop(gone, None)
            image, button = self.rows.pop(gone)
            self.gui.forget(button)
            form.owned.remove(button)
            button.kill()
            if image is not None:
                image.kill()
        top, bottom = self._view()
        for i, unit_id in enumerate(ids):
            image, button = self.rows[unit_id]
            y = 2 + ROW_H * i
            now = button.relative_rect.y - 4
            if now != y:
                # moving a row costs ~0.1 ms (pygame_gui recomputes its rectangles): rows out of
                # view, before and after, move when scrolled to (_move_rows_in_view)
                if top - ROW_H <= y <= bottom or top - ROW_H <= now <= bottom:
                    self._move_row(unit_id, y)
                else:
                    self._pending[unit_id] = y
            text = self.fitted(texts[unit_id], button)
            if button.text != text:
                button.set_text(text)
                button.tool_tip_text = texts[unit_id]
        if ROW_H * len(ids) + 4 > self.box.get_container().rect.height:
            # only to grow: resizing rebuilds the scroll bars (~10 ms); a shorter list keeps blank room below
            self.box.set_scrollable_area_dimensions((self.box.get_container().rect.width, ROW_H * len(ids) + 4))
        self.unit_ids = ids
        form.unit_rows = [self.rows[v][1] for v in ids]
        form.unit_ids = ids
        self._show_rows_near_view()

    def _view(self) -> tuple[float, float]:
        """The rows' y range in view in the scrolling box."""
        box = self.box
        bar = box.vert_scroll_bar
        height = box.scrollable_container.rect.height if bar is not None else 0
        top = bar.start_percentage * height if bar is not None else 0.0
        return top, top + box.rect.height

    def _show_rows_near_view(self) -> None:
        """Rows within SHOWN_MARGIN_ROWS of the view shown, the others hidden."""
        if self.rows is None or self.box is None:
            return
        view = self._view()
        self._shown_for = view
        top, bottom = view[0] - SHOWN_MARGIN_ROWS * ROW_H, view[1] + SHOWN_MARGIN_ROWS * ROW_H
        for unit_id, (image, button) in self.rows.items():
            y = self._pending.get(unit_id, button.relative_rect.y - 4)
            near = top <= y <= bottom
            for widget in (image, button):
                if widget is not None and widget.visible != near:
                    widget.show() if near else widget.hide()

    def _move_row(self, unit_id, y: int) -> None:
        self._pending.pop(unit_id, None)
        image, button = self.rows[unit_id]
        if image is not None and image.relative_rect.y != y:
            image.set_relative_position((2, y))
        if button.relative_rect.y != y + 4:
            button.set_relative_position((PICTURE + 6, y + 4))

    def _move_rows_in_view(self) -> None:
        if self.box is None or not self.box.alive() or self.rows is None:
            self._pending = {}
            return
        top, bottom = self._view()
        for unit_id, y in list(self._pending.items()):
            if top - ROW_H <= y <= bottom:
                self._move_row(unit_id, y)

    def pick(self, field_name: str, unit_id) -> None:
        """As a click on the unit on the map: choose it, and centre the map on it (issue 11
        item 6, "the map follows the action")."""
        self.forms.choose_unit(field_name, unit_id)
        at = self.forms.map.unit_hex(unit_id)
        window = self.forms.window
        if at is not None and window.primary is not None:
            window.primary.center_on(at)
