"""Forms that pop up to tell what happened: the results of a roll (every die, and what the
rules made of it, e.g. seeds "Land Combat Chart", "Air-to-air Combat"), the "Weather Report"
and the "Victory" form.  Each is a small window with an OK button."""

from __future__ import annotations

import pygame
from pygame_gui.elements import UIImage, UIScrollingContainer, UITextBox

from .forms import FormWindow, Gui, gui_text
from .victory import victory_report, victory_table_surface

WEATHER_EVENTS = ("WeatherSet",)  # core's weather change, as app/dirty.py reads it


def dice_line(record) -> str:
    d = record.data
    return f"<b>dice</b> {d.get('purpose', '')}: {', '.join(str(x) for x in d.get('results', []))} (d{d.get('faces')})"


class Popups:
    def __init__(self, gui: Gui, game, model):
        self.gui = gui
        self.game = game
        self.model = model
        self.open: list[FormWindow] = []
        self.victory_shown = False

    # ------------------------------------------------------------ what events tell
    def on_events(self, records) -> None:
        """Dice rolled: one popup for the batch of events, with each step's dice and every
        event described after them in that step (what the rules made of the roll), under the
        step's title.  Weather changed: the Weather Report."""
        by_step: dict[str, list[str]] = {}
        for record in records:
            if record.type == "DiceRolled":
                by_step.setdefault(record.step, []).append(dice_line(record))
            elif record.step in by_step and not record.type.startswith(("Step", "Decision", "Digression")):
                text = self.game.describe(record)
                if text:
                    by_step[record.step].append(text)
        if by_step:
            lines = []
            for step, step_lines in by_step.items():
                lines += [f"<b>{self.step_title(step)}</b>"] + step_lines
            titles = [self.step_title(step) for step in by_step]
            self.show(titles[0] if len(titles) == 1 else "Results", lines)
        if any(r.type in WEATHER_EVENTS for r in records):
            self.weather_report()
        if self.game.state.kernel.sequence.finished and not self.victory_shown:
            self.victory_shown = True
            self.victory()

    def step_title(self, step: str) -> str:
        index = self.game.sequence_index
        spec = index.specs.get(step) if index is not None and step else None
        return spec.title if spec is not None and spec.title else "Results"

    # ------------------------------------------------------------ the forms
    def show(self, title: str, lines: list[str], width: int = 460) -> FormWindow:
        sw, sh = self.gui.size
        height = min(sh - 80, max(200, 100 + 46 * len(lines)))
        win = FormWindow(self.gui, pygame.Rect((sw - width) // 2, 60 + 20 * len(self.open), width, height), title,
                         object_id="#result_form")
        UITextBox(gui_text("<br>".join(lines)) or "-", pygame.Rect(6, 6, width - 44, height - 90), self.gui.manager,
                  container=win)
        win.button((6, height - 78, 90, 30), "OK", lambda: self.close(win))
        win.lines = lines
        self.open.append(win)
        return win

    def close(self, win) -> None:
        if win in self.open:
            self.open.remove(win)
        self.gui.close(win)

    def weather_report(self) -> FormWindow:
        """Seeds, "Weather Report": the weather in every zone after the roll."""
        names = self.model.zone_names
        lines = [f"{name}: <b>{self.model.weather(zone)}</b>" for zone, name in sorted(names.items())]
        return self.show("Weather Report", lines)

    def victory(self) -> FormWindow:
        """Seeds, "Victory": the result at the game's end, and the table of objectives with
        who holds each and whom it counts for, totalled per major power and per side."""
        report = victory_report(self.game)
        if not report["rows"]:
            return self.show("Victory", report["lines"] or ["The game is over."], width=520)
        sw, sh = self.gui.size
        width, height = min(600, sw - 20), min(sh - 60, 620)
        win = FormWindow(self.gui, pygame.Rect((sw - width) // 2, 30, width, height), "Victory", object_id="#victory")
        summary = "<br>".join(report["lines"] + [report["totals_text"]])
        UITextBox(summary, pygame.Rect(6, 6, width - 44, 110), self.gui.manager, container=win)
        table = victory_table_surface(report, width - 64)
        box = UIScrollingContainer(pygame.Rect(6, 120, width - 44, height - 210), self.gui.manager, container=win)
        box.set_scrollable_area_dimensions(table.get_size())
        UIImage(pygame.Rect((0, 0), table.get_size()), table, self.gui.manager, container=box)
        win.button((6, height - 80, 90, 30), "OK", lambda: self.close(win))
        win.report = report
        win.table_surface = table
        self.open.append(win)
        return win
