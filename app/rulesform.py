"""The Optional Rules form, in its two uses (seeds, "Optional Rules"):

- before a game, as the Start New Game form's tabs: one tab per group (additional units,
  land, air, naval, supply, production, other), a rule listed with "(ON)" when chosen, a
  click toggles it in the set the game will start with;
- in play (Ctrl+O), the rules of the game with "(ON)"; a right-click toggles one that may
  be toggled now, as a ``ToggleOptionalRule`` command, so the log records when it changed.
  A refusal (not now, prerequisite, exclusion) is shown in the form.

Rules not implemented yet are listed, described, and cannot be switched on.
"""

from __future__ import annotations

from typing import Callable

import pygame
import pygame_gui
from pygame_gui.elements import UILabel, UISelectionList, UITextBox

from kernel.errors import WifError

from .forms import FormWindow, Gui, ask_name
from .uihooks import ask_game, ask_optional_rules, optional_rules_host

SHORT_TITLES = {"additional-units": "Units"}  # a tab is narrow
SIZE = (640, 470)
NOT_IMPLEMENTED = " [not implemented yet]"


def _item_at(selection: UISelectionList, pos) -> str | None:
    """The text of the list row under ``pos`` (pygame_gui builds buttons for visible rows)."""
    for item in selection.item_list:
        element = item.get("button_element")
        if element is not None and element.visible and element.rect.collidepoint(pos):
            return item["text"]
    return None


class RulesForm:
    """A tabbed list of the optional rules.  ``rows()`` gives the rules to show, as dicts
    with id, name, group, on, implemented, description and (in play) may_toggle_now/why_not;
    ``toggle(rule_id)`` is called when the player toggles one and returns a message."""

    def __init__(self, gui: Gui, title: str, rows: Callable[[], list[dict]],
                 toggle: Callable[[str], str], in_play: bool, groups: dict[str, str], centre=None):
        """``groups``: group id -> title, in the catalogue's order (one tab each)."""
        self.gui = gui
        self.rows = rows
        self.toggle = toggle
        self.in_play = in_play
        self.groups = [(g, SHORT_TITLES.get(g, title)) for g, title in groups.items()]
        self.group = self.groups[0][0]
        w, h = SIZE
        cx, cy = centre or (gui.size[0] // 2, gui.size[1] // 2)
        self.window = FormWindow(gui, pygame.Rect(cx - w // 2, cy - h // 2, w, h), title, object_id="#rules_form")
        self.tabs = {}
        x = 6
        for group, label in self.groups:
            self.tabs[group] = self.window.button((x, 6, 84, 28), label, lambda g=group: self.show(g))
            x += 88
        hint = ("right-click a rule to switch it ON or OFF (only rules that may change now)" if in_play
                else "click a rule to switch it ON or OFF for the new game")
        self.hint = UILabel(pygame.Rect(6, 38, w - 24, 22), hint, gui.manager, container=self.window)
        self.list: UISelectionList | None = None
        self.message = UITextBox("", pygame.Rect(6, h - 150, w - 24, 80), gui.manager, container=self.window)
        self.window.owned += [self.hint, self.message]
        self.window.button((w - 120, h - 64, 100, 28), "Close", self.close)
        self.show(self.group)

    # ------------------------------------------------------------ content
    def labels(self, group: str) -> list[tuple[str, str]]:
        out = []
        for row in self.rows():
            if row["group"] != group:
                continue
            text = row["name"] + (" (ON)" if row["on"] else "")
            if not row["implemented"]:
                text += NOT_IMPLEMENTED
            out.append((text, row["id"]))
        return out

    def show(self, group: str) -> None:
        self.group = group
        if self.list is not None:
            self.gui.forget(self.list)
            self.list.kill()
        w, h = SIZE
        self.items = self.labels(group)
        self.list = UISelectionList(pygame.Rect(6, 62, w - 24, h - 220), [t for t, _ in self.items],
                                    self.gui.manager, container=self.window)
        self.window.owned.append(self.list)
        self.gui.on(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, self.list, self._selected)

    def rule_for(self, text: str) -> str | None:
        return next((rule_id for t, rule_id in self.items if t == text), None)

    def say(self, text: str) -> None:
        self.message.set_text(text)

    # ------------------------------------------------------------ events
    def _selected(self, text) -> None:
        rule_id = self.rule_for(text)
        if rule_id is None:
            return
        row = next(r for r in self.rows() if r["id"] == rule_id)
        if self.in_play:
            # a click shows what the rule is and whether it may change now
            why = "" if row.get("may_toggle_now") else f"\n{row.get('why_not') or ''}"
            self.say(f"{row['name']}: {row.get('description', '')}{why}")
        else:
            self.say(self.toggle(rule_id))
            self.show(self.group)

    def handle(self, event) -> bool:
        """Right-click on a rule in play toggles it.  True when the event was used."""
        if (self.in_play and event.type == pygame.MOUSEBUTTONDOWN and event.button == 3
                and self.list is not None and self.list.rect.collidepoint(event.pos)):
            text = _item_at(self.list, event.pos)
            rule_id = self.rule_for(text) if text else None
            if rule_id is not None:
                self.say(self.toggle(rule_id))
                self.show(self.group)
            return True
        return False

    def close(self) -> None:
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
        outcome = game.submit({"type": "ToggleOptionalRule", "actor": actor, "rule": rule_id, "on": on},
                              player=player)
        return f"{row['name']} is now {'ON' if on else 'OFF'}" if outcome.accepted else outcome.reason

    return RulesForm(gui, "Optional Rules (in play)", rows, toggle, in_play=True, groups=groups)


def new_game_rules_form(gui: Gui, chosen: list[str], on_change: Callable[[list[str]], None]) -> RulesForm:
    """The Start New Game form's optional-rules tabs: edits ``chosen`` (rule ids) in place,
    checking prerequisites and exclusions as each rule is switched on."""
    host = optional_rules_host()
    catalogue = ask_optional_rules("optional_rules_catalogue", host)
    by_id = {r["id"]: r for r in catalogue["rules"]}

    def rows() -> list[dict]:
        return [r | {"on": r["id"] in chosen} for r in catalogue["rules"]]

    def toggle(rule_id: str) -> str:
        rule = by_id[rule_id]
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

    w, h = SIZE
    form.window.button((6, h - 64, 190, 28), "Save as Personal Set", lambda: save("personal"))
    form.window.button((202, h - 64, 110, 28), "Save As...",
                       lambda: ask_name(gui, "Save optional rules as", "my-rules", save))
    return form
