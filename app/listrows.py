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
