"""The widgets of an offered command in the Play form, built from its fields.

- a command decided by one click (an action, a side, a combat table: ``one_click``) is a row
  of buttons, one per offered option, each submitting the command;
- a command with no fields is one button;
- any other command is filled in field by field (``CommandFill``): a field already chosen
  shows its value and a button to choose again; the field to fill shows its options as
  buttons (a few) or a list (many; units and hexes may also be clicked on the map); a
  ``units`` field is a list with several rows selectable; a number has - and + buttons.
  Once complete, the command's preview (what it would do) and its button appear.

A field a form cannot fill (a command whose rules offer no choices yet) is never shown as
one: the command is listed with a note instead.
"""

from __future__ import annotations

from typing import Callable

import pygame
import pygame_gui
from pygame_gui.elements import UITextEntryLine

from kernel.choices import CommandChoice, Field

from .commandfill import SINGLE, CommandFill, one_click, title_of
from .forms import FormWindow, gui_text
from .listrows import fit_row, row_room
from .placewords import hex_words

BUTTONS_AT_MOST = 8  # more options than this: a list
ROW = 32
PREVIEW_H = 64  # the preview box's least height: the widgets below stay put while hovering


def fillable(choice: CommandChoice) -> bool:
    """Can a form fill this command in?  Not when its rules offer no choices (schema fields
    the form could only guess at), unless it has no field or only yes/no ones."""
    if choice.source == "rules":
        return True
    return all(f.kind == "bool" for f in choice.fields)


def preview_text(preview: dict | None, words: Callable[[str], str] = str) -> str:
    """What a command would do, as the preview tells it (HTML for a text box); ``words``: a
    rule's reason as a player reads it (app.wording)."""
    if not preview:
        return ""
    if not preview.get("legal", True):
        return f"<font color='#ff8060'>{gui_text(words(str(preview.get('reason', 'not allowed'))))}</font>"
    parts = []
    if "odds" in preview or "odds_text" in preview:
        parts.append(f"<b>odds {preview.get('odds_text') or preview.get('odds')}</b>")
    if "path" in preview:
        n = len(preview["path"])
        parts.append(f"{n} hex{'es' if n != 1 else ''}")
    for key, value in preview.items():
        if key in ("legal", "odds", "odds_text", "path", "unit", "to") or value in (None, "", [], {}):
            continue
        if isinstance(value, dict):
            signed = any(word in key for word in ("drm", "shift", "modifier"))  # modifiers read +1, -2
            value = ", ".join(f"{k} {v:+g}" if signed and isinstance(v, (int, float)) and not isinstance(v, bool)
                              else f"{k} {v}" for k, v in value.items())
        elif isinstance(value, list):
            value = ", ".join(str(v) for v in value[:8]) + ("…" if len(value) > 8 else "")
        elif isinstance(value, bool):
            value = "yes" if value else "no"
        parts.append(f"{key.replace('_', ' ')}: {value}")
    return "; ".join(parts)


def refused(preview: dict | None) -> bool:
    return bool(preview) and not preview.get("legal", True)


def hover_text(hovered: tuple, preview: dict, words: Callable[[str], str] = str) -> str:
    """The preview of the command with the hovered hex, as its box shows it (the hex by its
    place: app/placewords.py)."""
    return f"{hex_words(tuple(hovered))}: " + preview_text(preview, words)


def button_text(label: str, width: int) -> str:
    """A label short enough for a button ``width`` pixels wide (the whole label is its tip):
    the part before its first colon, else its beginning."""
    fits = max(8, width // 8)
    if len(label) <= fits:
        return label
    head = label.split(": ", 1)[0]
    return head if len(head) <= fits else label[:fits - 1] + "…"


def field_title(f: Field) -> str:
    return f.label or f.name.replace("_", " ")


class FieldWidgets:
    """Builds a command's widgets into a form; callbacks go back to the Play form."""

    def __init__(self, form: FormWindow, width: int, submit: Callable[[dict], bool], changed: Callable[[], None]):
        self.form = form
        self.gui = form.gui
        self.width = width
        self.submit = submit
        self.changed = changed
        self.last_box = None
        self.hover_box = None  # the preview of the hovered hex, when the form shows one
        self.words: Callable[[str], str] = lambda text: text  # a rule's label as a player reads it (app.wording)
        self.show_on_map: Callable[[str, object], None] = lambda kind, value: None  # a hex or unit chosen here

    def label_of(self, option) -> str:
        return gui_text(self.words(option.label or str(option.value)))

    # ------------------------------------------------------------ one click
    def one_click(self, choice: CommandChoice, y: int) -> int:
        f = one_click(choice)
        title, what = title_of(choice.type), field_title(f)
        y = self.title(f"<b>{title}</b>" + (f" ({what}):" if what.lower() not in title.lower() else ":"), y)
        options = f.all_options()
        per_row = 1 if any(len(o.label) > 14 for o in options) else 3
        w = (self.width - 4 * (per_row - 1)) // per_row
        for i, o in enumerate(options):
            label = self.label_of(o)
            b = self.form.button((4 + (i % per_row) * (w + 4), y + (i // per_row) * ROW, w, ROW - 4),
                                 button_text(label, w), lambda v=o.value: self.submit({**choice.base(), f.name: v}),
                                 tip=label)
            b.command = {**choice.base(), f.name: o.value}  # what a click submits (app/guidriver.py reads it)
        return y + ROW * ((len(options) + per_row - 1) // per_row)

    def title(self, html: str, y: int) -> int:
        """A line of text as tall as it needs (long rule labels wrap)."""
        box = self.form.text_box(gui_text(html), (4, y, self.width, -1), object_id="#field_title")
        return y + box.rect.height + 2

    def plain(self, choice: CommandChoice, y: int) -> int:
        b = self.form.button((4, y, self.width, ROW - 2), title_of(choice.type), lambda: self.submit(choice.base()))
        b.command = choice.base()
        return y + ROW

    def not_fillable(self, choice: CommandChoice, y: int) -> int:
        self.form.text_box(f"{title_of(choice.type)}: its rules offer no choices yet", (4, y, self.width, 34))
        return y + 36

    # ------------------------------------------------------------ field by field
    def fill(self, fill: CommandFill, preview: dict | None, y: int, hovered: tuple | None = None) -> int:
        """``preview``: of the complete command, or (``hovered``) of the hex under the cursor."""
        path, pending = fill.walk()
        self.form.label((4, y, self.width, 22), f"{title_of(fill.type)}:")
        y += 24
        for f in path:
            if f.kind == "units":
                y = self.units_list(fill, f, y)
            elif f.kind == "number":
                y = self.number(fill, f, y)
            elif f.kind == "text":
                y = self.text(fill, f, y)
            elif f is pending:
                if hovered is not None and preview:
                    y = self.preview_box(hover_text(hovered, preview, self.words), preview, y)
                    self.hover_box = self.last_box
                y = self.options(fill, f, y)
            else:
                y = self.chosen(fill, f, y)
        if pending is None:
            text = preview_text(preview, self.words)
            if text:
                y = self.preview_box(text, preview, y)
            b = self.form.button((4, y, self.width, ROW - 2), title_of(fill.type), lambda: self.submit(fill.command()))
            b.command = fill.command()
            y += ROW
        return y

    def preview_box(self, text: str, preview: dict, y: int) -> int:
        # a refusal as tall as its text (a rule's reason of two lines or more is read whole); what
        # a command would do in PREVIEW_H, scrolled if longer (the command's button stays in view)
        box = self.form.text_box(text, (4, y, self.width, -1 if refused(preview) else PREVIEW_H), object_id="#preview")
        box.preview = preview
        self.last_box = box
        return y + max(PREVIEW_H, box.rect.height) + 2

    def chosen(self, fill: CommandFill, f: Field, y: int) -> int:
        # a plate (app/textplate.py): it changes with every unit chosen
        box = self.form.plate(gui_text(f"{field_title(f)}: <b>{self.words(fill.label(f))}</b>"), (4, y, self.width - 66, -1))
        b = self.form.button((self.width - 60, y + 16, 64, 28), "change", lambda: self._set(fill, f.name, CLEAR),
                             role="change")
        b.clears = f.name
        return y + max(64, box.rect.height) + 2

    def options(self, fill: CommandFill, f: Field, y: int) -> int:
        options = f.all_options()
        on_map = " (or click the map)" if f.kind in ("unit", "hex") else ""
        y = self.title(f"{field_title(f)}{on_map}:", y)
        if len(options) <= BUTTONS_AT_MOST:
            for o in options:
                label = self.label_of(o)
                b = self.form.button((4, y, self.width, ROW - 4), button_text(label, self.width),
                                     lambda v=o.value: self._set(fill, f.name, v), tip=label, role="option")
                b.sets = (f.name, o.value)
                y += ROW
            return y
        if f.kind == "option":  # places by name (143 sea areas and ports to sail to): a player looks them up A-Z
            options = sorted(options, key=lambda o: self.label_of(o).lower())
        height = min(180, 20 * len(options) + 6)
        items, tips = self.list_rows(options, height)
        lst = self.form.selection_list((4, y, self.width, height), items)
        lst.options, lst.field_name, lst.tips = options, f.name, tips
        self.form.owned.append(lst)

        def picked(_text) -> None:
            chosen = lst.get_single_selection(include_object_id=True)
            if chosen is not None:
                self._set(fill, f.name, options[int(chosen[1][2:])].value)

        self.gui.on(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, lst, picked)
        return y + lst.rect.height + 4

    def list_rows(self, options: list, height: int) -> tuple[list, dict]:
        """A list's rows (text, object id), each cut to the row's width with an ellipsis, and
        the tips of the cut ones (shown text -> whole label)."""
        font = self.gui.manager.get_theme().get_font(["@selection_list_item"])
        room = row_room(self.width, height, len(options))
        items, tips = [], {}
        for i, o in enumerate(options):
            label = self.label_of(o)
            shown = fit_row(label, font, room)
            if shown != label:
                tips[shown] = label
            items.append((shown, f"#o{i}"))
        return items, tips

    def units_list(self, fill: CommandFill, f: Field, y: int) -> int:
        options = f.all_options()
        most = "" if f.max is None else f" at most {f.max}"
        y = self.title(f"{field_title(f)} (at least {f.min or 0}{most}; or click the map):", y)
        chosen = fill.values.get(f.name) or []
        height = min(150, 20 * max(1, len(options)) + 6)
        items, tips = self.list_rows(options, height)
        selected = [items[i] for i, o in enumerate(options) if o.value in chosen]
        lst = self.form.selection_list((4, y, self.width, height), items, multi=True, selected=selected)
        lst.options, lst.field_name, lst.tips = options, f.name, tips
        self.form.owned.append(lst)

        def picked(_text) -> None:
            values = [options[int(oid[2:])].value for _, oid in lst.get_multi_selection(include_object_id=True)]
            if fill.set(f.name, values):
                self.changed()

        self.gui.on(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, lst, picked)
        self.gui.on(pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION, lst, picked)
        return y + lst.rect.height + 4

    def number(self, fill: CommandFill, f: Field, y: int) -> int:
        value = fill.values.get(f.name, f.min)
        self.form.label((4, y, self.width - 70, 26), f"{field_title(f)}: {value} ({f.min}..{f.max})")
        less = self.form.button((self.width - 64, y, 32, 26), "-", lambda: self._set(fill, f.name, value - 1))
        more = self.form.button((self.width - 30, y, 32, 26), "+", lambda: self._set(fill, f.name, value + 1))
        less.steps, more.steps = (f.name, -1), (f.name, 1)
        return y + 30

    def text(self, fill: CommandFill, f: Field, y: int) -> int:
        self.form.label((4, y, self.width, 22), f"{field_title(f)}:")
        entry = UITextEntryLine(pygame.Rect(4, y + 24, self.width, 30), self.gui.manager, container=self.form.container,
                                initial_text=str(fill.values.get(f.name, "")))
        self.form.owned.append(entry)
        self.gui.on(pygame_gui.UI_TEXT_ENTRY_FINISHED, entry, lambda text: self._set(fill, f.name, text or ""))
        return y + 58

    def _set(self, fill: CommandFill, name: str, value) -> None:
        # CLEAR (the "change" button) forgets the field; None may be an offered value (a naval
        # move into a port: its section is None)
        if value is CLEAR:
            fill.clear(name)
        elif not fill.set(name, value):
            return
        self.changed()
        f = fill.field(name)
        if value is not CLEAR and f is not None and f.kind in ("hex", "unit"):
            self.show_on_map(f.kind, value)  # chosen on the form: the map goes there if it is not in view
        if value is not CLEAR and f is not None and f.kind in SINGLE and fill.complete() and one_step(fill):
            self.submit(fill.command())


CLEAR = object()  # _set's value that forgets a field


def one_step(fill: CommandFill) -> bool:
    """A command completed by choosing its last single value is submitted at once (a move's
    destination); one gathering several units waits for its button."""
    return all(f.kind in SINGLE for f in fill.fields())
