"""Playing on the map: the forms through which a player makes every decision.

The forms ask the game (``app.decisions``): every command they offer, every value of every
field, is what ``Game.choices`` offers the deciding player now, and what a command would do
(a move's path and cost, an attack's odds) is ``Game.preview``.  Each decision is a command
submitted as the player who controls its actor, so it is in the log and a rule refuses it
exactly as it would refuse ``wif submit``; a refusal's reason is shown and nothing is appended.

Forms (seed section titles): the "Sequence of Play" header with the flag of the deciding
power; every offered command (``app.fieldforms``: "Action Choice" and the "Move First
Decision" as buttons, moves and attacks field by field, with the map); "Selectable Units"
(``app.selectable``); the "Setup Tray" (``app.setuptray``); the results of rolls, the
"Weather Report" and "Victory" (``app.results``); the end-of-phase button (FinishStep).
In hot seat the form asks for the next player before it shows his decisions.

Whenever the game moves on (an event, a new step) the forms are rebuilt from the choices of
the new position, so no state of an earlier step (a rail move being filled in) survives it.

This file holds what the forms do (submitting, the command being filled in, where the forms
open, when they are rebuilt); what the Play form shows is built in app/playform_contents.py.
"""

from __future__ import annotations

import pygame

from .commandfill import CommandFill, one_click, title_of
from .decisions import Decisions
from .fieldforms import PREVIEW_H, fillable, hover_text, preview_text, refused
from .forms import FormBody, FormWindow, Gui, gui_text
from .mapinput import MapInput
from .playform_contents import FINISH, PlayFormContents, flag_surface
from .results import Popups
from .selectable import SelectableUnits
from .setuptray import TRAY_COMMANDS, SetupTray
from .wording import in_words, moves_told_twice

RED = (230, 90, 70)
GREEN = (120, 200, 120)


class PlayForms(PlayFormContents):
    """The decision forms of one game window (what the Play form shows: app/playform_contents.py)."""

    WIDTH = 330

    def __init__(self, window):
        self.window = window
        self.game = window.game
        self.gui: Gui = window.gui
        self.decisions = Decisions(self.game)
        self.hot_seat = (self.game.state.kernel.options or {}).get("mode") == "hotseat"
        self.at_screen: str | None = None  # hot seat: the player who said he is at the screen
        self.fill: CommandFill | None = None  # the command being filled in on the form and the map
        self.status: tuple[str, tuple] = ("", RED)
        self.log: list[str] = []
        self.form: FormWindow | None = None
        self.body: FormBody | None = None  # the Play form's scrolling inside
        self._top_again = False  # scroll the Play form back to its top at the next build
        self.popups = Popups(self.gui, self.game, window.model)
        self.selectable = SelectableUnits(self)
        self.tray = SetupTray(self)
        self.map = MapInput(self)
        self._position = None
        self._built_for = None
        self._finished_at = None  # the position the Play form was last built for
        self._hover_box = None  # the Play form's preview of the hovered hex, while it shows one
        self.game.listeners.append(lambda game, records: self.popups.on_events(records))

    # ------------------------------------------------------------------ who decides
    def actor(self) -> str | None:
        return self.decisions.decider()

    def hidden(self) -> bool:
        """Hot seat: the decisions are hidden until the deciding player is at the screen."""
        player = self.decisions.deciding_player()
        return self.hot_seat and player is not None and player != self.at_screen

    def take_screen(self, player: str) -> None:
        self.at_screen = player
        self._built_for = None

    def status_is_refusal(self) -> bool:
        return self.status[1] == RED

    # ------------------------------------------------------------------ submitting
    def submit(self, command: dict) -> bool:
        # as the player at the screen in hot seat (the kernel checks he controls the actor)
        outcome = self.decisions.submit(command, player=self.at_screen if self.hot_seat else None)
        if not outcome.accepted:
            self.say(in_words(self.game, outcome.reason), RED)
            return False
        done, told = f"{title_of(command['type'])}: done", 0
        # End phase: "Germany finished Land Movement", whatever the next steps did by themselves
        finished = next((in_words(self.game, self.game.describe(r)) for r in outcome.events
                         if r.type == "DecisionFinished"), None)
        told_twice = moves_told_twice(outcome.events)  # the kernel's "moves to" beside the rules' line
        for record in outcome.events:
            if record.type.startswith(("Step", "Digression", "Decision")):
                continue  # the Sequence of Play header already says where the game is
            if record.seq in told_twice:
                continue
            text = in_words(self.game, self.game.describe(record))
            if text:
                self.log.append(gui_text(text))
                told += 1
                done = text  # the status says what happened, in words (issue 11 item 5)
        if finished is not None:
            done = finished + (f" (and {told} more: see the log)" if told else "")
        elif told > 1:
            done = f"{title_of(command['type'])}: {done} (and {told - 1} more: see the log)"
        self.status = (done, GREEN)
        self.log = self.log[-40:]
        self._built_for = None
        return True

    def say(self, text: str, colour=RED) -> None:
        self.status = (text, colour)
        if colour == RED:
            self.window.say(text, colour)
        self._built_for = None

    def finish_step(self) -> None:
        """End phase: FinishStep by the deciding power, as its player.  When the game does not
        offer it (a mandatory decision is left) it is still sent, so the rule says why."""
        offered = self.decisions.finish()
        actor = offered.actor if offered is not None else self.actor()
        if actor is None or self.hidden():
            return
        self.submit({"type": "FinishStep", "actor": actor})

    def finish_refusal(self) -> str | None:
        """Why the deciding power may not finish the step yet (the rules' reason), or None."""
        if self.decisions.finish() is not None or self.actor() is None:
            return None
        k = self.game.state.kernel
        return self.game.host.pm.hook.finish_step_refusal(state=self.game.state, step_id=k.sequence.current,
                                                          power=self.actor())

    # ------------------------------------------------------------------ the command being filled in
    def _new_position(self) -> None:
        """The game moved on: fill in afresh the same command if it is still offered (the next
        unit to move), else the first command played on the map."""
        offered = [c for c in self.decisions.commands() if c.type != "FinishStep" and c.fields and fillable(c)
                   and one_click(c) is None and c.type not in TRAY_COMMANDS]
        previous = self.fill
        keep = next((c for c in offered if previous is not None and c.type == previous.type
                     and c.actor == previous.actor), None)
        on_map = next((c for c in offered if c.fields[0].kind in ("unit", "units", "hex")), None)
        chosen = keep or on_map or (offered[0] if offered else None)
        self.fill = CommandFill(chosen) if chosen is not None else None
        self.map.forget()
        self._top_again = self.fill is None or previous is None or self.fill.type != previous.type

    def fill_in(self, choice) -> None:
        """The player picked another offered command to fill in."""
        self.fill = CommandFill(choice)
        self.map.forget()
        self._built_for = None

    def choose_unit(self, field_name: str, unit_id) -> None:
        """A unit picked in the Selectable Units list (as a click on it on the map would)."""
        if self.fill is None:
            return
        f = self.fill.field(field_name)
        if f is not None and f.kind == "units":
            self.fill.toggle(field_name, [unit_id])
        elif self.fill.set(field_name, unit_id):
            self.map.selected(unit_id)
        self._built_for = None

    def fill_changed(self) -> None:
        self.map.forget_hover()
        self._built_for = None

    def preview(self) -> dict | None:
        """What the filled-in command would do (the hovered destination's while one is pending)."""
        if self.fill is None:
            return None
        if self.fill.complete():
            return self.decisions.preview(self.fill.command())
        return self.map.hover_preview

    # ------------------------------------------------------------------ where the forms are
    def form_rect(self, kind: str) -> pygame.Rect:
        """Where a form opens: the screen layout's "play" / "selectable" / "setup_tray" window
        (seeds, "Screen Layouts": every form's position is stored per layout), else defaults."""
        sw, sh = self.gui.size
        g = self.window.form_geometry.get(kind)
        if g is not None:
            return pygame.Rect(g.x, g.y, g.w, g.h)
        if kind == "play":
            return pygame.Rect(sw - self.WIDTH, 100, self.WIDTH, min(560, sh - 110))
        if kind == "setup_tray":  # seeds: "The setup tray is small at the bottom"
            return pygame.Rect(0, sh - 240, min(sw - self.WIDTH, 700), 240)
        return pygame.Rect(0, 100, 230, 330)

    def forms(self) -> dict:
        return {kind: form for kind, form in (("play", self.form), ("selectable", self.selectable.form),
                                              ("setup_tray", self.tray.form)) if form is not None}

    def place_forms(self) -> None:
        """A new screen layout: move the open forms where it puts them."""
        for kind, form in self.forms().items():
            form.place(self.form_rect(kind))
        self._built_for = None  # rebuild the contents for the new size
        self.selectable._built_for = self.tray._built_for = None

    def form_geometries(self) -> dict:
        """The forms' places now, as layout windows (for Save / Redefine)."""
        from .views import WindowGeometry

        out = {}
        for kind, form in self.forms().items():
            r = form.visible_rect()
            out[kind] = WindowGeometry(x=r.x, y=r.y, w=r.width, h=r.height, rolled=form.rolled)
        return out

    # ------------------------------------------------------------------ building
    def refresh(self) -> None:
        """Rebuild the forms when the game moved on or the player chose something (called every
        frame; cheap otherwise)."""
        position = self.decisions.position(self.decisions.deciding_player())
        if position != self._position:
            self._position = position
            self._new_position()
        fill = self.fill
        key = (position, self.at_screen, fill.type if fill else None, repr(fill.values) if fill else None,
               self.map.hover_key(), self.status[0])
        self.tray.refresh()  # cheap when nothing changed; the tray keeps its own key
        if key != self._built_for:
            if not self._hover_only(key):
                self.build_play_form()
            self._built_for = key
        if self.body is not None:
            self.body.settle_scroll()  # no button left a sliver where the player scrolled
        self.selectable.refresh()
        if self.game.state.kernel.sequence.finished and not self.popups.victory_shown:
            self.popups.victory_shown = True  # a game opened after its end
            self.popups.victory()

    def _hover_only(self, key) -> bool:
        """Another offered hex hovered, nothing else changed: only the preview box's text is
        set (a rebuild moves every widget below it).  False when the form must be rebuilt."""
        built, box = self._built_for, self._hover_box
        hovered, preview = self.map.hover_hex, self.map.hover_preview
        if built is None or key[:4] != built[:4] or key[5] != built[5] or key[4] is None or built[4] is None \
                or box is None or not box.alive() or preview is None or not preview_text(preview):
            return False
        if refused(preview) != refused(getattr(box, "preview", None)):
            return False  # a refusal's box grows with its reason: built anew
        room = max(PREVIEW_H, box.rect.height)
        box.set_text(hover_text(hovered, preview, self.worded))
        box.preview = preview
        return max(PREVIEW_H, box.rect.height) == room  # a taller text (a long reason): widgets below move

    # ------------------------------------------------------------------ the map
    def map_click(self, hex_, unit_ids: list[str]) -> bool:
        return self.map.click(hex_, unit_ids)

    def hover(self, hex_) -> None:
        self.map.hover(hex_)

    def draw_overlay(self, surface: pygame.Surface, dmap, pos) -> None:
        self.map.draw(surface, dmap, pos)


__all__ = ["FINISH", "PlayForms", "RED", "flag_surface", "preview_text"]
