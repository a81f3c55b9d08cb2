"""A pygame_gui selection list given new rows in place.

Building a ``UISelectionList`` costs ~2.5 ms per visible row (a button each) plus its scroll
bar, and setting a row button's text ~1 ms.  After a move the Play form's list of units left
is the same list less one unit: its rows move up.  ``refill`` keeps the list and its scroll
bar, gives each visible row the button that already shows its text (moved to its place),
sets the text of a leftover button only for a row no button shows, and creates a button only
when none is left over.  The list is back at its top, as a new one would be.

Written against pygame_gui 0.6's ``UISelectionList`` (its ``item_list`` of dicts, each row's
``button_element``); ``refill`` returns False, and the caller builds a new list, when the
list is not in a shape it knows.
"""

from __future__ import annotations

import pygame
from pygame_gui.core import ObjectID
from pygame_gui.elements import UIButton, UISelectionList


def refill(lst: UISelectionList, items: list[tuple[str, str]], selected: list | None = None) -> bool:
    """Give ``lst`` the rows ``items`` ((text, object id) pairs), the rows ``selected``
    chosen; False (``lst`` untouched) when it cannot be done in place."""
    outer, inner = lst.list_and_scroll_bar_container, lst.item_list_container
    if outer is None or inner is None or not lst.alive():
        return False
    row_h = lst.list_item_height
    visible_h = int(outer.relative_rect.height)
    total = row_h * len(items)
    if (total > visible_h) != (lst.scroll_bar is not None):
        return False  # a scroll bar to add or remove: the list's width changes, build anew
    chosen = set(selected or [])
    shown: dict[str, list[UIButton]] = {}
    for item in lst.item_list:
        button = item["button_element"]
        if button is not None:
            shown.setdefault(button.text, []).append(button)
    rows = []
    for index, (text, object_id) in enumerate(items):
        rows.append({"text": text, "button_element": None, "selected": (text, object_id) in chosen,
                     "object_id": object_id, "height": index * row_h})
    # the rows a new list would show: those starting within the visible height (pygame_gui's rule)
    visible = [row for row in rows if row["height"] <= inner.relative_rect.height]
    for row in visible:
        same = shown.get(row["text"])
        if same:
            row["button_element"] = same.pop()
    leftover = [b for buttons in shown.values() for b in buttons]
    for row in visible:
        button = row["button_element"]
        if button is None and leftover:
            button = row["button_element"] = leftover.pop()
            button.set_text(row["text"])
        elif button is None:
            button = row["button_element"] = _row_button(lst, row)
        if button.relative_rect.topleft != (0, row["height"]):
            button.set_relative_position((0, row["height"]))
        if row["selected"] != button.is_selected:
            button.select() if row["selected"] else button.unselect()
    for button in leftover:
        button.kill()
    lst._raw_item_list = list(items)
    lst.item_list[:] = rows
    lst.total_height_of_list = total
    lst.lowest_list_pos = total - visible_h
    if lst.scroll_bar is not None:
        lst.scroll_bar.reset_scroll_position()
        lst.scroll_bar.set_visible_percentage(visible_h / max(total, 1))
        lst.scroll_bar.start_percentage = 0
    return True


def _row_button(lst: UISelectionList, row: dict) -> UIButton:
    """A row's button, made as pygame_gui makes it."""
    inner = lst.item_list_container
    button = UIButton(pygame.Rect(0, row["height"], inner.relative_rect.width, lst.list_item_height), row["text"],
                      lst.ui_manager, parent_element=lst, container=inner,
                      object_id=ObjectID(object_id=row["object_id"], class_id="@selection_list_item"),
                      allow_double_clicks=lst.allow_double_clicks,
                      anchors={"left": "left", "right": "right", "top": "top", "bottom": "top"})
    lst.join_focus_sets(button)
    return button


# A list's frame and scroll bar as pygame_gui 0.6's default theme draws them (measured: a list
# 378 px wide has rows 372 px wide, 352 px with its scroll bar); a row's text keeps a margin
LIST_FRAME, LIST_SCROLLBAR, ROW_MARGIN = 6, 20, 10
ELLIPSIS = "…"


def row_room(width: int, height: int, rows: int, row_h: int = 20) -> int:
    """The pixels a row's text has in a list ``width`` x ``height`` of ``rows`` rows."""
    scrolls = rows * row_h > height - LIST_FRAME
    return width - LIST_FRAME - (LIST_SCROLLBAR if scrolls else 0) - ROW_MARGIN


_fitted: dict = {}


def fit_row(text: str, font, room: int) -> str:
    """``text`` cut to ``room`` pixels, ending with an ellipsis when cut (issue 11: a row wider
    than its list was cut without a mark); remembered, the same rows come back at each click."""
    key = (text, room, id(font))
    shown = _fitted.get(key)
    if shown is None:
        if len(_fitted) > 8000:
            _fitted.clear()
        shown = _fitted[key] = text if font.size(text)[0] <= room else _cut(text, font, room)
    return shown


def _cut(text: str, font, room: int) -> str:
    low, high = 0, len(text)  # the longest beginning that fits with the ellipsis: text[:low]
    while low < high:
        mid = (low + high + 1) // 2
        if font.size(text[:mid].rstrip() + ELLIPSIS)[0] <= room:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + ELLIPSIS


class TippedSelectionList(UISelectionList):
    """A selection list whose rows cut by ``fit_row`` show the whole text as their tip.  ``tips``
    (shown text -> whole text) is set by the list's builder; pygame_gui makes a row's button
    when the row scrolls into view and ``refill`` gives buttons new texts, so each frame sets
    the tip of the buttons shown (a few rows: cheap)."""

    tips: dict = {}

    def update(self, time_delta: float) -> None:
        super().update(time_delta)
        tips = self.tips
        for item in self.item_list:
            button = item["button_element"]
            if button is not None:
                want = tips.get(item["text"])
                if button.tool_tip_text != want:
                    button.tool_tip_text = want
