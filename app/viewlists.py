"""The Map Views and Screen Layouts lists of the game window: their buttons, right-click
menus (seeds, "Map Views", "Screen Layouts") and commands.  A mixin of ``GameWindow``."""

from __future__ import annotations

from pathlib import Path

import pygame

from .forms import ask_name, popup_menu
from .windowstyle import ACCENT, DIM, GOOD, Panel


class ViewLists:
    def _mapview_buttons(self, panel: Panel):
        b = panel.body
        names = ("save", "redefine", "restore", "delete")
        w = max(40, (b.w - 8) // len(names))
        return [(n, pygame.Rect(b.x + 4 + i * w, b.bottom - 22, w - 4, 20)) for i, n in enumerate(names)]

    def _layout_buttons(self, panel: Panel):
        b = panel.body
        names = ("save", "redefine")
        w = max(40, (b.w - 8) // len(names))
        return [(n, pygame.Rect(b.x + 4 + i * w, b.bottom - 22, w - 4, 20)) for i, n in enumerate(names)]

    def mapview_command(self, name: str, view_name: str | None = None) -> None:
        power = self.power()
        dmap = self.primary
        if dmap is None:
            return
        target = view_name or self.mapview_hover
        if name == "save":
            if view_name is None:  # seeds, "Map Views": Save "... you are asked to provide a name"
                existing = set(self.views.names(power))
                suggestion = next(f"View {i}" for i in range(1, 999) if f"View {i}" not in existing)
                ask_name(self.gui, "Save map view as", suggestion, lambda n: self.mapview_command("save", n))
                return
            self.views.save(power, self.map_view_of(dmap, view_name))
            self.say(f"map view {view_name} saved", GOOD)
        elif name == "rename" and target:
            ask_name(self.gui, f"Rename map view {target}", target,
                     lambda n: (self.views.rename(power, target, n), self.say(f"map view {target} renamed {n}", GOOD)))
        elif name == "redefine" and target:
            self.views.redefine(power, target, self.map_view_of(dmap, target))
            self.say(f"map view {target} redefined", GOOD)
        elif name == "restore" and target:
            self.apply_map_view(self.views.restore(power, target))
        elif name == "delete" and target:
            self.views.delete(power, target)
            self.say(f"map view {target} removed from the list", DIM)
        self._flush_notes()

    def layout_command(self, name: str, layout_name: str | None = None) -> None:
        if name in ("save", "add"):
            if layout_name is None:  # seeds, "Screen Layouts": save under a new name
                existing = set(self.layouts.names())
                suggestion = next(f"Layout {i}" for i in range(1, 999) if f"Layout {i}" not in existing)
                ask_name(self.gui, "Save screen layout as" if name == "save" else "Add screen layout",
                         suggestion, lambda n: self.layout_command(name, n))
                return
            self.layouts.save(self.current_layout(layout_name))
            if name == "save":  # "add" puts it in the list without changing to it
                self.layout = self.current_layout(layout_name)
                self.layouts.set_current(layout_name)
            self.say(f"screen layout {layout_name} saved", GOOD)
        elif name == "rename":
            old = layout_name or self.layout.name

            def renamed(new: str) -> None:
                self.layouts.rename(old, new)
                if self.layout.name == old:
                    self.layout = self.layout.model_copy(update={"name": new})
                self.say(f"screen layout {old} renamed {new}", GOOD)

            ask_name(self.gui, f"Rename screen layout {old}", old, renamed)
        elif name == "delete" and layout_name and layout_name != self.layout.name:
            self.layouts.delete(layout_name)
            self.say(f"screen layout {layout_name} removed from the list", DIM)
        elif name in ("up", "down") and layout_name:
            self.layouts.move(layout_name, -1 if name == "up" else 1)
        elif name == "redefine":
            self.layouts.save(self.current_layout())
            self.say(f"screen layout {self.layout.name} redefined", GOOD)
        self._flush_notes()

    # ------------------------------------------------------------------ the lists and their menus
    def _list_names(self, kind: str) -> list[str]:
        return self.views.names(self.power()) if kind == "mapviews" else self.layouts.names()

    def _list_row(self, panel: Panel, pos) -> str | None:
        index = (pos[1] - panel.body.y - 4) // 18 + self.list_scroll.get(panel.kind, 0)
        names = self._list_names(panel.kind)
        buttons = self._mapview_buttons(panel) if panel.kind == "mapviews" else self._layout_buttons(panel)
        if any(rect.collidepoint(pos) for _, rect in buttons):
            return None
        return names[index] if 0 <= index < len(names) and pos[1] >= panel.body.y else None

    def _right_click(self, pos) -> None:
        """Seeds, "Map Views": right click on a label pops up Restore, Save, Redefine, Rename,
        Delete; "Screen Layouts": on the current layout fetch/save/add/redefine/rename, on the
        others the same less Redefine plus Change position and Delete."""
        panel = self.panel_at(pos)
        if panel is None or panel.kind not in self.list_scroll or panel.geometry.rolled:
            return
        name = self._list_row(panel, pos)
        if panel.kind == "mapviews":
            items = ["Restore", "Save…", "Redefine", "Rename…", "Delete"] if name else ["Save…"]
            verbs = {"Restore": "restore", "Save…": "save", "Redefine": "redefine", "Rename…": "rename",
                     "Delete": "delete"}

            def chosen(item: str) -> None:
                self.mapview_hover = name
                self.mapview_command(verbs[item], name if verbs[item] != "save" else None)

            popup_menu(self.gui, pos, items, chosen)
            return
        if name is None:
            return
        if name == self.layout.name:
            items = ["Fetch from disk…", "Save as…", "Add to list…", "Redefine", "Rename…"]
        else:
            items = ["Switch to", "Save as…", "Add to list…", "Rename…", "Move up", "Move down", "Delete"]
        verbs = {"Save as…": "save", "Add to list…": "add", "Redefine": "redefine", "Rename…": "rename",
                 "Move up": "up", "Move down": "down", "Delete": "delete"}

        def chosen_layout(item: str) -> None:
            if item == "Switch to":
                self.apply_layout(name)
            elif item == "Fetch from disk…":
                self.pick_layout_file()
            elif verbs[item] in ("save", "add", "redefine"):
                self.layout_command(verbs[item])
            else:
                self.layout_command(verbs[item], name)

        popup_menu(self.gui, pos, items, chosen_layout)

    def pick_layout_file(self):
        """Seeds, "Screen Layouts": fetch a layout from disk; a file picker opens in the
        layouts folder and the chosen file joins the list and becomes the current layout."""
        from pygame_gui.windows import UIFileDialog
        import pygame_gui

        sw, sh = self.screen.get_size()
        folder = self.layouts.folder if self.layouts.folder.exists() else Path.cwd()
        dialog = UIFileDialog(pygame.Rect(max(0, sw // 2 - 260), max(0, sh // 2 - 220), min(520, sw), min(440, sh)),
                              self.gui.manager, window_title="Fetch a screen layout from disk",
                              initial_file_path=str(folder), allow_picking_directories=False)
        self.gui.on(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, dialog, lambda text: self.fetch_layout(text))
        return dialog

    def fetch_layout(self, path: str | None) -> None:
        if not path:
            return
        try:
            layout = self.layouts.fetch(path)
        except ValueError as exc:
            self.say(str(exc), ACCENT)
            return
        self.apply_layout(layout.name)
        self.say(f"screen layout {layout.name} fetched from {path}", GOOD)

