"""A form's scrolling inside whose widgets are reused from one build to the next
(``FormBody``), split from app/forms.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIImage, UILabel, UISelectionList, UITextBox

from .listrows import TippedSelectionList, refill
from .textplate import plate_surface, text_plate

if TYPE_CHECKING:
    from .forms import FormWindow

AREA_STEP = 32  # pixels: the scrolling area's height is a multiple of this (fewer resizes)
# pixels added when the area grows within a step (a resize rebuilds the scroll bar, ~8 ms of a
# destination click; it grew by 32-128 px every few moves as the log and the status grew)
GROW_ROOM = 5 * AREA_STEP
EDGE_MARGIN = 4  # pixels kept between a widget shown whole and the scrolling view's edge (FormBody.keep_whole)
# pixels: less of a button than this at the view's edge is a sliver (hard to read or hit; under 4 px
# it takes no click at all), which ``FormBody.settle_scroll`` does not leave where the player scrolled
SLIVER = 12
SHELF_LISTS = 2  # lists a build did not ask for, kept hidden for a later one (the units left to move)
# option buttons a build did not ask for, kept hidden: the next unit's destinations take them with
# their new text (a new button costs ~1.5x a new text, and killing one costs too)
SHELF_OPTION_BUTTONS = 8
# buttons of these roles a build did not ask for, kept hidden too (how many): the chosen unit's
# "change" button, gone while the units are listed, back at every unit chosen
SHELF_BUTTONS = {"option": SHELF_OPTION_BUTTONS, "change": 1}
# a field's title ("unit (or click the map):", "to (or click the map):") a build did not ask for,
# kept hidden: the units left and a unit's destinations alternate at every click (~2 ms a new one)
SHELF_TITLES = 2

# What builders mark widgets with (read by app/guidriver.py and the tests: what a click
# submits, sets, clears...): a reused widget loses them, its builder marks it again.
MARKS = ("command", "sets", "clears", "steps", "fills", "finishes", "takes_screen", "preview", "status_text",
         "unit_id", "options", "field_name")


class FormBody:
    """The inside of a form whose widgets may be taller than it: they go in a scrolling
    area, so a widget below the form's bottom is scrolled to, never cut off.  Offers what
    the builders use of a ``FormWindow`` (``button``, ``label``, ``text_box``, ``picture``,
    ``owned``, ``container``).

    Creating a pygame_gui widget costs milliseconds (a text box's layout, a button's shape),
    and a rebuild after a click mostly shows the same widgets again: ``clear`` keeps the
    widgets aside, a builder asking for one with the same content and size gets it back (moved
    where it now goes, its callback and marks set afresh), and ``finish`` removes the ones
    not asked for again.  A list not asked for is hidden instead (the last ``SHELF_LISTS``
    of them): after a unit is chosen its list of units gives way to its destinations, and
    after the move it comes back less that unit, given its new rows in place."""

    SCROLLBAR = 20

    def __init__(self, form: FormWindow, scroll: float = 0.0):
        from pygame_gui.elements import UIScrollingContainer

        self.form, self.gui, self.owned = form, form.gui, form.owned
        inner = form.get_container().rect
        self.area = UIScrollingContainer(pygame.Rect(0, 0, inner.width, inner.height), self.gui.manager,
                                         container=form, allow_scroll_x=False)
        self.width = inner.width - self.SCROLLBAR
        self._scroll = scroll
        self._spare: dict[tuple, list] = {}  # widgets of the last build, by content, until asked for again
        self.reused = 0  # widgets given back by the last build (tests read it)
        self._area_size = None  # the scrolling area's size, as last set
        self._builds = 0  # builds finished (a list remembers the last one that showed it)
        self._rest = None  # the scroll where the view last came to rest (settle_scroll)
        self._last_frame_scroll = None  # the scroll seen by the last frame (settle_scroll)

    @property
    def container(self):
        return self.area

    def get_container(self):
        return self.area.get_container()

    # ------------------------------------------------------------ widgets, reused when the same
    def _again(self, key: tuple, rect: pygame.Rect):
        found = self._spare.get(key)
        if not found:
            return None
        widget = found.pop()
        for mark in MARKS:
            widget.__dict__.pop(mark, None)
        if widget.relative_rect.topleft != rect.topleft:
            widget.set_relative_position(rect.topleft)
        if not widget.visible:  # a list from the shelf
            widget.show()
        widget.shown_in = self._builds
        self.reused += 1
        return widget

    def _keep(self, widget, key: tuple):
        widget.reuse_key = key
        widget.shown_in = self._builds
        return widget

    def button(self, rect, text: str, callback: Callable, tip: str | None = None, role: str | None = None) -> UIButton:
        """A button; ``role`` (an option of a field): a spare button of the same role and size
        may be given the new text (half the cost of a new one: a unit's destinations)."""
        rect = pygame.Rect(rect)
        key = ("button", text, tip, rect.size)
        b = self._again(key, rect)
        if b is None and role is not None:
            other = next((k for k, spare in self._spare.items() if k[0] == "button" and k[3] == rect.size
                          and any(getattr(w, "role", None) == role for w in spare)), None)
            if other is not None:
                spare = self._spare[other]
                spare.append(spare.pop(next(i for i, w in enumerate(spare) if getattr(w, "role", None) == role)))
                b = self._again(other, rect)
                b.set_text(text)
                b.set_tooltip(tip)
                b.reuse_key = key
        if b is None:
            b = self._keep(UIButton(rect, text, self.gui.manager, container=self.area, tool_tip_text=tip), key)
            b.role = role
        if not b.is_enabled:
            b.enable()
        self.gui.on(pygame_gui.UI_BUTTON_PRESSED, b, callback)
        self.owned.append(b)
        return b

    def label(self, rect, text: str) -> UILabel:
        rect = pygame.Rect(rect)
        key = ("label", text, rect.size)
        found = self._again(key, rect)
        return found if found is not None else self._keep(UILabel(rect, text, self.gui.manager, container=self.area), key)

    def text_box(self, html: str, rect, object_id: str | None = None):
        """A text box; height -1: as tall as its text."""
        rect = pygame.Rect(rect)
        key = ("text", html, rect.size, object_id)
        found = self._again(key, rect)
        if found is None:  # a box of the same shape, its text set anew: half the cost of a new one
            other = next((k for k, spare in self._spare.items() if spare and k[0] == "text" and k[2:] == key[2:]), None)
            found = self._again(other, rect) if other is not None else None
            if found is not None:
                found.set_text(html)
                found.reuse_key = key
        return found if found is not None else self._keep(
            UITextBox(html, rect, self.gui.manager, container=self.area, object_id=object_id), key)

    def plate(self, html: str, rect) -> UIImage:
        """Text drawn by the window (app/textplate.py), ``rect``'s width, as tall as its
        text: for text that changes with every move, cheaper than a text box."""
        rect = pygame.Rect(rect)
        key = ("plate", html, rect.width)
        found = self._again(key, rect)
        if found is None:  # a spare plate of the same size given the new picture (cheaper than a new one)
            surface = plate_surface(self.gui.manager, html, rect.width)
            size = surface.get_size()
            other = next((k for k, spare in self._spare.items() if k[0] == "plate" and k[2] == rect.width
                          and any(w.relative_rect.size == size for w in spare)), None)
            if other is None:
                return self._keep(text_plate(self.gui.manager, html, rect, self.area, surface), key)
            spare = self._spare[other]
            spare.append(spare.pop(next(i for i, w in enumerate(spare) if w.relative_rect.size == size)))
            found = self._again(other, rect)
            found.set_image(surface)
            found.html_text, found.reuse_key = html, key
        return found

    def picture(self, rect, surface: pygame.Surface, what) -> UIImage:
        """A picture; ``what`` names it (the same ``what``, the same picture)."""
        rect = pygame.Rect(rect)
        key = ("image", what, rect.size)
        found = self._again(key, rect)
        return found if found is not None else self._keep(
            UIImage(rect, surface, self.gui.manager, container=self.area), key)

    def selection_list(self, rect, items: list, multi: bool = False, selected: list | None = None) -> UISelectionList:
        """A list of ``items`` (text, object id); ``selected``: the rows chosen in it.  Given
        back only with the same rows and the same rows chosen (the player may have chosen
        rows in it since it was built)."""
        rect = pygame.Rect(rect)
        key = ("list", tuple(items), rect.size, multi)
        spare = self._spare.get(key) or []
        want = sorted(selected or [])
        match = next((i for i, lst in enumerate(spare) if sorted(_chosen_rows(lst)) == want), None)
        if match is not None:
            spare.append(spare.pop(match))  # the one ``_again`` gives back
            return self._again(key, rect)
        found = self._refilled(key, rect, items, selected)
        if found is not None:
            return found
        # no double clicks: a row clicked again soon after (to take it out again, or in a list
        # rebuilt with the same row buttons) would be a double click pygame_gui chooses nothing with
        return self._keep(TippedSelectionList(rect, items, self.gui.manager, container=self.area,
                                              allow_multi_select=multi, default_selection=selected or None,
                                              allow_double_clicks=False), key)

    def _refilled(self, key: tuple, rect: pygame.Rect, items: list, selected: list | None):
        """A list of the same shape given the new rows in place (app/listrows.py): the one
        with the most rows in common (the units left after a move); one with none in common
        only from the shelf, so the list just shown stays for when it is asked for again."""
        texts = {text for text, _ in items}
        best, best_score = None, None
        for k, lists in self._spare.items():
            if k[0] != "list" or k[2:] != key[2:]:
                continue
            for lst in lists:
                common = sum(1 for item in lst.item_list if item["text"] in texts)
                score = (common, lst.shown_in < self._builds - 1)
                if (common or score[1]) and (best_score is None or score > best_score):
                    best, best_score = (k, lst), score
        if best is None or not refill(best[1], items, selected):
            return None
        spare = self._spare[best[0]]
        spare.append(spare.pop(next(i for i, lst in enumerate(spare) if lst is best[1])))
        found = self._again(best[0], rect)
        found.reuse_key = key
        return found

    def clear(self) -> None:
        """Every widget put aside for the next build (see the class), the others gone; the
        scrolling area and its scroll position kept (building a scrolling area is a good part
        of a form's rebuild)."""
        for element in self.owned:
            self.gui.forget(element)
        self.owned.clear()
        self._drop_spares()
        elements = list(self.area.get_container().elements)
        kept = [e for e in elements if getattr(e, "reuse_key", None) is not None and e.alive()]
        # what a kept widget made beside itself stays with it: a text box's scroll bar, a list's rows
        stays = {id(e) for e in kept} | {id(e.list_and_scroll_bar_container) for e in kept
                                         if getattr(e, "list_and_scroll_bar_container", None) is not None}
        for element in kept:
            self._spare.setdefault(element.reuse_key, []).append(element)
        for element in elements:
            if id(element) not in stays and id(getattr(element, "parent_element", None)) not in stays:
                element.kill()
        self.reused = 0

    def _drop_spares(self, shelve: bool = False) -> None:
        """The widgets not asked for again gone; with ``shelve``, the lists, option buttons and
        field titles shown last hidden."""
        spares = [w for widgets in self._spare.values() for w in widgets]
        self._spare = {}
        lists = sorted((w for w in spares if shelve and w.reuse_key[0] == "list" and w.alive()),
                       key=lambda w: w.shown_in, reverse=True)[:SHELF_LISTS]
        buttons = [b for role, most in SHELF_BUTTONS.items()
                   for b in sorted((w for w in spares if shelve and w.reuse_key[0] == "button" and w.alive()
                                    and getattr(w, "role", None) == role),
                                   key=lambda w: w.shown_in, reverse=True)[:most]]
        titles = sorted((w for w in spares if shelve and w.reuse_key[0] == "text" and w.reuse_key[3] == "#field_title"
                         and w.alive()), key=lambda w: w.shown_in, reverse=True)[:SHELF_TITLES]
        shelved = {id(w) for w in lists + buttons + titles}
        for widget in spares:
            if id(widget) in shelved:
                if widget.visible:
                    widget.hide()
                for mark in MARKS:  # a hidden list offers nothing (app/guidriver.py looks for marks)
                    widget.__dict__.pop(mark, None)
            else:
                widget.kill()

    def fits(self) -> bool:
        """The area still fills the form (the form was not resized or cleared)."""
        inner = self.form.get_container().rect
        return self.area.alive() and self.owned is self.form.owned and self.area.rect.size == inner.size

    def finish(self, height: int, shrink: bool = True) -> None:
        """The widgets are built down to ``height``: scroll only if they need it, to where the
        form was scrolled before it was rebuilt; the widgets not asked for again gone.
        ``shrink`` False: a scrolling area taller than ``height`` is kept (resizing it rebuilds
        its scroll bar, a few ms: a unit's destinations are shorter than the list of units,
        which comes back after the move), the view kept on the widgets."""
        self._drop_spares(shelve=True)
        self._builds += 1
        height = max(height, 1)
        height = -(-height // AREA_STEP) * AREA_STEP  # a form a few pixels taller or shorter: the same area
        kept = self._area_size
        area_h = kept[1] if kept is not None and not shrink and kept[0] == self.width and kept[1] > height else height
        if not shrink and kept is not None and kept[0] == self.width and height > kept[1]:
            area_h = height + GROW_ROOM  # growing through a step's moves (the log, the status): room for the next ones
        if (self.width, area_h) != kept:
            self._area_size = (self.width, area_h)
            self.area.set_scrollable_area_dimensions(self._area_size)
        bar = self.area.vert_scroll_bar
        if bar is not None and self._scroll:
            bar.set_scroll_from_start_percentage(min(self._scroll, 1.0 - bar.visible_percentage))
        self._scroll = 0.0  # once: a rebuild in the same area keeps where the player scrolled
        if bar is not None and area_h > height:  # not past the widgets' bottom into the kept room
            view_h = self.area.rect.height
            top = bar.start_percentage * area_h
            if top + view_h > height:
                bar.set_scroll_from_start_percentage(max(0.0, height - view_h) / area_h)

    def keep_whole(self, widgets) -> None:
        """Scroll the least that shows whole the first of ``widgets`` the view's edge cuts:
        a button of which only a sliver shows takes no click there (pygame_gui clips its
        hover a few pixels inside the view), so a player clicking what he sees would lose
        the click.  A widget wholly out of view is left for the player to scroll to.
        Reckoned in the area's own coordinates: after a rebuild the widgets' screen
        rectangles follow the scroll bar only at the next update."""
        bar = self.area.vert_scroll_bar
        if bar is None or self._area_size is None:
            return
        area_h = self._area_size[1]
        view_h = self._view_height()
        top = bar.start_percentage * area_h
        for widget in widgets:
            if widget is None or not widget.alive() or not widget.visible:
                continue
            rect = widget.relative_rect.inflate(0, 2 * EDGE_MARGIN)
            if rect.bottom <= top or rect.top >= top + view_h or (rect.top >= top and rect.bottom <= top + view_h):
                continue  # wholly out of view, or whole in it
            new_top = rect.top if rect.top < top or rect.height > view_h else rect.bottom - view_h
            new_top = min(max(0.0, new_top), max(0.0, area_h - view_h))
            bar.set_scroll_from_start_percentage(new_top / area_h)
            break
        self._rest = self._last_frame_scroll = bar.start_percentage  # the form's own scroll, not the player's

    def _view_height(self) -> int:
        return getattr(self.area, "_view_container", self.area).rect.height

    def settle_scroll(self) -> None:
        """Called every frame.  Once the player's own scrolling (the wheel, the scroll bar's
        arrows or thumb) has come to rest, a button the view's edge cuts to a sliver is not
        left so: the view goes on the way he scrolled, the least that shows the button whole
        at the edge he scrolled towards, or hides it at the edge he scrolled away from (a
        click on a sliver would be lost, see ``keep_whole``)."""
        bar = self.area.vert_scroll_bar
        if bar is None or self._area_size is None or not self.area.alive():
            self._rest = self._last_frame_scroll = None
            return
        now = bar.start_percentage
        moving = now != self._last_frame_scroll or _held(bar)
        self._last_frame_scroll = now
        if self._rest is None:
            self._rest = now
        if moving or now == self._rest:
            return
        self._uncut(1 if now > self._rest else -1)
        self._rest = self._last_frame_scroll = bar.start_percentage

    def _uncut(self, direction: int) -> None:
        """Scroll on in ``direction`` (1: down) until no button shows as a sliver at an edge."""
        bar = self.area.vert_scroll_bar
        area_h = self._area_size[1]
        view_h = self._view_height()
        buttons = [w for w in self.area.get_container().elements
                   if isinstance(w, UIButton) and w.alive() and w.visible]
        for _round in range(4):  # each step goes the same way: a few at most
            top = bar.start_percentage * area_h
            bottom = top + view_h
            # (less than half a pixel showing is nothing: the scroll is a fraction, the view whole pixels)
            cut_low = [w.relative_rect for w in buttons
                       if bottom < w.relative_rect.bottom and 0.5 < bottom - w.relative_rect.top < SLIVER]
            cut_high = [w.relative_rect for w in buttons
                        if w.relative_rect.top < top and 0.5 < w.relative_rect.bottom - top < SLIVER]
            if direction > 0:  # towards the bottom: show the low one whole, else push the high one out
                new_top = (cut_low[0].bottom + EDGE_MARGIN - view_h) if cut_low else \
                    (cut_high[0].bottom if cut_high else None)
            else:
                new_top = (cut_high[0].top - EDGE_MARGIN) if cut_high else \
                    (cut_low[0].top - view_h if cut_low else None)
            if new_top is None:
                return
            new_top = min(max(0.0, new_top), max(0.0, area_h - view_h))
            if abs(new_top - top) < 0.5:
                return  # at the end of the area: nothing further to scroll
            bar.set_scroll_from_start_percentage(new_top / area_h)

    def scroll(self) -> float:
        bar = self.area.vert_scroll_bar
        return bar.start_percentage if bar is not None else 0.0


def _held(bar) -> bool:
    """The player holds the scroll bar's thumb or one of its arrows."""
    return any(b is not None and b.held for b in (bar.sliding_button, bar.top_button, bar.bottom_button))


def _chosen_rows(lst: UISelectionList) -> list:
    return [(item["text"], item["object_id"]) for item in lst.item_list if item["selected"]]
