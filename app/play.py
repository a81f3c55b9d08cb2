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
layouts (app/viewlists.py), drawing the panels (app/panels.py), its look (app/windowstyle.py),
its screen layout (app/windowlayout.py), where the map opens (app/front.py);
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
from .front import FrontView
from .views import LayoutStore, MapView, MapViewStore, ScreenLayout
from .windowinput import WindowInput
from .windowlayout import WindowLayout
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



def new_save_path(scenario: str) -> Path:
    return REPO_ROOT / "saves" / f"{scenario}-{time.strftime('%Y%m%d-%H%M%S')}.wif"


class GameWindow(WindowInput, ViewLists, PanelDrawing, WindowLayout, FrontView):
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
