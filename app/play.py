"""The game window: the windows of a screen layout (main form, detailed maps, global map and
its legend, units in hex, sequence of play, map-view and layout lists) over one pygame
display.

Controls (seeds, "Detailed Map" and "Player Interface Menu"):
  arrows: scroll one hex; Ctrl+arrows: one page; wheel: up/down; Shift+wheel: left/right;
  Ctrl+wheel or +/-: zoom at the cursor; drag: scroll; the autoscroll border scrolls after
  the cursor rests on it (sensitivity 0 = off); click: select a hex / unit; Space: lock the
  units-in-hex panel; Enter: finish the current step; F9: replay this game; Ctrl+O: the
  optional rules (right-click toggles one); Esc: quit.
  Right click on the map-views or screen-layouts list: its popup menu (seeds, "Map Views",
  "Screen Layouts"); the wheel scrolls the lists.
  Layers: T terrain, S hexsides, R rail, L labels, Z weather zones, W weather, H hex control,
  U units, M unit resolution.  Over the map-views list: Up/Down moves the label under the
  cursor, Ctrl+Up/Down to the top/bottom.
With ``--dev`` plugins hot reload while it runs and the map redraws after each reload.

The window is split by concern: input (app/windowinput.py), the lists of map views and
layouts (app/viewlists.py), drawing the panels (app/panels.py), its look (app/windowstyle.py);
the program's main loop and its scenes are in app/scenes.py.
"""

from __future__ import annotations

import time
from pathlib import Path

import pygame

from kernel.errors import WifError
from kernel.game import Game

from .decisions import Decisions, player_of
from .detailed import DetailedMap, Selection
from .dirty import map_changes
from .forms import Gui
from .globalmap import GlobalMap
from .mapmodel import MapModel
from .panels import PanelDrawing
from .savewatch import SaveWatch
from .uiplugins import load_ui_plugins
from .viewlists import ViewLists
from .views import LayoutStore, MapView, MapViewStore, ScreenLayout, WindowGeometry, fit_layout
from .windowinput import WindowInput
from .windowstyle import (  # noqa: F401 - the window's colours and sizes are importable from here too
    ACCENT,
    AUTOSCROLL_BORDER,
    BACKGROUND,
    DIM,
    FORM,
    FORM_KINDS,
    FRAME_SECONDS,
    GOOD,
    PREFETCH_MARGIN,
    REPO_ROOT,
    TEXT,
    TITLE_BAR,
    TITLE_H,
    TITLES,
    Panel,
    Settings,
)


DESKTOP_MARGIN = 60  # pixels of the desktop's height left to the window's title bar and a taskbar
FRONT_DISTANCE = 3  # hexes from an enemy unit within which a unit is on the front


def new_save_path(scenario: str) -> Path:
    return REPO_ROOT / "saves" / f"{scenario}-{time.strftime('%Y%m%d-%H%M%S')}.wif"


class GameWindow(WindowInput, ViewLists, PanelDrawing):
    """Everything on screen.  ``screen`` may be any surface (tests and ``wif render`` draw
    off screen through exactly the same code)."""

    def __init__(self, game: Game | None, screen: pygame.Surface | None = None, layout: str | ScreenLayout | None = None,
                 reloader=None, ui=None, config_folder: Path | None = None, model: MapModel | None = None,
                 forms: bool = False):
        """``forms``: show the decision forms (the playing window; ``wif render`` and the map
        tests draw the map without them)."""
        self.game = game
        self.gui = Gui(screen.get_size() if screen is not None else (1024, 768))
        self.rules_form = None  # the Optional Rules form (Ctrl+O), while open
        self.running = True  # False once the player chose to quit
        self.confirm_quit = None  # the "Quit?" form, while open
        self.list_scroll: dict[str, int] = {"mapviews": 0, "layouts": 0}
        self.next_game: str | None = None  # a save to open next (a replay's fork)
        self.scenes = None  # the program's scene stack (app/scenes.py), when the window is one of its scenes
        self._last_draw = time.monotonic()
        self.last_draw_seconds = 0.0
        self.last_changes = None  # what the last events changed on the map (app.dirty.MapChanges)
        self.reloader = reloader
        self.messages: list[tuple[str, tuple[int, int, int]]] = []
        self.notes: list[str] = []  # warnings from stores and plugins, shown as messages
        self.ui = ui or load_ui_plugins()
        self.model = model or MapModel(game=game)
        self.views = MapViewStore(self.ui.map_views, config_folder, self.notes)
        self.layouts = LayoutStore(self.ui.layouts, config_folder, self.notes)
        self.settings = Settings()
        self.selection_listeners: list = []
        self.detailed: dict[str, DetailedMap] = {}
        self.linked_detailed: DetailedMap | None = None
        self.global_map = GlobalMap(self.model)
        self.legend_visible = True
        self.units_locked: tuple | None = None  # (hex, units) while Space holds the panel
        self.hover_hex = None
        self.mouse = (0, 0)
        self._drag: tuple | None = None  # (panel key, start pos, last pos, moved?, what)
        self._border_frames = 0
        self._owns_display = screen is None
        self.screen = screen
        self.panels: dict[str, Panel] = {}
        self.mapview_hover: str | None = None
        self.flyout_page = 0
        for text in self.ui.messages:
            self.say(text, ACCENT)
        self.apply_layout(layout if layout is not None else self._starting_layout())
        self._flush_notes()
        self.counter_messages: list[str] = []
        for dmap in self.detailed.values():
            dmap.counters.messages = self.counter_messages
        if game is not None:
            game.listeners.append(self._on_events)
        self.save_watch = SaveWatch(self)
        self.play = None
        if forms and game is not None:
            from .playforms import PlayForms

            self.play = PlayForms(self)
            self.play.popups.avoid = lambda: self.play.form_rect("play")
            self.front_in_view()
        if reloader is not None:
            reloader.listeners.append(self._on_reload)

    # ------------------------------------------------------------------ layout
    def _starting_layout(self) -> str:
        """The player's current layout; else the largest one-monitor layout that fits the
        screen (issue 11 item 9: the window fits the screen it opens on), the scenario's "New
        Game" layout when it is as large."""
        scenario = self.game.state.kernel.scenario if self.game is not None else None
        names = self.layouts.names()
        if self.layouts.current in names:
            return self.layouts.current
        sw, sh = self.desktop_size()  # a layout of the desktop's size is then fitted to what is left
        fitting = [(layout.screen[0] * layout.screen[1], layout.scenario == scenario, name)
                   for name, layout in self.ui.layouts.items()
                   if name in names and layout.screen[0] <= sw and layout.screen[1] <= sh
                   and (layout.scenario is None or layout.scenario == scenario) and "detailed-2" not in layout.windows]
        if fitting:
            return max(fitting)[2]
        return "M1007" if "M1007" in names else (names[0] if names else "")

    def _fallback_layout(self, size) -> ScreenLayout:
        w, h = size
        return ScreenLayout(name="fallback", screen=(w, h), windows={
            "main": WindowGeometry(x=0, y=0, w=w, h=90), "detailed": WindowGeometry(x=0, y=90, w=w, h=h - 90)})

    def screen_limit(self) -> tuple[int, int]:
        if not self._owns_display:
            return self.screen.get_size()
        w, h = self.desktop_size()
        # a screen larger than the smallest layout leaves room for the title bar and a taskbar
        return (w, h - DESKTOP_MARGIN) if h > 768 + DESKTOP_MARGIN else (w, h)

    def desktop_size(self) -> tuple[int, int]:
        """The size of the screen the window opens on (the surface's, drawing off screen)."""
        if not self._owns_display:
            return self.screen.get_size()
        sizes = pygame.display.get_desktop_sizes() if pygame.display.get_init() else []
        return sizes[0] if sizes else (1024, 768)

    def apply_layout(self, layout: str | ScreenLayout) -> None:
        if isinstance(layout, str):
            try:
                layout = self.layouts.get(layout)
            except KeyError as exc:
                self.notes.append(f"{exc.args[0]}; using a plain layout")
                layout = self._fallback_layout(self.screen_limit())
        fitted, note = fit_layout(layout, self.screen_limit())
        if note:
            self.notes.append(note)
        self.layout = layout
        if self._owns_display:
            self.screen = pygame.display.set_mode(fitted.screen if fitted is not layout else layout.screen)
            if self.game is not None:
                pygame.display.set_caption(f"World in Flames — {self.game.state.kernel.scenario} — {layout.name}")
        self.panels = {key: Panel(key, g.model_copy(), TITLES.get(key.split("-")[0], key))
                       for key, g in fitted.windows.items() if g.visible and key not in FORM_KINDS}
        # the decision forms are pygame_gui windows; the layout says where they open
        self.form_geometry = {key: fitted.windows[key].model_copy() for key in FORM_KINDS if key in fitted.windows}
        if getattr(self, "play", None) is not None:
            self.play.place_forms()
        self.gui.resize(self.screen.get_size())
        old = self.detailed
        self.detailed = {}
        for key, panel in self.panels.items():
            if panel.kind == "detailed":
                dmap = old.get(key) or (next(iter(old.values())) if old and key == "detailed" else None)
                if dmap is None:
                    dmap = DetailedMap(self.model, panel.body.size, zoom=5 if key == "detailed" else 3,
                                       centre=self._default_centre())
                dmap.resize(panel.body.size)
                self.detailed[key] = dmap
        if self.layouts.current != layout.name and layout.name in self.layouts.names():
            self.layouts.current = layout.name
        self._flush_notes()

    def _default_centre(self):
        """Where a detailed map opens: the deciding power's front (issue 11 item 6), else its
        first map view."""
        front = self.front_centre() if self.game is not None else None
        if front is not None:
            return front
        views = self.views.views(self.power()) if self.game is not None else []
        if views:
            return (views[0].col, views[0].row)
        return (205, 52)

    def front_in_view(self) -> None:
        """Move the front from the map's middle to the middle of the part of the map the
        forms over it (the Play form, the Setup Tray) leave uncovered."""
        panel, dmap = self.panels.get("detailed"), self.primary
        if panel is None or dmap is None or self.front_centre() is None:
            return
        body = panel.body
        covering = [self.play.form_rect("play")] + ([self.play.form_rect("setup_tray")] if self.play.tray.active() else [])
        free = body.copy()
        for r in covering:
            if not r.colliderect(free):
                continue
            if r.x > free.centerx:
                free.width = r.x - free.x
            elif r.right < free.centerx:
                free.width, free.x = free.right - r.right, r.right
            elif r.y > free.centery:
                free.height = r.y - free.y
        if free.width > 100 and free.height > 100:
            dmap.scroll_pixels(body.centerx - free.centerx, body.centery - free.centery)

    def front_centre(self) -> tuple[int, int] | None:
        """The middle of the deciding power's front: where the scenario says it is (the
        ``scenario_front`` hook); else its land units within FRONT_DISTANCE
        hexes of an enemy unit; else the middle of all its units on the map; else (before
        they are set up) of its set-up areas (the Setup Tray's hook); None when it has none."""
        from .render import centre_of
        from .uihooks import ask_game

        power, k = self.power(), self.game.state.kernel
        named = ask_game(self.game, "scenario_front", state=self.game.state, power=power) if self.game.host else None
        if named:  # the scenario says where its front is (Guadalcanal: the Solomons and New Guinea)
            return centre_of([tuple(h) for h in named], self.model.grid.cols)
        side = k.side_of(power)
        units = self.model.units()
        placed = [u for u in units.units.values() if u.hex is not None] if units is not None else []
        ours = [tuple(u.hex) for u in placed if u.power == power and u.branch == "land"]
        enemies = {tuple(u.hex) for u in placed if k.side_of(u.power) not in (None, side)}
        grid = self.model.grid
        front = [h for h in ours if any(grid.distance(h, e) <= FRONT_DISTANCE for e in enemies
                                        if abs(e[1] - h[1]) <= FRONT_DISTANCE)]
        if front or ours:
            return centre_of(front or ours, grid.cols)
        areas = ask_game(self.game, "setup_areas", state=self.game.state, power=power) if self.game.host else None
        # the set-up hexes next to the enemy's (his border), else each area's middle counted
        # once per unit set up there (a big, nearly empty reserve area does not pull the view)
        hexes = {tuple(h) for area in areas or [] for h in area.get("hexes", [])}
        enemy = {p for p in k.powers() if k.side_of(p) not in (None, side)}
        border = [h for h in hexes if any(self.model.controller(n) in enemy for n in grid.neighbours(h)
                                          if tuple(n) not in hexes)]
        if border:
            return centre_of(sorted(border), grid.cols)
        middles = [centre_of([tuple(h) for h in area["hexes"]], grid.cols) for area in areas or [] if area.get("hexes")
                   for _ in area.get("units") or [None]]
        return centre_of(middles, grid.cols) if middles else None

    def current_layout(self, name: str | None = None) -> ScreenLayout:
        """The screen as it is now, as a layout (for Save / Redefine)."""
        windows = {k: g.model_copy() for k, g in self.layout.windows.items()}
        for key, panel in self.panels.items():
            windows[key] = panel.geometry.model_copy()
        if self.play is not None:
            windows.update(self.play.form_geometries())
        return ScreenLayout(name=name or self.layout.name, screen=self.screen.get_size(), windows=windows,
                            scenario=self.layout.scenario, description=self.layout.description)

    @property
    def primary(self) -> DetailedMap | None:
        """The detailed map the global map is linked to: the layout's first, else the one
        ``link_detailed`` gave (a picture of the global map alone still shows its rectangle)."""
        return self.detailed.get("detailed") or next(iter(self.detailed.values()), None) or self.linked_detailed

    def link_detailed(self, size: tuple[int, int], zoom: int = 5) -> DetailedMap:
        """A detailed map that is not on screen, for the global map's rectangle."""
        self.linked_detailed = DetailedMap(self.model, size, zoom=zoom, centre=self._default_centre())
        self.linked_detailed.counters.messages = self.counter_messages
        return self.linked_detailed

    # ------------------------------------------------------------------ map views
    def power(self) -> str:
        """Whose map views are listed: the first power still to decide, else the first power."""
        if self.game is None:
            return "germany"
        k = self.game.state.kernel
        if k.acting_power():
            return k.acting_power()
        for powers in k.sides.values():
            if powers:
                return powers[0]
        return "germany"

    def map_view_of(self, dmap: DetailedMap, name: str) -> MapView:
        col, row = dmap.centre_hex
        lay = dmap.layers
        return MapView(name=name, col=col, row=row, zoom=dmap.zoom, rail=lay["rail"], labels=lay["labels"],
                       weather_zones=lay["weather_zones"], units=lay["units"], unit_resolution=dmap.unit_resolution,
                       weather=lay["weather"], control=lay["control"])

    def apply_map_view(self, view: MapView, dmap: DetailedMap | None = None) -> None:
        dmap = dmap or self.primary
        if dmap is None:
            return
        dmap.zoom = view.zoom
        for name in ("rail", "labels", "weather_zones", "units", "weather", "control"):
            dmap.layers[name] = getattr(view, name)
        dmap.unit_resolution = view.unit_resolution
        dmap.center_on((view.col, view.row))

    # ------------------------------------------------------------------ messages and game events
    def say(self, text: str, colour=TEXT) -> None:
        self.messages = (self.messages + [(text, colour)])[-6:]

    def _flush_notes(self) -> None:
        while self.notes:
            self.say(self.notes.pop(0), ACCENT)

    def _on_events(self, game, records) -> None:
        """Reducers changed state: drop only the chunks showing a changed hex (``app.dirty``)."""
        self.last_changes = map_changes(game, records, self.model)
        for dmap in self.detailed.values():
            dmap.apply_changes(self.last_changes)
        if records:  # the global map keeps the views these changes leave alone (the terrain)
            self.global_map.note_changes(self.last_changes, records[0].seq - 1, records[-1].seq)

    def _on_reload(self, result) -> None:
        self.say(result.message, GOOD if result.ok else ACCENT)
        for dmap in self.detailed.values():
            dmap.invalidate()
            dmap._stack_seq = -1
        self.global_map._seq = -1

    def set_selection(self, hex_, units: list[str]) -> None:
        sel = Selection(hex_, units)
        for dmap in self.detailed.values():
            dmap.selection = sel
        self.selection = sel
        for listener in list(self.selection_listeners):
            listener(sel)
        if self.ui.manager is not None and hasattr(self.ui.manager.hook, "ui_selection_changed"):
            self.ui.manager.hook.ui_selection_changed(selection=sel, window=self)

    def open_rules(self) -> None:
        """Ctrl+O: the game's optional rules with (ON); a right-click toggles one that may
        be toggled now (seeds, Optional Rules), as a command in the log."""
        from .rulesform import play_rules_form
        from .uihooks import OPTIONAL_RULES_PLUGIN

        if OPTIONAL_RULES_PLUGIN not in self.game.host.infos:
            self.say("this game was started without the optional-rule framework", ACCENT)
            return
        k = self.game.state.kernel
        actor = k.acting_power() or (k.powers()[0] if k.powers() else "system")
        if self.rules_form is not None and not getattr(self.rules_form, "closed", False):
            self.rules_form.close()
        player = self.play.decisions.deciding_player() if self.play is not None and not self.play.hidden() else None
        self.rules_form = play_rules_form(self.gui, self.game, player=player or player_of(self.game, actor), actor=actor)

    def open_replay(self) -> None:
        """F9: the replay viewer on this game, as a scene over the game window (nothing of this
        game is closed); "Play on from here" gives a fork that the window's scene opens next.
        A window with no scene stack (a test) runs the viewer until it closes."""
        if self.game is None:
            return
        path = self.game.path
        if getattr(self.game, "remote", False):  # a server game: what this player is shown (app/net/remote.py)
            try:
                path = self.game.replay_save()
            except WifError as exc:
                self.say(str(exc), ACCENT)
                return
        if self.scenes is not None:
            from .scenes import ReplayScene

            self.scenes.push(ReplayScene(str(path), screen=self.screen, on_fork=self.open_fork))
            return
        from . import replay_view

        fork = replay_view.run_replay_window(str(path), screen=self.screen)
        if fork:
            self.open_fork(fork)

    def open_fork(self, path) -> None:
        """A save to open next, in place of this game (a replay's "Play on from here")."""
        self.next_game = str(path)
        self.say(f"opening the fork {path}", GOOD)

    def finish_step(self) -> None:
        """Enter without the forms: FinishStep for the first pending decider, as its player."""
        if self.game is None:
            return
        k = self.game.state.kernel
        actor = k.acting_power()
        if actor is None:
            self.say("nobody is to decide now", DIM)
            return
        outcome = Decisions(self.game).submit({"type": "FinishStep", "actor": actor})  # as the actor's player
        self.say(f"{actor}: finished" if outcome.accepted else outcome.reason, GOOD if outcome.accepted else ACCENT)

# ---------------------------------------------------------------------- the program
def main(args) -> int:
    """``wif play [SAVE]``: the game window on SAVE, or on a new game of ``--scenario``, else the
    Start New Game form first; one main loop over a stack of scenes (app/scenes.py)."""
    from kernel.errors import WifError

    from .scenes import GameScene, NewGameScene, SceneStack

    pygame.display.init()
    pygame.font.init()
    stack = SceneStack()
    driver = None  # the bot at the mouse (--autoplay)
    try:
        if getattr(args, "server", None):  # a game on a server (issue #15): app/netplay.py
            from .netplay import server_scene

            stack.push(server_scene(args))
        elif args.save:
            game = Game.open(args.save, read_only=getattr(args, "read_only", False))
            stack.push(GameScene(game, args.dev))
            for problem in game.problems:  # why it opened read-only, on the console and in the window
                print(f"read-only: {problem}")
                stack.top.window.say(f"read-only: {problem}", ACCENT)
        elif getattr(args, "scenario", None):
            from .newgame import quick_start

            path = new_save_path(args.scenario)
            game = quick_start(args.scenario, path)  # with the optional-rule framework, as Start New Game
            print(f"new game of {args.scenario}: {path}")
            stack.push(GameScene(game, args.dev))
        else:
            stack.push(NewGameScene("barbarossa", new_save_path, args.dev))
        if getattr(args, "autoplay", False):  # a bot at the mouse, to watch a game play itself
            from .guidriver import GuiDriver

            driver = GuiDriver(policy=args.policy, seed=args.seed, delay=args.delay, quit_at_victory=False)
        stack.run(frames=args.frames, screenshot=args.screenshot, each_frame=driver)
        if driver is not None:
            print(autoplay_summary(driver.figures))
    except WifError as exc:
        if driver is not None:
            print(autoplay_summary(driver.figures))
        print(f"error: {exc}")
        return 1
    finally:
        stack.clear()
        pygame.quit()
    return 0


def autoplay_summary(figures) -> str:
    """What ``--autoplay`` did, for docs/BENCHMARKS.md: frames drawn per second up to the
    Victory form (the window idles on it afterwards), else over the whole run."""
    frames, seconds = figures.to_victory or (figures.frames, figures.seconds)
    commands = sum(figures.commands.values())
    rate = frames / seconds if seconds else 0.0
    end = "to the Victory form" if figures.to_victory else "(no Victory form)"
    return (f"autoplay: {frames} frames, {figures.actions} inputs, {commands} commands in {seconds:.0f} s {end}: "
            f"{rate:.1f} frames/s")
