"""The Optional Rules form, in its two uses (seeds, "Optional Rules"):

- before a game, as the Start New Game form's tabs: one tab per group (additional units,
  land, air, naval, supply, production, other), each rule listed with ON or OFF, its name and
  the start of its description; ON/OFF toggles it in the set the game will start with;
- in play (Ctrl+O), the rules of the game the same way; ON/OFF or a right-click toggles one
  that may be toggled now, as a ``ToggleOptionalRule`` command, so the log records when it
  changed.  A refusal (not now, prerequisite, exclusion) is shown in the form.

A click on a rule's name shows its whole description below the list.  Rules not implemented
yet are listed, described, and cannot be switched on.
"""

from __future__ import annotations

from typing import Callable

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIScrollingContainer, UITextBox

from kernel.errors import WifError

from .forms import FormWindow, Gui, ask_name, gui_text
from .uihooks import ask_game, ask_optional_rules, optional_rules_host

SHORT_TITLES = {"additional-units": "Units"}  # a tab is narrow
SIZE = (700, 600)
NOT_IMPLEMENTED = " [not implemented yet]"
# in play a rule is described as the game knows it: one whose plugin the game was not started
# with (or that no plugin implements) cannot be used in this game
NOT_IN_GAME = " [not in this game]"
# the catalogue's cannot_implement: the seeds do not give enough of the rule to play it
CANNOT_BE_PLAYED = " [the seeds do not give enough to play it]"
ROW_H = 70  # a rule: its ON/OFF button and name, then two lines of its description
SWITCH_W = 52
DESCRIPTION_LINES = 2


# how the rule rows look: ON green, names and descriptions read from the left
ROW_THEME = {
    "#rule_on": {"colours": {"normal_bg": "#2e7d32", "hovered_bg": "#388e3c", "normal_text": "#ffffff"}},
    "#rule_off": {"colours": {"normal_bg": "#5a2a2a", "hovered_bg": "#6d3333"}},
    "#rule_name": {"misc": {"text_horiz_alignment": "left", "text_horiz_alignment_padding": "6"},
                   "colours": {"normal_bg": "#2b3140"}},
    "#rule_description": {"misc": {"text_horiz_alignment": "left"}, "colours": {"normal_text": "#b8bec8"}},
}


def wrap(text: str, width: int, measure: Callable[[str], int], lines: int) -> list[str]:
    """``text`` in at most ``lines`` lines of at most ``width`` pixels, the last cut with "..."."""
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines:
        line = words.pop(0)
        while words and measure(line + " " + words[0]) <= width:
            line += " " + words.pop(0)
        out.append(line)
    if words and out:
        last = out[-1]
        while last and measure(last + " ...") > width:
            last = last.rsplit(" ", 1)[0] if " " in last else last[:-1]
        out[-1] = last + " ..."
    return out


class RuleRow:
    """One rule in the list: the ON/OFF switch, its name, its description."""

    def __init__(self, rule_id: str, text: str, switch, elements: list):
        self.id, self.text, self.switch, self.elements = rule_id, text, switch, elements

    def contains(self, pos) -> bool:
        return any(e.visible and e.get_abs_rect().collidepoint(pos) for e in self.elements)


class RulesForm:
    """A tabbed list of the optional rules, each with ON or OFF and its description (seeds,
    "Optional Rules": the rules are listed with their state; the description of the one
    chosen is shown whole below the list).  ``rows()`` gives the rules to show, as dicts with
    id, name, group, on, implemented, description and (in play) may_toggle_now/why_not;
    ``toggle(rule_id)`` is called when the player toggles one and returns a message."""

    def __init__(self, gui: Gui, title: str, rows: Callable[[], list[dict]],
                 toggle: Callable[[str], str], in_play: bool, groups: dict[str, str], centre=None):
        """``groups``: group id -> title, in the catalogue's order (one tab each)."""
        self.gui = gui
        self.rows = rows
        self.toggle = toggle
        self.in_play = in_play
        self.unavailable = NOT_IN_GAME if in_play else NOT_IMPLEMENTED
        self.groups = [(g, SHORT_TITLES.get(g, title)) for g, title in groups.items()]
        self.group = self.groups[0][0]
        w, h = min(SIZE[0], gui.size[0]), min(SIZE[1], gui.size[1])
        self.size = (w, h)
        cx, cy = centre or (gui.size[0] // 2, gui.size[1] // 2)
        self.window = FormWindow(gui, pygame.Rect(cx - w // 2, cy - h // 2, w, h), title, object_id="#rules_form")
        self.tabs = {}
        x = 6
        for group, label in self.groups:
            self.tabs[group] = self.window.button((x, 6, 90, 28), label, lambda g=group: self.show(g))
            x += 94
        hint = ("ON/OFF or a right-click switches a rule that may change now; click a name to read it all"
                if in_play
                else "ON/OFF switches a rule for the new game; a click on its name shows it whole")
        self.hint = UILabel(pygame.Rect(6, 38, w - 24, 22), hint, gui.manager, container=self.window)
        self.list: UIScrollingContainer | None = None
        self.shown: list[RuleRow] = []
        self.items: list[tuple[str, str]] = []
        self.message = UITextBox("", pygame.Rect(6, h - 160, w - 24, 90), gui.manager, container=self.window)
        self.window.owned += [self.hint, self.message]
        self.window.button((w - 120, h - 64, 100, 28), "Close", self.close)
        self.show(self.group)

    # ------------------------------------------------------------ content
    def labels(self, group: str) -> list[tuple[str, str]]:
        """(the rule's line as listed, rule id): "ON  name" or "OFF  name"."""
        out = []
        for row in self.rows():
            if row["group"] != group:
                continue
            text = ("ON  " if row["on"] else "OFF  ") + row["name"]
            text += self.unavailable_mark(row)
            out.append((text, row["id"]))
        return out

    def unavailable_mark(self, row: dict) -> str:
        """What follows the name of a rule the player cannot switch on, and why."""
        if row["implemented"]:
            return ""
        if row.get("cannot_implement") and not self.in_play:
            return CANNOT_BE_PLAYED
        return self.unavailable

    def show(self, group: str) -> None:
        self.group = group
        if self.list is not None:
            for row in self.shown:
                for element in row.elements:
                    self.gui.forget(element)
            self.list.kill()
        w, h = self.size
        m = self.gui.manager
        m.get_theme().load_theme(ROW_THEME)
        rules = [r for r in self.rows() if r["group"] == group]
        self.items = self.labels(group)
        self.list = UIScrollingContainer(pygame.Rect(6, 62, w - 24, h - 230), m, container=self.window,
                                         allow_scroll_x=False)
        inner = w - 24 - 22  # the vertical scroll bar's room
        self.list.set_scrollable_area_dimensions((inner, max(1, len(rules)) * ROW_H))
        measure = m.get_theme().get_font_dictionary().find_font(14, "noto_sans").size
        self.shown = []
        for i, rule in enumerate(rules):
            y = i * ROW_H
            switch = UIButton(pygame.Rect(0, y + 2, SWITCH_W, 24), "ON" if rule["on"] else "OFF", m,
                              container=self.list, object_id="#rule_on" if rule["on"] else "#rule_off",
                              tool_tip_text="switch ON or OFF")
            name = rule["name"] + self.unavailable_mark(rule)
            title = UIButton(pygame.Rect(SWITCH_W + 6, y + 2, inner - SWITCH_W - 6, 24), name, m,
                             container=self.list, object_id="#rule_name")
            lines = wrap(rule.get("description", ""), inner - SWITCH_W - 14, lambda t: measure(t)[0],
                         DESCRIPTION_LINES)
            described = [UILabel(pygame.Rect(SWITCH_W + 10, y + 26 + 20 * k, inner - SWITCH_W - 10, 21), line, m,
                                 container=self.list, object_id="#rule_description")
                         for k, line in enumerate(lines)]
            text = next(t for t, rid in self.items if rid == rule["id"])
            self.gui.on(pygame_gui.UI_BUTTON_PRESSED, switch, lambda r=rule["id"]: self._switch(r))
            self.gui.on(pygame_gui.UI_BUTTON_PRESSED, title, lambda r=rule["id"]: self._selected(r))
            self.shown.append(RuleRow(rule["id"], text, switch, [switch, title, *described]))
        self.window.owned.append(self.list)

    def rule_for(self, text: str) -> str | None:
        return next((rule_id for t, rule_id in self.items if t == text), None)

    def row_at(self, pos) -> RuleRow | None:
        return next((row for row in self.shown if row.contains(pos)), None)

    def say(self, text: str) -> None:
        self.message.set_text(gui_text(text))

    # ------------------------------------------------------------ events
    def _switch(self, rule_id: str) -> None:
        scroll = self.list.vert_scroll_bar.start_percentage if self.list.vert_scroll_bar else 0
        self.say(self.toggle(rule_id))
        self.show(self.group)
        if scroll and self.list.vert_scroll_bar is not None:  # the list stays where it was
            self.list.vert_scroll_bar.set_scroll_from_start_percentage(scroll)

    def _selected(self, rule_id: str) -> None:
        """A click on a rule's name: the whole description and whether it may change now."""
        row = next(r for r in self.rows() if r["id"] == rule_id)
        state = "ON" if row["on"] else "OFF"
        why = ""
        if self.in_play and not row.get("may_toggle_now"):
            why = f"\n{row.get('why_not') or ''}"
        self.say(f"{row['name']} ({state}): {row.get('description', '')}{why}")

    def handle(self, event) -> bool:
        """Right-click on a rule in play toggles it (seeds, Optional Rules).  True when the
        event was used."""
        if (self.in_play and event.type == pygame.MOUSEBUTTONDOWN and event.button == 3
                and self.list is not None and self.list.get_abs_rect().collidepoint(event.pos)):
            row = self.row_at(event.pos)
            if row is not None:
                self._switch(row.id)
            return True
        return False

    def close(self) -> None:
        for row in self.shown:
            for element in row.elements:
                self.gui.forget(element)
        self.gui.close(self.window)
        self.closed = True


# ---------------------------------------------------------------- the two uses
# The optional-rule framework answers both through its hooks (app/uihooks.py).
def play_rules_form(gui: Gui, game, player: str | None, actor: str) -> RulesForm:
    """Ctrl+O in play: toggling is a command by ``actor`` submitted as ``player``."""
    groups = ask_game(game, "optional_rules_catalogue")["groups"]

    def rows() -> list[dict]:
        return ask_game(game, "optional_rules_in_game", game=game)

    def toggle(rule_id: str) -> str:
        row = next(r for r in rows() if r["id"] == rule_id)
        on = not row["on"]
        if player is None:  # never submitted as nobody: the kernel would not check who decides
            return f"no player controls {actor}: nobody may switch rules here"
        outcome = game.submit({"type": "ToggleOptionalRule", "actor": actor, "rule": rule_id, "on": on},
                              player=player)
        return f"{row['name']} is now {'ON' if on else 'OFF'}" if outcome.accepted else outcome.reason

    return RulesForm(gui, "Optional Rules (in play)", rows, toggle, in_play=True, groups=groups)


def new_game_rules_form(gui: Gui, chosen: list[str], on_change: Callable[[list[str]], None],
                        scenario: str | None = None) -> RulesForm:
    """The Start New Game form's optional-rules tabs: edits ``chosen`` (rule ids) in place,
    checking prerequisites and exclusions as each rule is switched on; a rule that does nothing
    in ``scenario`` (Kamikaze without Japan) says why and stays OFF."""
    host = optional_rules_host()
    catalogue = ask_optional_rules("optional_rules_catalogue", host)
    by_id = {r["id"]: r for r in catalogue["rules"]}
    not_applying = (ask_optional_rules("optional_rules_fitting", None, scenario=scenario).get("not_applying", {})
                    if scenario else {})

    def rows() -> list[dict]:
        return [r | {"on": r["id"] in chosen}
                | ({"description": f"Does not apply here: {not_applying[r['id']]}. {r['description']}"}
                   if r["id"] in not_applying else {})
                for r in catalogue["rules"]]

    def toggle(rule_id: str) -> str:
        rule = by_id[rule_id]
        if rule_id in not_applying and rule_id not in chosen:
            return f"{rule['name']} stays OFF: {not_applying[rule_id]}"
        wanted = [r for r in chosen if r != rule_id] if rule_id in chosen else chosen + [rule_id]
        try:  # the framework checks prerequisites and exclusions
            ask_optional_rules("optional_rules_choice", host, preset="none", rules_on=wanted, rules_off=[])
        except WifError as exc:
            return str(exc)
        chosen[:] = [r for r in by_id if r in wanted]
        on_change(chosen)
        return f"{rule['name']} {'ON' if rule_id in chosen else 'OFF'}: {rule['description']}"

    form = RulesForm(gui, "Optional Rules", rows, toggle, in_play=False, groups=catalogue["groups"])

    def save(name: str) -> None:
        # Optional Rules: "Save as Personal Set" and "Save As" (a named set, restored later
        # from the preset list or with `wif new --rules NAME`)
        try:
            path = ask_optional_rules("save_optional_rule_set", host, name=name, rules=list(chosen))
        except WifError as exc:
            form.say(str(exc))
            return
        form.say(f"saved {len(chosen)} rules as {'the Personal Set' if name == 'personal' else name!r} ({path})")

    w, h = form.size
    form.window.button((6, h - 64, 190, 28), "Save as Personal Set", lambda: save("personal"))
    form.window.button((202, h - 64, 110, 28), "Save As...",
                       lambda: ask_name(gui, "Save optional rules as", "my-rules", save))
    return form
