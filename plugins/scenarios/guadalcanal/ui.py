"""What the window asks Guadalcanal beyond its commands (the front end's hooks, specified in
app/uihooks.py; optional here, so a game without a window does not need them): the victory
points as they stand (seeds, "Victory" form; Guadalcanal Special Victory Conditions), and where
the map opens: the scenario's front."""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from plugins.rules.core import world_map
from plugins.rules.core.scenario import victory_form

from .state import SCENARIO, victory_rules
from .victory import count_victory_points

__all__ = ["scenario_front", "victory_standing"]

# Seeds, "Scenarios", Guadalcanal: the Coral Sea, Midway "and the long struggle on Guadalcanal".
# Where both sides' forces meet at the start (authored: the seeds name no front): Japan's base
# at Rabaul and its outpost at Tulagi against the Allies' Port Moresby.  Midway lies far to the
# north-east; a map opened on the middle of all three would show empty ocean.
FRONT_PLACES = ("Rabaul", "Tulagi", "Port Moresby")


@hookimpl(optionalhook=True)
def scenario_front(state, power):
    """The same front for every power: the map opens on the Solomons and New Guinea."""
    hexes = []
    for name in FRONT_PLACES:
        city = world_map().city(name)
        if city is None:  # the map is ours: a missing place is a bug of the map data
            raise LookupError(f"Guadalcanal's front: the world map has no place named {name!r}")
        hexes.append(list(city.hex))
    return hexes


@hookimpl(optionalhook=True)
def victory_standing(state):
    if not victory_rules(state):
        return None
    totals, rows = count_victory_points(state)
    rows = [{"name": r["what"], "hex": r.get("hex") or [], "value": r["points"], "controller": r["side"],
             "credited": {r["side"]: r["points"]}} for r in rows]
    return victory_form(state, SCENARIO, totals, rows)
