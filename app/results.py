"""Forms that pop up to tell what happened: the results of a roll (every die, and what the
rules made of it, e.g. "Air-to-air Combat"), a land combat with its chart (app/combatchart.py,
seeds "Land Combat"), the "Weather Report" and the "Victory" form.

They queue (issue 11 item 3): one result is shown at a time, over the map beside the Play
form, its title saying how many more wait; OK (or Esc) shows the next.  Nothing is lost and
no result hides another."""

from __future__ import annotations

import re

import pygame
from pygame_gui.elements import UIImage, UIScrollingContainer, UITextBox

from .combatchart import chart_for, chart_surface, naval_results_surface, result_lines
from .forms import FormWindow, Gui, gui_text
from .uihooks import ask_game
from .victory import victory_report, victory_table_surface
from .wording import in_words, moves_told_twice, step_title

WEATHER_EVENTS = ("WeatherSet",)  # core's weather change, as app/dirty.py reads it
LAND_COMBAT = "LandCombatResolved"  # combat's event with the table, odds, die and result
AFTER_LINES = 3  # of what a land combat's result did, told under it (the rest in the Play form's log)
MOST_LINES = 30  # a results form lists at most this many lines; the Play form's log keeps them all
PLAY_W = 330  # the Play form's width: results open over the map, left of it
PICTURE_GAP = 8  # pixels between a result's pictures


def dice_line(record) -> str:
    d = record.data
    return f"<b>dice</b> {d.get('purpose', '')}: {', '.join(str(x) for x in d.get('results', []))} (d{d.get('faces')})"


def on_top(gui: Gui, *windows) -> None:
    """Bring these windows above the forms rebuilt each time the game moves on (Selectable
    Units, the Play form), so a result or a question is never hidden under them (called every
    frame; moves nothing when they are on top already)."""
    ours = [w for w in windows if w is not None and w.alive()]
    stack = gui.manager.get_window_stack().stack
    above = stack[stack.index(ours[0]) + 1:] if ours and ours[0] in stack else []
    if any(w not in ours for w in above):
        for win in ours:
            gui.manager.get_window_stack().move_window_to_front(win)


class Popups:
    def __init__(self, gui: Gui, game, model):
        self.gui = gui
        self.game = game
        self.model = model
        self.open: list[FormWindow] = []  # on screen: the current result (and the Victory form)
        self.waiting: list = []  # results still to show, as functions that build their form
        self.victory_shown = False
        self.avoid = None  # returns the Play form's rect (set by the game window)
        self.naval_round: tuple = (None, [])  # a naval combat round's key and its results so far

    # ------------------------------------------------------------ what events tell
    def on_events(self, records) -> None:
        """Dice rolled: a result for the batch of events, with each step's dice and every event
        described after the first roll (what the rules made of it: an air combat's results come
        in the steps after its rolls), under each step's title; a land combat's step gets its
        chart; a weather roll, the Weather Report."""
        by_step: dict[str, list[str]] = {}
        combats: dict[str, dict] = {}
        weather: dict[str, list[str]] = {}
        rolled = False
        sink = None  # after a land combat's result, what follows (losses, retreats) is told with it
        # seeds, "Naval Combat Results": a naval combat's or port attack's events, told by the
        # naval rules in their own form (the hook naval_combat_report), not again here
        naval = ask_game(self.game, "naval_combat_report", state=self.game.state, records=records)
        told = (set(naval["seqs"]) if naval else set()) | moves_told_twice(records)
        for record in records:
            if record.seq in told:
                continue
            if record.type == "DiceRolled":
                rolled, sink = True, None
                by_step.setdefault(record.step, []).append(in_words(self.game, dice_line(record)))
            elif rolled and not record.type.startswith(("Step", "Decision", "Digression")):
                text = self.game.describe(record) if record.type != LAND_COMBAT else None
                if text:
                    by_step.setdefault(sink or record.step, []).append(in_words(self.game, text))
            if record.type == LAND_COMBAT:
                combats[record.step] = record.data
                sink = record.step
            if record.type in WEATHER_EVENTS:
                weather[record.step] = []
        plain = {step: lines for step, lines in by_step.items() if step not in combats and step not in weather}
        if plain:
            lines = []
            for step, step_lines in plain.items():
                lines += [f"<b>{step_title(self.game, step)}</b>"] + step_lines
            if len(lines) > MOST_LINES:
                lines = lines[:MOST_LINES] + [f"... and {len(lines) - MOST_LINES} more lines (the Play form's log)"]
            titles = [step_title(self.game, step) for step in plain]
            self.show(titles[0] if len(titles) == 1 else "Results", lines)
        if naval:
            self.naval_combat(naval)
        for step, data in combats.items():
            self.land_combat(data, by_step.get(step, []))
        if weather:
            self.weather_report([line for step in weather for line in by_step.get(step, []) if "dice" in line])
        if self.game.state.kernel.sequence.finished and not self.victory_shown:
            self.victory_shown = True
            self.victory()

    def step_title(self, step: str) -> str:
        return step_title(self.game, step)

    # ------------------------------------------------------------ the queue
    def enqueue(self, build) -> None:
        """Show ``build()`` now if no result is on screen, else after the ones waiting."""
        self.waiting.append(build)
        if not self.current():
            self.show_next()
        else:
            self.retitle()

    def current(self) -> FormWindow | None:
        return next((w for w in self.open if not getattr(w, "report", None)), None)

    def show_next(self) -> None:
        if self.waiting:
            win = self.waiting.pop(0)()
            win.base_title = win.window_display_title
            self.open.append(win)
            self.retitle()

    def retitle(self) -> None:
        win = self.current()
        if win is not None:
            more = f"  ({len(self.waiting)} more waiting: OK for the next)" if self.waiting else ""
            win.set_display_title(win.base_title + more)

    def close(self, win) -> None:
        if win in self.open:
            self.open.remove(win)
        self.gui.close(win)
        if not self.current():
            self.show_next()

    def close_top(self) -> bool:
        """Esc: close the result (or Victory form) on top; False when none is open."""
        if not self.open:
            return False
        self.close(self.open[-1])
        return True

    def results_rect(self, width: int, height: int) -> pygame.Rect:
        """Over the map beside the Play form (``avoid``: where it is), so neither hides the
        other; in the middle of the screen when there is no room beside it."""
        sw, sh = self.gui.size
        width, height = min(width, sw - 10), min(height, sh - 70)
        play = self.avoid() if self.avoid is not None else pygame.Rect(sw - PLAY_W, 0, PLAY_W, sh)
        if play.x >= width:  # room on its left
            x = (play.x - width) // 2
        elif sw - play.right >= width:  # on its right
            x = play.right + (sw - play.right - width) // 2
        else:
            x = (sw - width) // 2
        return pygame.Rect(x, max(0, min(100, sh - height - 10)), width, height)

    # ------------------------------------------------------------ the forms
    def show(self, title: str, lines: list[str], width: int = 460) -> None:
        self.enqueue(lambda: self._text_form(title, lines, width))

    def _text_form(self, title: str, lines: list[str], width: int) -> FormWindow:
        rect = self.results_rect(width, max(200, 100 + 46 * len(lines)))
        win = FormWindow(self.gui, rect, title, object_id="#result_form")
        UITextBox(gui_text("<br>".join(lines)) or "-", pygame.Rect(6, 6, rect.w - 44, rect.h - 90), self.gui.manager,
                  container=win)
        win.button((6, rect.h - 78, 90, 30), "OK", lambda: self.close(win))
        win.lines = lines
        return win

    def land_combat(self, data: dict, dice: list[str]) -> None:
        """Seeds, "Land Combat": the table used with its column, the die and modifiers, the
        result, in one view (the table from the hook ``land_combat_chart``)."""
        self.enqueue(lambda: self._land_combat_form(data, dice))

    def _land_combat_form(self, data: dict, step_lines: list[str]) -> FormWindow:
        chart = chart_for(self.game, data)
        words = result_lines(data, chart)
        after = [line for line in step_lines if "dice" not in line]  # what the result did: losses, retreats
        shown = words + after[:AFTER_LINES] + ([f"... and {len(after) - AFTER_LINES} more (the Play form's log)"]
                                               if len(after) > AFTER_LINES else [])
        rect = self.results_rect(640, 640 if chart else 300)
        win = FormWindow(self.gui, rect, "Land Combat Resolution",
                         object_id="#result_form")
        text = UITextBox(gui_text("<br>".join(shown)), pygame.Rect(6, 6, rect.w - 44, -1), self.gui.manager,
                         container=win)
        text_h = text.rect.height
        if chart:
            self._picture_box(win, rect, text_h, [chart_surface(chart, rect.w - 64)])
        win.button((6, rect.h - 78, 90, 30), "OK", lambda: self.close(win))
        win.lines = words + step_lines
        win.chart = chart
        win.combat = data
        return win

    def naval_combat(self, report: dict) -> None:
        """Seeds, "Naval Combat Results": what the batch did in words (the search dice, the
        combat type, each side's column and row with its Damage Risks, every defence roll and
        its effect, the abort queue), the running table (Possible / Effect / Cumulative) and
        the chart with the cells read (the report from the hook ``naval_combat_report``)."""
        key = report.get("round")
        if key != self.naval_round[0]:
            self.naval_round = (key, [])
        self.naval_round[1].extend(report.get("rows") or [])
        rows = list(self.naval_round[1])  # the round so far, as this result leaves it
        self.enqueue(lambda: self._naval_combat_form(dict(report, rows=rows)))

    def _naval_combat_form(self, report: dict) -> FormWindow:
        lines = [in_words(self.game, line) for line in report["lines"]]  # "allies in Coral Sea": the Allies
        shown = lines[:MOST_LINES] + ([f"... and {len(lines) - MOST_LINES} more (the Play form's log)"]
                                      if len(lines) > MOST_LINES else [])
        pictures = []
        if report.get("rows"):
            pictures.append(naval_results_surface(report["rows"], 560))
        if report.get("chart"):
            pictures.append(chart_surface(report["chart"], 560))
        text_guess = 16 + 22 * sum(1 + len(re.sub("<[^>]+>", "", line)) // 64 for line in shown)
        rect = self.results_rect(640, min(640, 110 + text_guess + sum(p.get_height() + PICTURE_GAP for p in pictures)))
        win = FormWindow(self.gui, rect, report.get("title", "Naval Combat Results"), object_id="#result_form")
        text = UITextBox(gui_text("<br>".join(shown)) or "-", pygame.Rect(6, 6, rect.w - 44, -1 if pictures else
                                                                        rect.h - 90), self.gui.manager, container=win)
        if pictures:
            text_h = min(text.rect.height, (rect.h - 100) // 2)
            if text.rect.height > text_h:
                text.set_dimensions((rect.w - 44, text_h))
            self._picture_box(win, rect, text_h, pictures)
        win.button((6, rect.h - 78, 90, 30), "OK", lambda: self.close(win))
        win.lines = lines
        win.naval = report
        win.chart = report.get("chart")
        return win

    def _picture_box(self, win: FormWindow, rect: pygame.Rect, text_h: int, pictures: list) -> None:
        """The pictures of a result (a chart, a table), one under the other on white, in a
        scrolling box between the result's text (``text_h`` high) and the OK button; kept as
        ``win.chart_surface`` (what tests and screenshots look at)."""
        picture = pictures[0]
        if len(pictures) > 1:
            picture = pygame.Surface((max(p.get_width() for p in pictures),
                                      sum(p.get_height() for p in pictures) + PICTURE_GAP * (len(pictures) - 1)))
            picture.fill((255, 255, 255))
            y = 0
            for p in pictures:
                picture.blit(p, (0, y))
                y += p.get_height() + PICTURE_GAP
        box = UIScrollingContainer(pygame.Rect(6, text_h + 10, rect.w - 44, rect.h - text_h - 100),
                                   self.gui.manager, container=win)
        box.set_scrollable_area_dimensions(picture.get_size())
        UIImage(pygame.Rect((0, 0), picture.get_size()), picture, self.gui.manager, container=box)
        win.chart_surface = picture

    def weather_report(self, dice: list[str] = ()) -> None:
        """Seeds, "Weather Report": the roll, then the weather in every zone after it."""
        names = self.model.zone_names
        lines = list(dice) + [f"{name}: <b>{self.model.weather(zone)}</b>" for zone, name in sorted(names.items())]
        self.show("Weather Report", lines)

    def victory(self) -> FormWindow:
        """Seeds, "Victory": the result at the game's end, and the table of objectives with
        who holds each and whom it counts for, totalled per major power and per side (shown at
        once, over any result)."""
        report = victory_report(self.game)
        if not report["rows"]:
            win = self._text_form("Victory", report["lines"] or ["The game is over."], 520)
            win.report = report
            self.open.append(win)
            return win
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
