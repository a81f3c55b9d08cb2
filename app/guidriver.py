"""A player at the window made of posted events: plays the open program (app/scenes.py) with
the mouse and the keyboard only, from the Start New Game form to the Victory form.

Each frame, once the window has handled every event of the last input, the driver looks at
the screen as a player does.  For the decision the game waits for it asks a bot of
app/bots.py (which reads ``Game.choices``, never a rule) which command to make, then finds
where to click so that the forms build exactly that command: the Play form's buttons and
lists, hexes and counters on the detailed map (centred first through the global map or the
arrow keys when off screen, dragged out from under a form when covered), the Setup Tray's rows.  It never submits: the forms do, as for a player.

A command the forms cannot build, or a click that changes nothing on screen, stops the run
with ``Stuck`` naming what was tried: both are bugs of the forms.

Used by ``wif play --autoplay`` (a person watches a game play itself) and by
tests/app/test_whole_game_window.py."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

import pygame

from kernel.errors import WifError

from .bots import Bot, controller_of, side_of_decider
from .commandfill import SINGLE, CommandFill, one_click, same
from .fieldforms import fillable
from .guiclicks import (Action, drop_down, find_button, list_row, on_map, post, scroll_positions, scroll_to,
                        under_layer, visible_point)
from .net.client import OutOfDate
from .setuptray import AT_SEA, PLACE, TRAY_COMMANDS

SWALLOWED_AT_MOST = 3  # clicks in a row that change nothing before the driver gives up
STACK_CLICKS = 12
WHEELS_AT_MOST = 40  # wheel turns at one place before the driver gives up on scrolling there
AIM_INPUTS_AT_MOST = 400  # wheel turns, keys or drags for one aim, even when each moves something
INPUTS_WITHOUT_A_CLICK_AT_MOST = 1500  # wheel turns, keys and drags with no click between: aims in a loop
# Watching a list glide towards a row, the driver gives up after this many frames AND seconds:
# pygame_gui glides by the time between frames, so on a quiet machine 300 frames may pass before
# a glide of a fraction of a second ends (a fresh clone's Guadalcanal game stopped so once)
WAITS_AT_MOST = 300
WAIT_SECONDS_AT_MOST = 10.0
IDLE_AT_MOST = 300  # frames with nothing to click (no decision shown) before the driver gives up  # clicks on one stack while looking for one of its units


class Stuck(WifError):
    """The forms cannot make the command the driver set out to make (a bug of the forms)."""


@dataclass
class Figures:
    frames: int = 0
    actions: int = 0
    commands: dict[str, int] = field(default_factory=dict)  # commands the driver set out to make, by type
    seconds: float = 0.0
    victory_seen: bool = False
    victory_rect: tuple | None = None
    to_victory: tuple[int, float] | None = None  # (frames, seconds) when the Victory form first showed


class GuiDriver:
    """``each_frame`` of ``SceneStack.run``: posts at most one input a frame."""

    def __init__(self, policy: str = "random", seed: int = 0, delay: float = 0.0, scenario: str = "barbarossa",
                 mode: str = "hotseat", screenshot: str | None = None, quit_at_victory: bool = True):
        self.policy, self.seed, self.delay = policy, seed, delay
        self.scenario, self.mode = scenario, mode
        self.screenshot = screenshot  # a PNG of the window, saved now and then mid-game
        self.quit_at_victory = quit_at_victory
        self.bots: dict[str, Bot] = {}
        self.target: dict | None = None  # the command being made
        self._target_at = None
        self.figures = Figures()
        self._started = time.perf_counter()
        self._next_at = 0.0
        self._before = None  # what the screen said before the last click
        self._last: Action | None = None
        self._swallowed = 0
        self._judged = False  # the last click's effect was looked at
        self._stack_clicks = 0
        self.done = False
        self._idle = 0
        self._wheels = 0
        self._aim_inputs = 0
        self._since_click = 0
        self._waits = 0
        self._waiting_since = 0.0
        self._positions: tuple = ()  # the scroll bars' positions at the last input
        self.scrolling: list = []
        self._pointer: tuple[int, int] | None = None  # where the pointer was left
        self.trace = bool(os.environ.get("WIF_DRIVER_TRACE"))

    # ------------------------------------------------------------------ each frame
    def __call__(self, stack) -> None:
        self.figures.frames += 1
        self.figures.seconds = time.perf_counter() - self._started
        if self.done or pygame.event.peek():
            return  # the window has not handled the last input yet
        if self.delay and time.monotonic() < self._next_at:
            return
        from .scenes import GameScene, NewGameScene

        top = stack.top
        if isinstance(top, NewGameScene) and top.form is not None:
            action = self.new_game(top)
        elif isinstance(top, GameScene) and top.window is not None and top.window.play is not None \
                and top.window.play.form is not None:  # drawn once: the forms are built
            self._check_swallowed(top.window)
            action = self.play(top.window)
        else:
            return
        if action is None:
            self._idle += 1
            # on the Victory form the window idles (``wif play --autoplay`` keeps it open): not stuck
            if self._idle > IDLE_AT_MOST and not self.done and self.figures.to_victory is None:
                raise Stuck(f"nothing to click for {IDLE_AT_MOST} frames (the game waits for "
                            f"{top.game.state.kernel.sequence.pending if hasattr(top, 'game') else '?'})")
            return
        self._idle = 0
        if action.kind == "wait":
            self.wait(action)
            return
        self._waits = 0
        first = self.pointer_first(action)
        if first is not action:
            post(first)
            return
        gui = top.window.gui if isinstance(top, GameScene) else top.form.gui
        positions = scroll_positions(gui)
        self.judge_progress(action, moved=positions != self._positions)
        self._positions = positions
        self._last, self._judged = action, False
        self.figures.actions += 1
        if self.trace:
            print(f"frame {self.figures.frames}: {action.kind} {action.what} {action.pos}", flush=True)
        post(action)
        self._next_at = time.monotonic() + self.delay

    def judge_progress(self, action: Action, moved: bool = False) -> None:
        """Raise ``Stuck`` when the inputs to scroll something into view are going nowhere
        (``moved``: a scroll bar moved since the last input)."""
        # wheel turns or scrolling keys for one aim (a key towards a hex may alternate direction)
        same_aim = action.kind in ("wheel", "key", "drag") and self._last is not None \
            and self._last.kind == action.kind and self._last.what == action.what
        # a wheel turn over a scroll bar whose handle moved since the last one made progress (a
        # long form takes many): only turns that move nothing, or very many, mean it cannot be done
        progress = same_aim and action.kind == "wheel" and (self._last.pos != action.pos or moved)
        self._wheels = 0 if not same_aim else self._wheels if progress else self._wheels + 1
        self._aim_inputs = self._aim_inputs + 1 if same_aim else 0
        if self._wheels > WHEELS_AT_MOST or self._aim_inputs > AIM_INPUTS_AT_MOST:
            inputs = {"wheel": "wheel turns", "key": "keys", "drag": "drags of the map"}[action.kind]
            raise Stuck(f"{WHEELS_AT_MOST} {inputs} did not bring "
                        f"{action.what} into view (making {self.target})")
        # two aims taking turns (each undoing the other's scrolling) never trip the checks above
        self._since_click = 0 if action.kind == "click" else self._since_click + 1
        if self._since_click > INPUTS_WITHOUT_A_CLICK_AT_MOST:
            raise Stuck(f"{INPUTS_WITHOUT_A_CLICK_AT_MOST} inputs without a click, the last for {action.what} "
                        f"(making {self.target})")

    def pointer_first(self, action: Action) -> Action:
        """The input to post for ``action`` now: the pointer's move alone when a wheel turn is
        aimed somewhere the pointer is not, as a player's hand comes to rest over a list before
        it turns the wheel.  pygame_gui gives a wheel turn to the scroll bar of what the pointer
        hovered at the last frame: turned at once, it scrolled the form the pointer had just left
        (the Guadalcanal run that scrolled the Play form and a list inside it in turn, forever)."""
        if action.kind == "wheel" and action.pos != self._pointer:
            self._pointer = action.pos
            return Action("move", action.pos, what=action.what)
        if action.kind in ("click", "wheel", "move"):
            self._pointer = action.pos
        elif action.kind == "drag":
            self._pointer = action.to
        return action

    # ------------------------------------------------------------------ Start New Game
    def new_game(self, scene) -> Action | None:
        from .newgame import MODES

        form = scene.form
        if form.done:
            return None
        if form.mode != self.mode:
            return drop_down(form.gui, form.mode_menu, MODES[self.mode])
        if form.scenario != self.scenario:
            return drop_down(form.gui, form.scenario_menu, form.scenarios.get(self.scenario, self.scenario))
        pos = visible_point(form.gui, form.start_button)
        if pos is None:
            raise Stuck("the Start button of the Start New Game form cannot be clicked")
        return Action("click", pos, what="Start")

    # ------------------------------------------------------------------ the game window
    def play(self, window) -> Action | None:
        play = window.play
        self.scrolling = [play.body.area] if play.body is not None else []  # the Play form scrolls
        game = window.game
        gui = window.gui
        victory = next((w for w in play.popups.open if getattr(w, "report", None) is not None
                        or w.window_display_title == "Victory"), None)
        if victory is not None:
            self._victory(window, victory)
            return None
        if play.popups.open:  # results of a roll, the weather report: read, then OK
            popup = play.popups.open[-1]
            return self._click(gui, find_button(popup, text="OK"), f"OK of {popup.window_display_title!r}")
        if game.state.kernel.sequence.finished:
            return None  # the Victory form opens with the next frame
        if play.hidden() and getattr(game, "remote", False):  # a server game: the other side moves at its machine
            self._idle = -1  # waiting for it is not being stuck
            return None
        if play.hidden():
            return self._click(gui, find_button(play.form, takes_screen=play.decisions.deciding_player()),
                               "the hot seat's 'I am ...' button")
        self._maybe_screenshot(window)
        command = self._command(play)
        if command is None:
            return None
        return self.make(window, command)

    def _victory(self, window, form) -> None:
        self.figures.victory_seen = form.visible and form.alive()
        if self.figures.to_victory is None:
            self.figures.to_victory = (self.figures.frames, self.figures.seconds)
        self.figures.victory_rect = tuple(form.get_abs_rect())
        if self.screenshot:
            window.draw()
            pygame.image.save(window.screen, self.screenshot.replace(".png", "-victory.png"))
        if self.quit_at_victory:
            self.done = True
            pygame.event.post(pygame.event.Event(pygame.QUIT))

    def _maybe_screenshot(self, window) -> None:
        k = window.game.state.kernel
        if self.screenshot and self.figures.actions and self.figures.actions % 400 == 0:
            window.draw()
            pygame.image.save(window.screen, self.screenshot)

    def wait(self, action: Action) -> None:
        """One more frame watching ``action.what`` come (a list gliding); Stuck once that has
        lasted WAITS_AT_MOST frames and WAIT_SECONDS_AT_MOST seconds."""
        if self._waits == 0:
            self._waiting_since = time.monotonic()
        self._waits += 1
        if self._waits > WAITS_AT_MOST and time.monotonic() - self._waiting_since > WAIT_SECONDS_AT_MOST:
            raise Stuck(f"{self._waits} frames and {WAIT_SECONDS_AT_MOST:g} s waiting for {action.what} "
                        f"(making {self.target})")

    def _command(self, play) -> dict | None:
        """The bot's command for the decision shown, chosen once per position of the game."""
        decisions = play.decisions
        position = decisions.position(decisions.deciding_player())
        if self.target is not None and self._target_at == position:
            return self.target
        decision = decisions.decision()
        if decision is None:
            return None
        game = play.game
        side = side_of_decider(game, decision.decider)
        bot = self.bots.setdefault(side, Bot(self.policy, self.seed * 31 + len(self.bots)))
        try:
            command = bot.choose(game, decision, controller_of(game, decision.decider))
        except OutOfDate:  # a server game moved on while the bot looked: look again next frame
            return None
        if command is None:
            raise Stuck(f"{decision.decider} has nothing it may do in {decision.title!r}")
        self.target, self._target_at = command, position
        self._stack_clicks = 0
        self.figures.commands[command["type"]] = self.figures.commands.get(command["type"], 0) + 1
        return command

    # ------------------------------------------------------------------ making one command
    def make(self, window, command: dict) -> Action:
        play, gui = window.play, window.gui
        if command["type"] == "FinishStep":
            return self._click(gui, find_button(play.form, finishes=True), "the end-of-phase button")
        if command["type"] in TRAY_COMMANDS and play.tray.active():
            return self.tray(window, command)
        choice = next((c for c in play.decisions.offered(command["type"]) if c.actor == command["actor"]), None)
        if choice is None:
            raise Stuck(f"{command['type']} for {command['actor']} is not on the forms")
        if not fillable(choice):
            raise Stuck(f"{command['type']}: the form cannot fill it in")
        if not choice.fields or one_click(choice) is not None:
            return self._click(gui, find_button(play.form, command=command), f"the {command['type']} button")
        if play.fill is None or play.fill.choice is not choice:
            return self._click(gui, find_button(play.form, fills=(choice.type, choice.actor)),
                               f"the {command['type']} command button")
        return self.fill(window, play.fill, command)

    def fill(self, window, fill: CommandFill, command: dict) -> Action:
        """The next click that brings the filled-in command closer to ``command``."""
        play, gui = window.play, window.gui
        path, pending = fill.walk()
        for f in path:
            want = command.get(f.name)
            have = fill.values.get(f.name)
            if f.kind in SINGLE:
                if f is not pending and same(have, want):
                    continue
                if f is not pending:  # chosen otherwise: the next unit of its stack, else choose again
                    where = play.map.unit_hex(want) if f.kind == "unit" else None
                    if where is not None and where == play.map.unit_hex(have) and self._stack_clicks < STACK_CLICKS:
                        self._stack_clicks += 1
                        return on_map(window, where, f"the counter of {want} (next in its stack)")
                    return self._click(gui, find_button(play.form, clears=f.name), f"'change' of {f.name}")
                return self._single(window, fill, f, want)
            if f.kind == "units":
                if sorted(map(repr, have or [])) != sorted(map(repr, want or [])):
                    return self._units(window, f, have or [], want or [])
            elif f.kind == "number" and have != want:
                step = 1 if want > have else -1
                return self._click(gui, find_button(play.form, steps=(f.name, step)), f"{'+' if step > 0 else '-'} of {f.name}")
        if pending is None:
            return self._click(gui, find_button(play.form, command=fill.command()), f"the {fill.type} button")
        raise Stuck(f"{fill.type}: field {pending.name} ({pending.kind}) cannot be filled in on the form")

    def _single(self, window, fill, f, want) -> Action:
        play, gui = window.play, window.gui
        what = f"{f.name} {want}"
        where = tuple(want) if f.kind == "hex" else play.map.unit_hex(want) if f.kind == "unit" else None
        # a sea box drawn over the hex takes the click: choose on the form, as a player would
        by_form = where is not None and under_layer(window, where) and \
            (find_button(play.form, sets=(f.name, want)) or find_button(play.form, field_name=f.name)) is not None
        if f.kind == "hex" and not by_form:
            return on_map(window, tuple(want), what)
        if f.kind == "unit" and not by_form:
            if where is not None and self._stack_clicks < STACK_CLICKS:
                self._stack_clicks += 1  # a second click on the same stack picks its next unit
                return on_map(window, where, f"the counter of {want}")
        button = find_button(play.form, sets=(f.name, want))
        if button is not None:
            return self._click(gui, button, what)
        lst = find_button(play.form, field_name=f.name)
        if lst is not None:
            index = next((i for i, o in enumerate(lst.options) if same(o.value, want)), None)
            if index is not None:
                # the list whole in the form's view first: a wheel over a half-hidden list scrolls it
                action = scroll_to(gui, lst, f"the list of {f.name}", self.scrolling) or list_row(gui, lst, index, what)
                if action is not None:
                    return action
        raise Stuck(f"{fill.type}: no way on screen to choose {what}")

    def _units(self, window, f, have: list, want: list) -> Action:
        """Toggle one unit of a ``units`` field: a whole stack on the map when that is exactly
        what is needed, else the unit's row in the field's list."""
        play, gui = window.play, window.gui
        wrong = [u for u in have if not any(same(u, w) for w in want)] + \
            [u for u in want if not any(same(u, h) for h in have)]
        unit = wrong[0]
        where = play.map.unit_hex(unit)
        if where is not None and not under_layer(window, where):  # a sea box over it takes the click
            here = [u for u in play.map.units_in(where) if CommandFill.option(f, u) is not None]
            adding = any(same(unit, w) for w in want)
            if all(any(same(u, w) for w in (want if adding else wrong)) for u in here) and \
                    all(any(same(u, h) for h in have) != adding for u in here):
                return on_map(window, where, f"the stack of {unit}")
        lst = find_button(play.form, field_name=f.name)
        index = next((i for i, o in enumerate(lst.options) if same(o.value, unit)), None) if lst is not None else None
        action = (scroll_to(gui, lst, f"the list of {f.name}", self.scrolling)  # the list whole in view first
                  or list_row(gui, lst, index, f"row of {unit}")) if index is not None else None
        if action is None:
            raise Stuck(f"{f.name}: no way on screen to choose {unit}")
        return action

    # ------------------------------------------------------------------ the Setup Tray
    def tray(self, window, command: dict) -> Action:
        tray, gui = window.play.tray, window.gui
        form = tray.form
        if form is None:
            raise Stuck("the Setup Tray is not open")
        if command["type"] not in (PLACE, AT_SEA):
            return self._click(gui, find_button(form, text="Restore Setup"), "Restore Setup")
        unit = command[next(iter(k for k in command if k not in ("type", "actor")))]
        others = [u for u in tray.in_stack if u != unit]
        if others or unit not in tray.in_stack:
            listed = tray.listed_units()
            pick = others[0] if others else unit
            if pick not in listed:
                return list_row(gui, form.area_list, 0, "All areas") or self._stuck("the tray's area list")
            return list_row(gui, form.unit_list, listed.index(pick), f"tray row of {pick}") or \
                self._stuck(f"the tray's row of {pick}")
        where = next(v for k, v in command.items() if k not in ("type", "actor") and v != unit)
        if command["type"] == AT_SEA:  # the sea box's row in the tray's list of sea boxes
            seas = form.sea_list
            index = next((i for i, o in enumerate(seas.places) if same(o.value, where)), None) if seas else None
            return (list_row(gui, seas, index, f"tray row of {where}") if index is not None else None) or \
                self._stuck(f"the tray's row of {where}")
        return on_map(window, tuple(where), f"place {unit} at {where}")

    # ------------------------------------------------------------------ clicks
    def _click(self, gui, element, what: str) -> Action:
        if element is not None:
            # a widget partly below the scrolling area's edge is scrolled whole into view first
            # (a click on its visible sliver lands on the form's edge and is lost)
            scroll = scroll_to(gui, element, what, self.scrolling)
            if scroll is not None:
                return scroll
        pos = visible_point(gui, element) if element is not None else None
        if pos is None:
            raise Stuck(f"{what} is not on screen" + ("" if element is not None else " (no such element)")
                        + f" while making {self.target}")
        return Action("click", pos, what=what)

    def _stuck(self, what: str):
        raise Stuck(f"{what} cannot be clicked while making {self.target}")

    def _check_swallowed(self, window) -> None:
        """A click must change something a player sees (issue: a click is never swallowed)."""
        play = window.play
        fill = play.fill
        dmap = window.primary
        now = (window.game.state.kernel.seq, play.at_screen, len(play.popups.open), fill.type if fill else None,
               repr(fill.values) if fill else None, tuple(play.tray.in_stack), play.tray.area, play.status,
               (round(dmap.fx, 2), round(dmap.fy, 2)) if dmap else None, play.decisions.position())
        last, before, self._before = self._last, self._before, now
        if last is None or last.kind != "click" or before is None or self._judged:
            return
        self._judged = True  # once: the frames after it, while the driver waits, are no clicks
        if now != before:
            self._swallowed = 0
            return
        self._swallowed += 1
        if self._swallowed >= SWALLOWED_AT_MOST:
            raise Stuck(f"a click on {last.what} at {last.pos} changed nothing (making {self.target})")


def run(stack, driver: GuiDriver, fps: int | None = None) -> Figures:
    """Run the program's main loop with ``driver`` at the mouse until the Victory form."""
    stack.run(each_frame=driver, fps=fps)
    return driver.figures
