"""Playing on the map: the forms through which a player makes every decision.

Every decision is a command submitted with ``game.submit(command, player=…)``: the forms
only build commands, so each one is in the log and a rule refuses it exactly as it would
refuse ``wif submit``; a refusal's reason is shown in the Play form and nothing is appended.

Forms (seed section titles): the "Sequence of Play" header with the flag of the deciding
power; "Action Choice" with the "Activity Limits" left; "Selectable Units"; land and rail
movement previews on the map ("Land Movement", "Rail Movement"); attack declaration with
the odds preview ("Land Combat"); the "Land Combat Chart" resolution form with its dice;
air mission forms and results ("Air Attacks", "Air-to-air Combat"); retreat and advance
(built from the command's fields); the "Weather Report"; the end-of-phase button
(FinishStep); the "Victory" form.  In hot seat the form asks for the next player before it
shows his decisions.
"""

from __future__ import annotations

import typing

import pygame
import pygame_gui
from pygame_gui.elements import UIImage, UILabel, UIScrollingContainer, UISelectionList, UITextBox

from . import mapstyle
from .forms import FormWindow, Gui

RED = (230, 90, 70)
PATH_COLOUR = (255, 230, 60)
REACH_COLOUR = (90, 200, 255)
TARGET_COLOUR = (255, 60, 60)
MOVE_COMMANDS = ("MoveLandUnit", "RailMove")
RESULT_EVENTS = {"LandCombatResolved": "Land combat resolution", "AirCombatRolled": "Air-to-air combat",
                 "GroundStrikeRolled": "Air mission results", "AirGroundSupportFlown": "Air mission results",
                 "AirMissionPerformed": "Air mission results"}
AIR_WORDS = ("Air", "Fly", "CAP", "Intercept")


def hex_text(h) -> str:
    return f"{h[0]},{h[1]}" if h is not None else "-"


def flag_surface(power: str, size=(36, 24)) -> pygame.Surface:
    """The deciding power's flag: its seeds colour with its initials (no flag art yet)."""
    s = pygame.Surface(size)
    s.fill(mapstyle.power_colour(power))
    pygame.draw.rect(s, (0, 0, 0), s.get_rect(), 1)
    from .detailed import font

    text = font(14, bold=True).render(power[:2].upper(), True, (255, 255, 255))
    s.blit(text, (size[0] // 2 - text.get_width() // 2, size[1] // 2 - text.get_height() // 2))
    return s


def victory_report(game) -> dict:
    """The victory result in words and the objectives table: the scenario's own count of the
    current state when it publishes ``count_objectives(state)`` (Barbarossa does), else the
    last ``ObjectivesCounted`` event's rows.  Rows: name, hex, value, controller, credited
    ({power: share of the value})."""
    import importlib

    state = game.state
    lines, rows, totals = [], [], {}
    recent = list(game.history(max(1, state.kernel.seq - 80)))
    for record in recent:
        if record.type == "VictoryDetermined":
            lines.append(f"<b>{record.data.get('result', '')}</b> (turn {record.data.get('turn')})")
        elif "Victory" in record.type or ("Game" in record.type and "End" in record.type):
            lines.append(game.describe(record) or f"{record.type}: {record.data}")
    counter = None
    for name in (state.kernel.scenario, state.kernel.options.get("scenario_rules")):
        try:
            counter = getattr(importlib.import_module(f"plugins.scenarios.{name}"), "count_objectives", None)
        except (ImportError, TypeError, ValueError):
            counter = None
        if counter is not None:
            break
    if counter is not None:
        try:
            totals, rows = counter(state)
        except Exception:  # a scenario's count that cannot read this state: fall back to the events
            totals, rows = {}, []
    if not rows:
        for record in reversed(recent):
            if record.type == "ObjectivesCounted":
                totals, rows = dict(record.data["objectives"]), list(record.data["held"])
                break
    sides: dict[str, float] = {}
    for power, value in totals.items():
        side = state.kernel.side_of(power) or power
        sides[side] = sides.get(side, 0.0) + value
    totals_text = "Objectives: " + ", ".join(f"{p} <b>{v:g}</b>" for p, v in totals.items())
    if sides and set(sides) != set(totals):
        totals_text += "; per side: " + ", ".join(f"{s} <b>{v:g}</b>" for s, v in sides.items())
    return {"lines": lines, "rows": rows, "totals": totals, "sides": sides, "totals_text": totals_text}


def victory_table_surface(report: dict, width: int) -> pygame.Surface:
    """The objectives table drawn as one picture (pygame_gui has no table element): objective,
    value, controller, and the value each power gets, in the powers' colours."""
    from .detailed import font

    powers = list(report["totals"]) or sorted({p for r in report["rows"] for p in r.get("credited", {})})
    columns = [("Objective", 0), ("Hex", 0.28), ("Value", 0.40), ("Held by", 0.50)]
    step = 0.32 / max(1, len(powers))
    columns += [(p, 0.68 + step * i) for i, p in enumerate(powers)]
    row_h = 18
    s = pygame.Surface((width, row_h * (len(report["rows"]) + 2) + 4))
    s.fill((236, 234, 224))
    f, bold = font(17), font(17, bold=True)
    for title, at in columns:
        s.blit(bold.render(title, True, (0, 0, 0)), (int(at * width) + 4, 2))
    y = row_h + 2
    for i, row in enumerate(report["rows"]):
        if i % 2:
            s.fill((222, 220, 208), (0, y, width, row_h))
        holder = row.get("controller") or "neutral"
        cells = [row.get("name", "?"), ",".join(str(v) for v in row.get("hex", [])), f"{row.get('value', 0):g}", holder]
        for (title, at), text in zip(columns, cells):
            s.blit(f.render(str(text), True, (0, 0, 0)), (int(at * width) + 4, y + 1))
        swatch_x = int(columns[3][1] * width) - 10
        pygame.draw.rect(s, mapstyle.power_colour(holder), (swatch_x, y + 4, 10, 10))
        for (power, at) in columns[4:]:
            share = row.get("credited", {}).get(power)
            if share:
                s.blit(f.render(f"{share:g}", True, mapstyle.power_colour(power)), (int(at * width) + 4, y + 1))
        y += row_h
    for (power, at) in columns[4:]:
        s.blit(bold.render(f"{report['totals'].get(power, 0):g}", True, (0, 0, 0)), (int(at * width) + 4, y + 1))
    s.blit(bold.render("Total", True, (0, 0, 0)), (4, y + 1))
    return s


class PlayForms:
    """The decision forms of one game window."""

    WIDTH = 330

    def __init__(self, window):
        self.window = window
        self.game = window.game
        self.gui: Gui = window.gui
        options = self.game.state.kernel.options or {}
        self.hot_seat = options.get("mode") == "hotseat"
        self.at_screen: str | None = None  # hot seat: the player who said he is at the screen
        self.unit: str | None = None  # the unit selected to move
        self.by_rail = False
        self.reach: dict = {}
        self.path: list = []
        self.path_cost: int | None = None
        self.attackers: list[str] = []
        self.target = None
        self.preview: dict | None = None
        self.status: tuple[str, tuple] = ("", RED)
        self.field_values: dict[str, object] = {}
        self.log: list[str] = []
        self.form: FormWindow | None = None
        self.units_form: FormWindow | None = None
        self.popups: list[FormWindow] = []
        self._built_for = None
        self._victory_shown = False
        from .setuptray import SetupTray

        self.tray = SetupTray(self)
        self.game.listeners.append(self._on_events)

    # ------------------------------------------------------------------ who decides
    @property
    def state(self):
        return self.game.state

    def actor(self) -> str | None:
        return self.state.kernel.acting_power()

    def player_of(self, power: str | None) -> str | None:
        if power is None:
            return None
        return self.state.kernel.controllers.get(power)

    def my_powers(self, power: str) -> list[str]:
        """The actor's side's powers under the same player (their units act together)."""
        k = self.state.kernel
        side = k.side_of(power)
        player = self.player_of(power)
        return [p for p in k.sides.get(side, [power]) if self.player_of(p) == player] or [power]

    def units(self):
        try:
            return self.state["units"]
        except KeyError:
            return None

    # ------------------------------------------------------------------ submitting
    def submit(self, command: dict) -> bool:
        command.setdefault("actor", self.actor())
        outcome = self.game.submit(command, player=self.player_of(command["actor"]))
        if not outcome.accepted:
            self.status = (outcome.reason, RED)
            self.window.say(outcome.reason, RED)
            self._built_for = None
            return False
        self.status = (f"{command['type']}: done", (120, 200, 120))
        for record in outcome.events:
            if record.type.startswith(("Step", "Digression")):
                continue  # the Sequence of Play header already says where the game is
            text = self.game.describe(record)
            if text:
                self.log.append(text)
        self.log = self.log[-40:]
        self._built_for = None
        return True

    def _on_events(self, game, records) -> None:
        by_title: dict[str, list] = {}
        for record in records:
            if record.type in RESULT_EVENTS:
                by_title.setdefault(RESULT_EVENTS[record.type], []).extend(
                    [r for r in records if r.type == "DiceRolled"] + [record])
            if record.type == "WeatherRolled":
                self.show_weather_report()
        for title, recs in by_title.items():
            seen, lines = set(), []
            for r in recs:
                if r.seq not in seen:
                    seen.add(r.seq)
                    lines.append(self.result_line(r))
            self.show_popup(title, lines)
        if self.state.kernel.sequence.finished and not self._victory_shown:
            self._victory_shown = True
            self.show_victory()

    def result_line(self, record) -> str:
        d = record.data
        if record.type == "DiceRolled":
            return f"<b>dice</b> {d.get('purpose', '')}: {', '.join(str(x) for x in d.get('results', []))} (d{d.get('faces')})"
        if record.type == "LandCombatResolved":
            drm = ", ".join(f"{k} {v:+d}" for k, v in (d.get("drm") or {}).items()) or "none"
            return (f"<b>{d['place']}</b>: {d['table']} table, {d['attack']} against {d['defence']}, odds {d['odds']}"
                    f" (base {d.get('base_odds')}); die {d.get('roll')} modified {d.get('modified')} (modifiers: {drm});"
                    f" result <b>{d['result']}</b>")
        return self.game.describe(record) or record.type

    # ------------------------------------------------------------------ popups
    def show_popup(self, title: str, lines: list[str], width: int = 460) -> FormWindow:
        sw, sh = self.gui.size
        height = min(sh - 80, max(200, 100 + 46 * len(lines)))
        win = FormWindow(self.gui, pygame.Rect((sw - width) // 2, 60 + 20 * len(self.popups), width, height), title,
                         object_id="#result_form")
        UITextBox("<br>".join(lines) or "-", pygame.Rect(6, 6, width - 44, height - 90), self.gui.manager, container=win)
        win.button((6, height - 78, 90, 30), "OK", lambda: self.close_popup(win))
        win.lines = lines
        self.popups.append(win)
        return win

    def close_popup(self, win) -> None:
        if win in self.popups:
            self.popups.remove(win)
        self.gui.close(win)

    def show_weather_report(self) -> None:
        """Seeds, "Weather Report": the weather in every zone after the roll."""
        from .mapmodel import weather_zone_names

        try:
            weather = self.state["core.world"].weather
        except KeyError:
            return
        names = weather_zone_names(self.window.model.world)
        lines = [f"{names.get(int(z), 'zone ' + z)}: <b>{w}</b>" for z, w in sorted(weather.items(), key=lambda i: int(i[0]))]
        self.show_popup("Weather Report", lines)

    def show_victory(self) -> FormWindow:
        """Seeds, "Victory": the result at the game's end, and the table of objectives with
        who holds each and whom it counts for, totalled per major power and per side."""
        report = victory_report(self.game)
        if not report["rows"]:
            lines = report["lines"] or ["The game is over."]
            return self.show_popup("Victory", lines, width=520)
        sw, sh = self.gui.size
        width, height = min(600, sw - 20), min(sh - 60, 620)
        win = FormWindow(self.gui, pygame.Rect((sw - width) // 2, 30, width, height), "Victory", object_id="#victory")
        summary = "<br>".join(report["lines"] + [report["totals_text"]])
        UITextBox(summary, pygame.Rect(6, 6, width - 44, 110), self.gui.manager, container=win)
        table = victory_table_surface(report, width - 64)
        box = UIScrollingContainer(pygame.Rect(6, 120, width - 44, height - 210), self.gui.manager, container=win)
        box.set_scrollable_area_dimensions(table.get_size())
        UIImage(pygame.Rect((0, 0), table.get_size()), table, self.gui.manager, container=box)
        win.button((6, height - 80, 90, 30), "OK", lambda: self.close_popup(win))
        win.report = report
        win.table_surface = table
        self.popups.append(win)
        return win

    # ------------------------------------------------------------------ where the forms are
    def form_rect(self, kind: str) -> pygame.Rect:
        """Where a form opens: the screen layout's "play" / "selectable" window (seeds, "Screen
        Layouts": every form's position is stored per layout), else our defaults."""
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
        return {kind: form for kind, form in (("play", self.form), ("selectable", self.units_form),
                                              ("setup_tray", self.tray.form)) if form is not None}

    def place_forms(self) -> None:
        """A new screen layout: move the open forms where it puts them."""
        for kind, form in self.forms().items():
            form.place(self.form_rect(kind))
            self._built_for = None  # rebuild the contents for the new size

    def form_geometries(self) -> dict:
        """The forms' places now, as layout windows (for Save / Redefine)."""
        from .views import WindowGeometry

        out = {}
        for kind, form in self.forms().items():
            r = form.visible_rect()
            out[kind] = WindowGeometry(x=r.x, y=r.y, w=r.width, h=r.height, rolled=form.rolled)
        return out

    # ------------------------------------------------------------------ the forms
    def refresh(self) -> None:
        """Rebuild the forms when the game moved on (called every frame; cheap otherwise)."""
        k = self.state.kernel
        key = (k.seq, k.sequence.current, tuple(k.sequence.pending), self.at_screen, self.unit, self.by_rail,
               tuple(self.attackers), self.target, self.status[0])
        self.tray.refresh()  # cheap when nothing changed; the tray keeps its own key
        if key == self._built_for:
            return
        self._built_for = key
        self.build_play_form()
        self.build_units_form()
        if k.sequence.finished and not self._victory_shown:  # a game opened after its end
            self._victory_shown = True
            self.show_victory()

    def hidden(self) -> bool:
        """Hot seat: the decisions are hidden until the deciding player is at the screen."""
        player = self.player_of(self.actor())
        return self.hot_seat and player is not None and player != self.at_screen

    def build_play_form(self) -> None:
        if self.form is None:
            self.form = FormWindow(self.gui, self.form_rect("play"), "Play", object_id="#play_form")
        form = self.form
        form.clear()
        manager = self.gui.manager
        k = self.state.kernel
        width = self.WIDTH - 40
        y = 4
        actor = self.actor()
        if actor:
            UIImage(pygame.Rect(4, y, 36, 24), flag_surface(actor), manager, container=form)
        UILabel(pygame.Rect(44, y, width - 44, 24), f"turn {k.turn} impulse {k.impulse}  {actor or '-'}", manager,
                container=form)
        y += 26
        UITextBox(self.sequence_text(), pygame.Rect(4, y, width, 58), manager, container=form)
        y += 60
        if k.sequence.finished:
            form.label((4, y, width, 24), "The game is over.")
            return
        if self.hidden():
            player = self.player_of(actor)
            form.label((4, y, width, 24), f"Pass the screen to {player}.")
            form.button((4, y + 28, width, 32), f"I am {player}: show my decisions", lambda: self.take_screen(player))
            return
        names = self.game.legal_commands()
        y = self.build_decisions(form, names, y, width)
        if "FinishStep" in names:
            form.button((4, y, width, 32), "End phase (finish this step)", self.finish_step)
            y += 36
        if self.status[0]:
            box = UITextBox(self.status[0], pygame.Rect(4, y, width, 64), manager, container=form,
                            object_id="#status")
            box.status_text = self.status[0]
            y += 66
        if self.log:
            UITextBox("<br>".join(self.log[-6:]), pygame.Rect(4, y, width, max(40, form.get_container().rect.height - y - 4)),
                      manager, container=form)

    def take_screen(self, player: str) -> None:
        self.at_screen = player
        self._built_for = None

    def sequence_text(self) -> str:
        """Seeds, "Sequence of Play": stage > phase > step of the current step."""
        k = self.state.kernel
        current = k.sequence.current
        index = self.game.sequence_index
        if not current or index is None:
            return "-"
        parts = current.split(".")
        titles = []
        for n in range(2, len(parts) + 1):
            spec = index.specs.get(".".join(parts[:n]))
            titles.append(spec.title if spec is not None and spec.title else parts[n - 1])
        return " &gt; ".join(titles[:-1]) + (" &gt; " if len(titles) > 1 else "") + f"<b>{titles[-1]}</b>"

    def build_decisions(self, form: FormWindow, names: list[str], y: int, width: int) -> int:
        actor = self.actor()
        entries = self.game.host.commands
        for name in names:
            if name == "FinishStep":
                continue
            if name in ("PlaceUnit", "RestoreSetup"):
                if name == "PlaceUnit":
                    form.label((4, y, width, 22), "Setup Tray: pick units, click a hex")
                    y += 24
                continue
            if name == "ChooseAction":
                form.label((4, y, width, 22), "Action Choice:")
                y += 24
                for i, action in enumerate(("pass", "air", "naval", "land", "combined")):
                    form.button((4 + (i % 3) * 96, y + (i // 3) * 34, 92, 30), action.title(),
                                lambda a=action: self.submit({"type": "ChooseAction", "actor": actor, "action": a}))
                y += 72
            elif name in MOVE_COMMANDS:
                if name == "RailMove" and "MoveLandUnit" in names:
                    continue
                y = self.build_move(form, names, y, width)
            elif name == "DeclareAttack":
                y = self.build_attack(form, y, width)
            elif name in entries:
                y = self.build_generic(form, name, entries[name].model, y, width)
        y = self.build_remaining(form, y, width)
        return y

    def build_remaining(self, form, y: int, width: int) -> int:
        """Seeds, "Activity Limits": what the deciding power may still do this impulse."""
        actor = self.actor()
        try:
            from plugins.rules.core import action_of
            from plugins.rules.turn.activities import remaining
        except ImportError:
            return y
        try:
            action = action_of(self.state, actor)
        except KeyError:
            return y
        if not action:
            return y
        left = remaining(self.state, actor)
        text = ", ".join(f"{kind} {'any' if n is None else n}" for kind, n in left.items() if n != 0) or "nothing"
        UITextBox(f"action <b>{action}</b>; left: {text}", pygame.Rect(4, y, width, 66), self.gui.manager,
                  container=form)
        return y + 68

    def build_move(self, form, names, y: int, width: int) -> int:
        rail_only = "MoveLandUnit" not in names
        if rail_only:
            self.by_rail = True
        unit = self.unit_named(self.unit)
        lines = [f"unit: <b>{unit}</b>" if self.unit else "Select a unit (list or map).",
                 "by rail" if self.by_rail else "by land"]
        if self.path:
            lines.append(f"to {hex_text(self.path[-1])}: {len(self.path)} hexes"
                         + (f", cost {self.path_cost}" if self.path_cost is not None else ""))
        UITextBox("<br>".join(lines), pygame.Rect(4, y, width, 62), self.gui.manager, container=form)
        y += 64
        if "RailMove" in names and not rail_only:
            form.button((4, y, width, 30), "Move by land instead" if self.by_rail else "Move by rail instead",
                        self.toggle_rail)
            y += 34
        return y

    def build_attack(self, form, y: int, width: int) -> int:
        lines = []
        if self.attackers:
            lines.append("attackers: " + ", ".join(self.unit_named(u) for u in self.attackers))
        if self.target is not None:
            lines.append(f"target: {hex_text(self.target)}")
        p = self.preview
        if p:
            shifts = ", ".join(f"{k} {v:+d}" for k, v in (p.get("shifts") or {}).items()) or "none"
            drm = ", ".join(f"{k} {v:+d}" for k, v in (p.get("drm") or {}).items()) or "none"
            lines.append(f"<b>odds {p.get('odds')}</b> ({p.get('attack')} : {p.get('defence')}, base {p.get('base_odds')});"
                         f" shifts {shifts}; die modifiers {drm}; table chosen by {p.get('chooser')}")
            lines.insert(0, lines.pop())  # the odds first: they decide whether to commit
        lines.append("Click your units' hexes, then the hex to attack.")
        UITextBox("<br>".join(lines), pygame.Rect(4, y, width, 110), self.gui.manager, container=form,
                  object_id="#attack_preview")
        y += 112
        form.button((4, y, width // 2 - 2, 30), "Declare attack", self.declare_attack)
        form.button((width // 2 + 6, y, width // 2 - 2, 30), "Clear", self.clear_attack)
        return y + 34

    def build_generic(self, form, name: str, model, y: int, width: int) -> int:
        """A form built from the command's fields: unit lists, hexes from the map, yes/no,
        choices.  Retreat, advance, losses, air missions and the combat steps use it."""
        fields = {k: f for k, f in model.model_fields.items() if k != "actor"}
        form.label((4, y, width, 22), self.title_of(name))
        y += 24
        values = self.field_values.setdefault(name, {})
        simple = []
        for field_name, info in fields.items():
            annotation = info.annotation
            origin = typing.get_origin(annotation)
            args = typing.get_args(annotation)
            if annotation is bool:
                simple.append(field_name)
                for i, choice in enumerate((True, False)):
                    form.button((4 + i * 100, y, 96, 28), f"{field_name}: {'yes' if choice else 'no'}",
                                lambda n=name, f=field_name, c=choice: self.submit_generic(n, {f: c}))
                y += 32
            elif origin is typing.Literal or field_name == "table":
                choices = args if origin is typing.Literal else ("blitz", "assault")
                for i, choice in enumerate(choices):
                    form.button((4 + (i % 3) * 96, y + (i // 3) * 32, 92, 28), str(choice),
                                lambda f=field_name, c=choice: values.__setitem__(f, c) if len(fields) > 1
                                else self.submit_generic(name, {f: c}))
                y += 32 * ((len(choices) + 2) // 3)
            elif field_name in ("hex", "to_hex"):
                hex_ = values.get(field_name) or self.selected_hex()
                form.label((4, y, width, 22), f"{field_name}: {hex_text(hex_)} (click the map)")
                y += 24
            elif field_name in ("unit", "units", "fighters", "bombers"):
                candidates = self.candidates(name)
                items = [(self.unit_named(u), u) for u in candidates]
                many = origin is list
                lst = UISelectionList(pygame.Rect(4, y, width, min(120, 22 * max(1, len(items)) + 6)), items,
                                      self.gui.manager, container=form, allow_multi_select=many)
                chosen = values.get(field_name)
                self.gui.on(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, lst,
                            lambda _t, f=field_name, l=lst, m=many: values.__setitem__(
                                f, [self._id(x) for x in l.get_multi_selection(include_object_id=True)] if m
                                else self._id(l.get_single_selection(include_object_id=True))))
                self.gui.on(pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION, lst,
                            lambda _t, f=field_name, l=lst, m=many: values.__setitem__(
                                f, [self._id(x) for x in l.get_multi_selection(include_object_id=True)] if m else None))
                if chosen:
                    pass
                y += lst.rect.height + 4
            else:
                form.label((4, y, width, 22), f"{field_name}: {values.get(field_name, '-')}")
                y += 24
        if not fields or len(fields) != len(simple) and not (len(fields) == 1 and (
                typing.get_origin(next(iter(fields.values())).annotation) is typing.Literal or "table" in fields)):
            form.button((4, y, width, 30), self.title_of(name), lambda n=name: self.submit_generic(n, {}))
            y += 34
        return y

    @staticmethod
    def _id(item):
        if item is None:
            return None
        return item[1] if isinstance(item, tuple) else item

    def title_of(self, name: str) -> str:
        out = ""
        for ch in name:
            out += (" " + ch.lower()) if ch.isupper() and out else ch
        return out

    def candidates(self, name: str) -> list[str]:
        """Units a command's unit field may name: the deciding side's units on the map, air
        units for air commands, the combat's units for losses, retreat and advance."""
        units = self.units()
        if units is None:
            return []
        actor = self.actor()
        powers = set(self.my_powers(actor)) if actor else set()
        air = any(w in name for w in AIR_WORDS)
        out = []
        for u in units.units.values():
            if u.power not in powers or u.on_map == name.startswith("Place"):
                continue  # placing takes units from the setup tray, everything else acts on the map
            if (u.branch == "air") != air:
                continue
            out.append(u.id)
        return out[:200]

    def submit_generic(self, name: str, extra: dict) -> None:
        values = dict(self.field_values.get(name, {}))
        values.update(extra)
        model = self.game.host.commands[name].model
        for hex_field in ("hex", "to_hex"):
            if hex_field in model.model_fields and hex_field not in values and self.selected_hex() is not None:
                values[hex_field] = list(self.selected_hex())
        command = {"type": name, "actor": self.actor(), **{k: v for k, v in values.items() if v is not None}}
        if self.submit(command):
            self.field_values.pop(name, None)

    def selected_hex(self):
        selection = getattr(self.window, "selection", None)
        return selection.hex if selection is not None else None

    def unit_named(self, uid: str | None) -> str:
        units = self.units()
        if uid is None or units is None or uid not in units.units:
            return uid or "-"
        u = units.units[uid]
        return f"{u.name or u.id} ({u.type} {hex_text(u.hex)})"

    # ------------------------------------------------------------------ selectable units
    def build_units_form(self) -> None:
        """Seeds, "Selectable Units": the units that may act in this step."""
        names = self.game.legal_commands() if not self.hidden() else []
        wanted = any(n in names for n in MOVE_COMMANDS + ("DeclareAttack",))
        if not wanted:
            if self.units_form is not None:
                self.gui.close(self.units_form)
                self.units_form = None
            return
        if self.units_form is None:
            self.units_form = FormWindow(self.gui, self.form_rect("selectable"), "Selectable units",
                                         object_id="#selectable_units")
        form = self.units_form
        form.clear()
        ids = self.selectable_units()
        items = [(self.unit_named(u), u) for u in ids]
        inner = form.get_container().rect
        lst = UISelectionList(pygame.Rect(2, 2, max(120, inner.width - 4), max(80, inner.height - 4)), items,
                              self.gui.manager, container=form)
        form.unit_list = lst
        form.unit_ids = ids
        self.gui.on(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, lst,
                    lambda _t: self.select_unit(self._id(lst.get_single_selection(include_object_id=True))))

    def selectable_units(self) -> list[str]:
        units = self.units()
        actor = self.actor()
        if units is None or actor is None:
            return []
        powers = set(self.my_powers(actor))
        try:
            moved = self.state["land"].land_moved if not self.by_rail else self.state["land"].rail_moved
        except KeyError:
            moved = {}
        out = [u.id for u in units.units.values()
               if u.power in powers and u.on_map and u.branch == "land" and u.id not in moved]
        return out[:300]

    # ------------------------------------------------------------------ map interaction
    def mode(self) -> str | None:
        if self.hidden():
            return None
        names = self.game.legal_commands()
        if "PlaceUnit" in names:
            return "setup"
        if "DeclareAttack" in names:
            return "attack"
        if "MoveLandUnit" in names or "RailMove" in names:
            return "move"
        return None

    def toggle_rail(self) -> None:
        self.by_rail = not self.by_rail
        self.select_unit(self.unit)

    def select_unit(self, uid: str | None) -> None:
        self.unit = uid
        self.path, self.path_cost, self.reach = [], None, {}
        if uid is None:
            return
        if self.mode() == "attack":
            units = self.units()
            if uid not in self.attackers:
                self.attackers.append(uid)
            self.update_preview()
            return
        if not self.by_rail:
            try:
                from plugins.rules.land.movement import reachable

                self.reach = reachable(self.state, uid)
            except Exception as exc:  # a rule's refusal (e.g. not a land unit) is shown, not raised
                self.status = (str(exc), RED)
        units = self.units()
        if units is not None and uid in units.units and units.units[uid].hex is not None:
            self.window.set_selection(tuple(units.units[uid].hex), [uid])

    def hover(self, hex_) -> None:
        """The path and its cost to the hex under the cursor."""
        if self.mode() != "move" or self.unit is None or hex_ is None:
            return
        if self.path and self.path[-1] == tuple(hex_):
            return
        self.path, self.path_cost = [], None
        try:
            if self.by_rail:
                from plugins.rules.land.movement import _unit, rail_path_to

                self.path = [tuple(h) for h in rail_path_to(self.state, _unit(self.state, self.unit), hex_)]
            elif tuple(hex_) in self.reach:
                from plugins.rules.land.movement import cheapest_path

                self.path = [tuple(h) for h in cheapest_path(self.state, self.unit, hex_)]
                self.path_cost = self.reach[tuple(hex_)][0]
        except Exception:
            self.path = []
        self._built_for = None

    def map_click(self, hex_, unit_ids: list[str]) -> bool:
        """A click on the map in a movement or attack step; True when it was used."""
        mode = self.mode()
        if mode is None or hex_ is None:
            return False
        if mode == "setup":
            return self.tray.map_click(hex_)
        units = self.units()
        actor = self.actor()
        powers = set(self.my_powers(actor)) if actor else set()
        own = [u for u in unit_ids if units is not None and units.units[u].power in powers
               and units.units[u].branch == "land"]
        if mode == "move":
            if self.unit is not None and tuple(hex_) != tuple(units.units[self.unit].hex or ()):
                self.move_to(hex_)
                return True
            if own:
                # clicking the same stack again picks its next unit
                nxt = own[(own.index(self.unit) + 1) % len(own)] if self.unit in own else own[0]
                self.select_unit(nxt)
                return False
            return False
        if mode == "attack":
            if own:
                for u in own:
                    if u not in self.attackers:
                        self.attackers.append(u)
            else:
                self.target = tuple(hex_)
            self.update_preview()
            return False
        return False

    def move_to(self, hex_) -> None:
        hex_ = tuple(hex_)
        if self.by_rail:
            ok = self.submit({"type": "RailMove", "actor": self.actor_for_unit(), "unit": self.unit, "to": list(hex_)})
        else:
            path = self.path if self.path and self.path[-1] == hex_ else None
            command = {"type": "MoveLandUnit", "actor": self.actor_for_unit(), "unit": self.unit}
            if path:
                command["path"] = [list(h) for h in path]
            else:
                command["to"] = list(hex_)
            ok = self.submit(command)
        if ok:
            self.unit, self.path, self.reach, self.path_cost = None, [], {}, None

    def actor_for_unit(self) -> str:
        units = self.units()
        if self.unit and units is not None and self.unit in units.units:
            power = units.units[self.unit].power
            if power in self.state.kernel.sequence.pending or self.state.kernel.side_of(power) in self.state.kernel.sequence.pending:
                return power
        return self.actor()

    def update_preview(self) -> None:
        self.preview = None
        if not self.attackers or self.target is None:
            return
        try:
            from plugins.rules.combat import odds_preview

            self.preview = odds_preview(self.state, self.attackers, self.target)
        except Exception as exc:
            self.status = (str(exc), RED)

    def declare_attack(self) -> None:
        if not self.attackers or self.target is None:
            self.status = ("Land Combat: choose the attacking units and the hex to attack first", RED)
            self._built_for = None
            return
        if self.submit({"type": "DeclareAttack", "actor": self.actor(), "hex": list(self.target),
                        "units": list(self.attackers)}):
            self.clear_attack()

    def clear_attack(self) -> None:
        self.attackers, self.target, self.preview = [], None, None
        self._built_for = None

    def finish_step(self) -> None:
        actor = self.actor()
        if actor is None:
            return
        if self.submit({"type": "FinishStep", "actor": actor}):
            self.unit, self.path, self.reach = None, [], {}
            self.clear_attack()

    # ------------------------------------------------------------------ drawing on the map
    def draw_overlay(self, surface: pygame.Surface, dmap, pos) -> None:
        from .stamps import hex_corners

        g = dmap.geometry

        def outline(h, colour, width):
            sx, sy = dmap.hex_to_screen(h)
            pygame.draw.polygon(surface, colour, hex_corners(g, pos[0] + sx, pos[1] + sy), width)

        mode = self.mode()
        if mode == "setup":
            for h in self.tray.area_hexes(self.tray.area):  # the chosen set-up area
                outline(h, REACH_COLOUR, 1)
            return
        if mode == "move" and self.unit is not None:
            for h in self.reach:
                outline(h, REACH_COLOUR, 1)
            units = self.units()
            start = units.units[self.unit].hex if units is not None and self.unit in units.units else None
            if self.path and start is not None:
                points = [dmap.hex_to_screen(tuple(start))] + [dmap.hex_to_screen(h) for h in self.path]
                points = [(pos[0] + x, pos[1] + y) for x, y in points]
                if len(points) > 1 and max(abs(points[i][0] - points[i + 1][0]) for i in range(len(points) - 1)) < dmap.size[0] / 2:
                    pygame.draw.lines(surface, PATH_COLOUR, False, points, 3)
                outline(self.path[-1], PATH_COLOUR, 3)
        elif mode == "attack":
            units = self.units()
            for u in self.attackers:
                if units is not None and u in units.units and units.units[u].hex is not None:
                    outline(tuple(units.units[u].hex), REACH_COLOUR, 3)
            if self.target is not None:
                outline(self.target, TARGET_COLOUR, 3)
