"""Forms on top of the map: pygame_gui windows, dialogs and popup menus.

pygame_gui (which runs on pygame-ce and headless with SDL_VIDEODRIVER=dummy) draws and
handles the forms; this module keeps what the game needs from it in one place:

- ``Gui``: the UI manager, created lazily (a surface-less ``wif render`` never pays for it)
  and a callback table, so a form says "call this when that button is pressed" instead of
  every caller matching pygame_gui event types;
- ``FormWindow``: a window that rolls up to its title bar (seeds, "Screen Layouts": "they
  can all be rolled-up by clicking on the small icon in the upper left corner of the form");
- ``ask_name``: the text-entry dialog for naming map views and screen layouts;
- ``popup_menu``: the right-click menus of the Map Views and Screen Layouts lists.

pygame_gui reports a press by posting an event, so a click is handled in two passes of the
event loop: the mouse event, then the UI event it produced.
"""

from __future__ import annotations

from typing import Callable

import pygame
import pygame_gui
from pygame_gui.elements import (
    UIButton,
    UIImage,
    UILabel,
    UISelectionList,
    UITextBox,
    UITextEntryLine,
    UIWindow,
)

from . import guispeed
from .listrows import TippedSelectionList

UI_EVENTS = (pygame_gui.UI_BUTTON_PRESSED, pygame_gui.UI_SELECTION_LIST_NEW_SELECTION,
             pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION, pygame_gui.UI_TEXT_ENTRY_FINISHED,
             pygame_gui.UI_DROP_DOWN_MENU_CHANGED, pygame_gui.UI_WINDOW_CLOSE,
             pygame_gui.UI_FILE_DIALOG_PATH_PICKED, pygame_gui.UI_TEXT_ENTRY_CHANGED,
             pygame_gui.UI_BUTTON_DOUBLE_CLICKED)
TITLE_BAR_H = 28  # pygame_gui's default window title bar
# Characters the fonts lack, and what stands in for them (rules describe results with arrows)
SUBSTITUTES = {"→": "->", "←": "<-", "×": "x", "–": "-", "—": "-"}


def gui_text(text: str) -> str:
    """``text`` with the characters the forms' font lacks replaced, so no box stands where a
    player expects a word."""
    for ch, stand_in in SUBSTITUTES.items():
        text = text.replace(ch, stand_in)
    return text


def _quick_theme_ids() -> None:
    """pygame_gui 0.6's theme looks up an element's ids under a key built by nesting
    ``str.join`` (its length grows as the product of the id lists' lengths), so creating a
    widget deep in a form cost milliseconds, most of a form's rebuild.  Remember the answer
    under a plain tuple key instead; what is returned is unchanged."""
    from pygame_gui.core.ui_appearance_theme import UIAppearanceTheme

    slow = UIAppearanceTheme.build_all_combined_ids
    if getattr(slow, "quick", False):
        return

    def build_all_combined_ids(self, element_base_ids, element_ids, class_ids, object_ids):
        key = tuple(tuple(ids) if ids is not None else None
                    for ids in (element_base_ids, element_ids, class_ids, object_ids))
        known = self.__dict__.setdefault("_quick_ids", {})
        if key not in known:
            known[key] = slow(self, element_base_ids, element_ids, class_ids, object_ids)
        return known[key]

    build_all_combined_ids.quick = True
    UIAppearanceTheme.build_all_combined_ids = build_all_combined_ids


class Gui:
    """The pygame_gui manager for one display surface, with callbacks per element."""

    def __init__(self, size: tuple[int, int]):
        self.size = size
        self._manager: pygame_gui.UIManager | None = None
        self.callbacks: dict[tuple[int, object], Callable] = {}
        self.modal: list = []  # windows that take every click while open (dialogs, menus)

    @property
    def manager(self) -> pygame_gui.UIManager:
        if self._manager is None:
            # pygame_gui converts its surfaces, which needs a display mode; off-screen users
            # (wif render, tests) get a hidden 1x1 one.
            if pygame.display.get_surface() is None:
                pygame.display.set_mode((1, 1), pygame.HIDDEN)
            _quick_theme_ids()
            guispeed.install()
            self._manager = pygame_gui.UIManager(self.size)
            # the bold title font the forms use; loaded now so pygame_gui does not warn later
            self._manager.preload_fonts([{"name": "noto_sans", "point_size": 14, "style": "bold",
                                          "antialiased": "1"}])
        return self._manager

    @property
    def active(self) -> bool:
        return self._manager is not None

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        if self._manager is not None:
            self._manager.set_window_resolution(size)

    def on(self, event_type: int, element, callback: Callable) -> None:
        self.callbacks[(event_type, element)] = callback

    def forget(self, element) -> None:
        self.callbacks = {k: v for k, v in self.callbacks.items() if k[1] is not element}

    def process(self, event) -> bool:
        """True when a form used the event (the map must not see it)."""
        if self._manager is None:
            return False
        if event.type in UI_EVENTS:
            self._manager.process_events(event)  # lists and windows react to their children's events
            element = getattr(event, "ui_element", None)
            callback = self.callbacks.get((event.type, element))
            if callback is not None:
                if event.type == pygame_gui.UI_BUTTON_PRESSED:
                    callback()
                elif event.type == pygame_gui.UI_WINDOW_CLOSE:
                    callback()
                else:
                    callback(getattr(event, "text", None))
            if event.type == pygame_gui.UI_WINDOW_CLOSE:
                self.forget(element)
                if element in self.modal:
                    self.modal.remove(element)
            return True
        consumed = self._manager.process_events(event)
        if self.modal and event.type == pygame.MOUSEBUTTONDOWN:
            top = self.modal[-1]
            if not top.get_abs_rect().collidepoint(event.pos) and getattr(top, "closes_on_outside_click", False):
                self.close(top)
                return True
        return bool(consumed) or (bool(self.modal) and event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
                                  and any(w.get_abs_rect().collidepoint(event.pos) for w in self.modal))

    def over_form(self, pos) -> bool:
        if self._manager is None:
            return False
        return any(isinstance(w, UIWindow) and w.visible and w.get_abs_rect().collidepoint(pos)
                   for w in self._manager.get_root_container().elements)

    def close(self, window) -> None:
        self.forget(window)
        for element in getattr(window, "owned", ()):
            self.forget(element)
        if window in self.modal:
            self.modal.remove(window)
        window.kill()

    def update(self, seconds: float) -> None:
        if self._manager is not None:
            self._manager.update(seconds)

    def draw(self, surface: pygame.Surface) -> None:
        if self._manager is not None:
            self._manager.draw_ui(surface)


class FormWindow(UIWindow):
    """A window with a roll-up button at the left of its title bar."""

    def __init__(self, gui: Gui, rect: pygame.Rect, title: str, object_id: str | None = None):
        super().__init__(rect, gui.manager, window_display_title=title, object_id=object_id,
                         resizable=False, draggable=True)
        self.gui = gui
        self.owned: list = []
        self.rolled = False
        self.rolled_bar: UIButton | None = None
        self.roll_button = UIButton(pygame.Rect(0, 0, TITLE_BAR_H, TITLE_BAR_H), "^", gui.manager,
                                    container=self._window_root_container, parent_element=self,
                                    tool_tip_text="roll up / restore")
        gui.on(pygame_gui.UI_BUTTON_PRESSED, self.roll_button, self.toggle_roll)
        if self.title_bar is not None:
            # make room for the roll button at the left of the title
            self.title_bar.set_relative_position((TITLE_BAR_H, 0))
            self.title_bar.set_dimensions((self.title_bar.rect.width - TITLE_BAR_H, TITLE_BAR_H))

    def visible_rect(self) -> pygame.Rect:
        """The window as the player sees it and as it was asked for (``rect`` also holds the
        theme's shadow around it)."""
        return self.rect.inflate(-2 * self.shadow_width, -2 * self.shadow_width)

    def place(self, rect: pygame.Rect) -> None:
        """Move and size the window so that ``visible_rect()`` is ``rect``."""
        rect = pygame.Rect(rect)
        self.set_dimensions(rect.inflate(2 * self.shadow_width, 2 * self.shadow_width).size)
        self.set_position((rect.x - self.shadow_width, rect.y - self.shadow_width))
        if self.rolled_bar is not None:
            self.rolled_bar.set_position(rect.topleft)

    def toggle_roll(self) -> None:
        """Rolled up, the window is replaced by a bar of its title's size at the same place
        (shrinking a pygame_gui window below its title bar clips the title away)."""
        if self.rolled:
            self.gui.forget(self.rolled_bar)
            self.rolled_bar.kill()
            self.rolled_bar = None
            self.show()
            self.roll_button.show()
        else:
            r = self.rect
            self.rolled_bar = UIButton(pygame.Rect(r.x, r.y, r.width, TITLE_BAR_H), f"v   {self.window_display_title}",
                                       self.gui.manager, object_id="#rolled_form", tool_tip_text="restore")
            self.gui.on(pygame_gui.UI_BUTTON_PRESSED, self.rolled_bar, self.toggle_roll)
            self.hide()
            self.roll_button.hide()
        self.rolled = not self.rolled

    def button(self, rect, text: str, callback: Callable, tip: str | None = None, role: str | None = None) -> UIButton:
        b = UIButton(pygame.Rect(rect), text, self.gui.manager, container=self, tool_tip_text=tip)
        self.gui.on(pygame_gui.UI_BUTTON_PRESSED, b, callback)
        self.owned.append(b)
        return b

    def label(self, rect, text: str) -> UILabel:
        return UILabel(pygame.Rect(rect), text, self.gui.manager, container=self)

    def text_box(self, html: str, rect, object_id: str | None = None):
        return UITextBox(html, pygame.Rect(rect), self.gui.manager, container=self, object_id=object_id)

    def picture(self, rect, surface: pygame.Surface, what=None):
        return UIImage(pygame.Rect(rect), surface, self.gui.manager, container=self)

    def selection_list(self, rect, items: list, multi: bool = False, selected: list | None = None) -> UISelectionList:
        return TippedSelectionList(pygame.Rect(rect), items, self.gui.manager, container=self, allow_multi_select=multi,
                               default_selection=selected or None, allow_double_clicks=False)  # see FormBody's

    @property
    def container(self):
        """Where the form's widgets go (a ``FormBody`` puts them in a scrolling area)."""
        return self

    def clear(self) -> None:
        for element in self.owned:
            self.gui.forget(element)
        self.owned = []
        for element in list(self.get_container().elements):
            element.kill()

    def kill(self) -> None:
        for element in self.owned:
            self.gui.forget(element)
        self.gui.forget(self.roll_button)
        if self.rolled_bar is not None:
            self.gui.forget(self.rolled_bar)
            self.rolled_bar.kill()
        super().kill()


def ask_name(gui: Gui, title: str, initial: str, on_ok: Callable[[str], None],
             centre: tuple[int, int] | None = None) -> FormWindow:
    """A modal dialog asking for a name; Enter or OK calls ``on_ok(name)``, Cancel closes."""
    w, h = 340, 150
    cx, cy = centre or (gui.size[0] // 2, gui.size[1] // 2)
    dialog = FormWindow(gui, pygame.Rect(cx - w // 2, cy - h // 2, w, h), title, object_id="#name_dialog")
    entry = UITextEntryLine(pygame.Rect(10, 10, w - 50, 32), gui.manager, container=dialog, initial_text=initial)
    entry.focus()
    entry.select_range = [0, len(initial)]  # typing replaces the suggested name
    dialog.entry = entry

    def finish(_text=None) -> None:
        name = entry.get_text().strip()
        if not name:
            return
        gui.close(dialog)
        on_ok(name)

    gui.on(pygame_gui.UI_TEXT_ENTRY_FINISHED, entry, finish)
    dialog.owned.append(entry)
    dialog.button((10, 52, 100, 30), "OK", finish)
    dialog.button((120, 52, 100, 30), "Cancel", lambda: gui.close(dialog))
    gui.modal.append(dialog)
    return dialog


def popup_menu(gui: Gui, pos: tuple[int, int], items: list[str], on_choose: Callable[[str], None]) -> UISelectionList:
    """A right-click menu at ``pos``; choosing an item closes it and calls ``on_choose``;
    a click elsewhere closes it."""
    row = 26
    w = max(150, 14 + 8 * max(len(i) for i in items))
    h = row * len(items) + 6
    x = min(pos[0], gui.size[0] - w)
    y = min(pos[1], gui.size[1] - h)
    menu = UISelectionList(pygame.Rect(x, y, w, h), items, gui.manager, object_id="#popup_menu")
    menu.closes_on_outside_click = True
    menu.owned = []

    def chosen(text) -> None:
        gui.close(menu)
        on_choose(text)

    gui.on(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, menu, chosen)
    gui.modal.append(menu)
    return menu


from .formbody import MARKS, FormBody  # noqa: E402,F401 - the Play form's scrolling inside (built on FormWindow)
