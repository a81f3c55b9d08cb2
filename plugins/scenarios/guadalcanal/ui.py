"""What the window asks Guadalcanal beyond its commands (the front end's hooks, specified in
app/uihooks.py; optional here, so a game without a window does not need them): the victory
points as they stand (seeds, "Victory" form; Guadalcanal Special Victory Conditions)."""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from plugins.rules.core.scenario import victory_form

from .state import SCENARIO, victory_rules
from .victory import count_victory_points

__all__ = ["victory_standing"]


@hookimpl(optionalhook=True)
def victory_standing(state):
    if not victory_rules(state):
        return None
    totals, rows = count_victory_points(state)
    rows = [{"name": r["what"], "hex": r.get("hex") or [], "value": r["points"], "controller": r["side"],
             "credited": {r["side"]: r["points"]}} for r in rows]
    return victory_form(state, SCENARIO, totals, rows)
