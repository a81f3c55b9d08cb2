"""The Start New Game form (seeds, "Opening Screen" and the Start New Game steps of the
sequence of play: mode of play, scenario, optional rules, player names, assigning major
powers), with "Open saved game…" and "Replay a saved game…".

The new game is made by the optional-rule framework, asked through its hook
``new_game_with_rules`` as ``wif new`` asks it: mode, player names and the rule preset go in the game's options, so they
are in the save's meta and its first event, GameStarted.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UITextBox, UITextEntryLine

from kernel.errors import WifError

from .forms import FormWindow, Gui
from .uihooks import ask_optional_rules
from .wording import power_name

MODES = {"solitaire": "Solitaire (one player, every power)", "hotseat": "Hot seat (players take turns at one screen)",
         "network": "Over the network (a game on a server)"}
HIDDEN_SCENARIOS = ("render_demo", "lab")  # test fixtures, not games


@dataclass
class Choice:
    """What the form ended with: a new game, a save to open, a save to replay, or quit (None)."""

    kind: str  # "game", "open", "replay"
    game: object = None
    path: str | None = None


def scenarios() -> dict[str, str]:
    from kernel.plugins import discover

    found = discover()
    return {i.id: i.manifest.name or i.id for i in found.plugins.values()
            if i.manifest.kind == "scenario" and i.id not in HIDDEN_SCENARIOS}  # id -> the title a player reads


def scenario_sides(scenario: str) -> dict[str, list[str]]:
    from kernel.plugins import PluginHost, discover, resolve

    found = discover()
    host = PluginHost(resolve([scenario], found.plugins))
    if scenario not in host.scenarios:
        raise WifError(f"plugin {scenario!r} registers no scenario {scenario!r}")
    return dict(host.scenarios[scenario].sides)


def presets() -> list[str]:
    """The presets and saved rule sets the optional-rule framework offers ("none" alone when
    it is not installed)."""
    try:
        return ask_optional_rules("optional_rules_catalogue")["presets"]
    except WifError:
        return ["none"]


def quick_start(scenario: str, path, seed: int | None = None):
    """A new game of ``scenario`` at once (``wif play --scenario``, ``tools/dev.py play``), made
    as the form's Start makes one: by the optional-rule framework, no rule ON, so the
    framework is in the game and Ctrl+O lists its rules (seeds, "Optional Rules")."""
    return ask_optional_rules("new_game_with_rules", scenario=scenario, path=path, preset="none", rules_on=[],
                              rules_off=[], options={"mode": "solitaire"}, players=None, seed=seed)


class NewGameForm:
    def __init__(self, gui: Gui, default_scenario: str, save_path, saves_folder: Path | None = None):
        self.gui = gui
        self.save_path = save_path  # scenario -> Path of the new save
        self.saves_folder = saves_folder or Path(__file__).resolve().parent.parent / "saves"  # where the picker opens
        self.choice: Choice | None = None
        self.done = False
        self.scenarios = scenarios()
        self.scenario = default_scenario if default_scenario in self.scenarios else next(iter(self.scenarios), "")
        self.mode = "solitaire"
        self.preset = "none"
        self.rules_on: list[str] | None = None  # set once the player edits the rule tabs
        self.rules_form = None
        self.confirm_quit: FormWindow | None = None  # the "Quit?" question, while open
        self.names = ["Player-1", "Player-2"]  # a player's name is one word (kernel/keys.py: no spaces)
        self.assign: dict[str, int] = {}  # power -> player index
        self.status = ""
        self.window: FormWindow | None = None
        self.build()

    def sides(self) -> dict[str, list[str]]:
        try:
            return scenario_sides(self.scenario)
        except WifError as exc:  # a broken or missing scenario plugin: say which
            self.status = f"scenario {self.scenario}: {exc}"
            return {}

    def build(self) -> None:
        sw, sh = self.gui.size
        if self.window is not None:
            self.gui.close(self.window)
        w, h = 620, 560
        win = FormWindow(self.gui, pygame.Rect((sw - w) // 2, max(0, (sh - h) // 2), w, h), "Start New Game",
                         object_id="#new_game")
        self.window = win
        m = self.gui.manager
        y = 8
        UILabel(pygame.Rect(8, y, 140, 30), "Mode of play", m, container=win)
        self.mode_menu = UIDropDownMenu(list(MODES.values()), MODES[self.mode], pygame.Rect(150, y, 420, 30), m,
                                        container=win)
        self.gui.on(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, self.mode_menu, self._mode_changed)
        y += 38
        UILabel(pygame.Rect(8, y, 140, 30), "Scenario", m, container=win)
        self.scenario_menu = UIDropDownMenu(list(self.scenarios.values()) or ["-"],
                                            self.scenarios.get(self.scenario, "-"),
                                            pygame.Rect(150, y, 420, 30), m, container=win)
        self.gui.on(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, self.scenario_menu, self._scenario_changed)
        y += 38
        UILabel(pygame.Rect(8, y, 140, 30), "Optional rules", m, container=win)
        self.preset_menu = UIDropDownMenu(presets(), self.preset, pygame.Rect(150, y, 310, 30), m, container=win)
        self.gui.on(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, self.preset_menu, self._preset_changed)
        rules_button = UIButton(pygame.Rect(466, y, 104, 30), "Rules...", m, container=win,
                                tool_tip_text="the optional rules, one tab per group")
        self.gui.on(pygame_gui.UI_BUTTON_PRESSED, rules_button, self.open_rules)
        y += 38
        players = 2 if self.mode in ("hotseat", "network") else 1
        self.name_entries = []
        for i in range(players):
            UILabel(pygame.Rect(8, y, 140, 30), f"Player {i + 1} name", m, container=win)
            entry = UITextEntryLine(pygame.Rect(150, y, 420, 30), m, container=win, initial_text=self.names[i])
            self.name_entries.append(entry)
            y += 38
        sides = self.sides()
        self.power_menus = {}
        if players == 2:
            UILabel(pygame.Rect(8, y, 300, 26), "Major powers per player", m, container=win)
            y += 28
            for side_index, (side, powers) in enumerate(sides.items()):
                for power in powers:
                    self.assign.setdefault(power, min(side_index, 1))
                    UILabel(pygame.Rect(20, y, 200, 28), f"{power_name(power)} ({power_name(side)})", m, container=win)
                    menu = UIDropDownMenu(["Player 1", "Player 2"], f"Player {self.assign[power] + 1}",
                                          pygame.Rect(230, y, 160, 28), m, container=win)
                    self.gui.on(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, menu,
                                lambda t, p=power: self.assign.__setitem__(p, int(t.split()[-1]) - 1))
                    self.power_menus[power] = menu
                    y += 32
        else:
            powers = ", ".join(power_name(p) for ps in sides.values() for p in ps)
            UILabel(pygame.Rect(8, y, 560, 26), f"You play every major power: {powers}", m, container=win)
            y += 30
        y = max(y + 8, 330)
        if self.mode == "network":  # server, game name, Create and Join (app/lobby.py)
            from .lobby import network_rows

            return network_rows(self, win, y)
        self.start_button = win.button((8, y, 180, 36), "Start", self.start)
        self.open_button = win.button((196, y, 180, 36), "Open saved game…", lambda: self.pick("open"))
        self.replay_button = win.button((384, y, 190, 36), "Replay a saved game…", lambda: self.pick("replay"))
        y += 44
        win.button((8, y, 100, 30), "Quit", self.quit)
        y += 36
        if self.status:
            UITextBox(self.status, pygame.Rect(8, y, 570, 80), m, container=win, object_id="#status")

    def _read_names(self) -> None:
        for i, entry in enumerate(self.name_entries):
            self.names[i] = entry.get_text().strip() or f"Player {i + 1}"

    def _mode_changed(self, text: str) -> None:
        self._read_names()
        self.mode = next(k for k, v in MODES.items() if v == text)
        self.build()

    def _scenario_changed(self, text: str) -> None:
        self._read_names()
        self.scenario = next((k for k, title in self.scenarios.items() if title == text), text)
        self.assign = {}
        self.build()

    def start(self) -> None:
        self._read_names()
        sides = self.sides()
        if not sides:
            self.build()
            return
        if self.mode == "hotseat":
            if self.names[0] == self.names[1]:
                self.status = "The two players need different names."
                self.build()
                return
            players = {self.names[0]: [], self.names[1]: []}
            for powers in sides.values():
                for power in powers:
                    players[self.names[self.assign.get(power, 0)]].append(power)
            if not all(players.values()):
                self.status = "Each player needs at least one major power."
                self.build()
                return
        else:
            players = {self.names[0]: [p for ps in sides.values() for p in ps]}
        options = {"mode": self.mode, "player_names": list(players)}
        path = self.save_path(self.scenario)
        preset, rules_on = (self.preset, ()) if self.rules_on is None else ("none", self.rules_on)
        try:
            game = ask_optional_rules("new_game_with_rules", scenario=self.scenario, path=path, preset=preset,
                                      rules_on=list(rules_on), rules_off=[], options=options, players=players, seed=None)
        except WifError as exc:
            self.status = str(exc)
            self.build()
            return
        self.choice = Choice("game", game=game, path=str(path))
        self.done = True

    def _preset_changed(self, text: str) -> None:
        self.preset = text
        self.rules_on = None  # a new preset replaces what the tabs had chosen

    def open_rules(self) -> None:
        """The Start New Game form's optional-rules tabs (seeds, Optional Rules): they start
        from the chosen preset; what they switch on or off is what the game starts with."""
        from .rulesform import new_game_rules_form

        if self.rules_on is None:
            try:
                # as the chosen scenario's game would take the preset (no Kamikaze without naval)
                self.rules_on = ask_optional_rules("optional_rules_choice_for_scenario", scenario=self.scenario,
                                                   preset=self.preset, rules_on=[], rules_off=[])["rules"]
            except WifError as exc:  # the framework is missing or the preset unreadable
                self.status = f"optional rules unavailable: {exc}"
                self.build()
                return
        if self.rules_form is not None and not getattr(self.rules_form, "closed", False):
            self.rules_form.close()
        self.rules_form = new_game_rules_form(self.gui, self.rules_on, lambda chosen: None, scenario=self.scenario)

    def pick(self, kind: str) -> None:
        from pygame_gui.windows import UIFileDialog

        sw, sh = self.gui.size
        folder = self.saves_folder
        dialog = UIFileDialog(pygame.Rect(max(0, sw // 2 - 260), max(0, sh // 2 - 220), 520, 440), self.gui.manager,
                              window_title="Open saved game" if kind == "open" else "Replay a saved game",
                              initial_file_path=str(folder if folder.exists() else Path.cwd()),
                              allow_picking_directories=False)
        self.gui.on(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, dialog, lambda text: self.picked(kind, text))
        self.dialog = dialog

    def picked(self, kind: str, path: str | None) -> None:
        if not path:
            return
        self.choice = Choice(kind, path=path)
        self.done = True

    def quit(self) -> None:
        self.choice = None
        self.done = True

    # ------------------------------------------------------------ Esc and the close button
    def escape(self) -> None:
        """Esc closes what is open over the form (the file picker, the rules tabs, the
        question itself: "Esc: back"), else asks before quitting, as the game window does."""
        dialog = getattr(self, "dialog", None)
        if self.confirm_quit is not None:
            self.keep_open()
        elif dialog is not None and dialog.alive():
            dialog.kill()
        elif self.rules_form is not None and not getattr(self.rules_form, "closed", False):
            self.rules_form.close()
        else:
            self.ask_quit()

    def ask_quit(self) -> None:
        sw, sh = self.gui.size
        rect = pygame.Rect((sw - 380) // 2, (sh - 112) // 2, 380, 112)
        form = FormWindow(self.gui, rect, "Quit World in Flames?", object_id="#confirm_quit")
        form.label((6, 4, rect.w - 44, 24), "Esc: back to Start New Game")
        form.button((6, 34, 150, 32), "Quit", self.quit)
        form.button((166, 34, 190, 32), "Back", self.keep_open)
        self.gui.modal.append(form)
        self.confirm_quit = form

    def keep_open(self) -> None:
        if self.confirm_quit is not None:
            self.gui.close(self.confirm_quit)
            self.confirm_quit = None
