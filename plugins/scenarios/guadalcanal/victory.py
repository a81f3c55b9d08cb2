"""Victory, Guadalcanal Special Victory Conditions.  "In Barbarossa and Guadalcanal there is
no possibility of an automatic victory"; each player gains at the end of the game:

- 5 for each friendly controlled objective hex that was enemy controlled at the start;
- 4 for each enemy CV destroyed;
- the US/CW/France player: "if at the end of a turn there are less than 5 Japanese convoys in
  the China Sea or South China Sea ... VP equal to the number of convoys less than 5 there are
  in each sea area each turn";
- 2 for each friendly controlled oil resource point, 1 for each other resource point, that
  was enemy controlled at the start.

"The player with the higher total subtracts their opponent's total" and the margin gives the
level: Decisive 21+, Substantive 11-20, Marginal 6-10, Draw 0-5.  The two players are the
two sides (Japan; the USA and the Commonwealth).
"""

from __future__ import annotations

from plugins.rules.core import hex_controller, world
from plugins.rules.naval.naval_units import is_convoy
from plugins.rules.naval.state import naval
from plugins.rules.units import units

from . import oob
from .state import (
    VICTORY_CHECK,
    ConvoyPointsScored,
    VictoryMarginDetermined,
    VictoryPointsCounted,
    rules,
    scenario_state,
    victory_rules,
)

CARRIER_TYPES = frozenset({"cv"})  # the naval class of an aircraft carrier (naval data "classes")
DESTROYED = frozenset({"eliminated"})  # where a sunk ship's counter goes (a damaged one: "repair-pool")


def _side(state, power: str | None) -> str | None:
    return state.kernel.side_of(power) if power else None


def convoys_in(state, power: str, area: str) -> int:
    """``power``'s convoy points at sea in the sea area ``area`` (the naval plugin's sea boxes;
    a convoy counter holds ``factors.points`` convoy points)."""
    all_units = units(state).units
    total = 0
    for uid, box in naval(state).at_sea.items():
        u = all_units.get(uid)
        if u is not None and u.power == power and is_convoy(u) and u.where == "map" and box.area == area:
            total += int(u.factors.get("points", 1))
    return total


def convoy_points_now(state) -> dict[str, int]:
    """Sea area -> the Allies' convoy points this turn: the Japanese convoys less than 5 there."""
    v = oob.scenario_data().victory
    return {area: max(0, v.convoy_quota - convoys_in(state, "japan", area)) for area in v.convoy_areas}


def margin_level(margin: int) -> str:
    """The level of victory for a margin (Guadalcanal Special Victory Conditions' table)."""
    for lowest, level in oob.scenario_data().victory.margins:
        if margin >= lowest:
            return level
    return oob.scenario_data().victory.margins[-1][1]


def count_victory_points(state) -> tuple[dict[str, int], list[dict]]:
    """Side -> victory points as the game stands, and the rows that scored (the victory form)."""
    v = oob.scenario_data().victory
    sides = list(state.kernel.sides)
    points = {s: 0 for s in sides}
    rows: list[dict] = []

    def score(side, what, pts, **more):
        points[side] += pts
        rows.append({"what": what, "side": side, "points": pts, **more})

    for name, h in oob.objectives():
        now, then = _side(state, hex_controller(state, h)), _side(state, oob.start_controller(h))
        if now is not None and then is not None and now != then:
            score(now, f"objective {name}", v.objective_points, hex=list(h))
    for place, h, kind, count in oob.resources():
        now, then = _side(state, hex_controller(state, h)), _side(state, oob.start_controller(h))
        if now is not None and then is not None and now != then:
            each = v.oil_points if kind == "oil" else v.resource_points
            score(now, f"{kind} at {place}", each * count, hex=list(h))
    for u in sorted(units(state).units.values(), key=lambda u: u.id):
        if u.branch == "naval" and u.type in CARRIER_TYPES and u.where in DESTROYED:
            lost = _side(state, u.power)
            for s in sides:
                if s != lost:
                    score(s, f"CV {u.name or u.id} destroyed", v.cv_points, unit=u.id)
    allies = "allies" if "allies" in points else None
    for turn, by_area in sorted(scenario_state(state).convoy_points.items(), key=lambda kv: int(kv[0])):
        for area, pts in sorted(by_area.items()):
            if pts and allies:
                score(allies, f"turn {turn}: Japanese convoys short in {area}", pts)
    return points, rows


def result_words(points: dict[str, int]) -> tuple[str | None, int, str, str]:
    """(winning side or None, margin, level, words) for final totals."""
    ranked = sorted(points.items(), key=lambda kv: (-kv[1], kv[0]))
    (top, high), (_, low) = ranked[0], ranked[1]
    margin = high - low
    level = margin_level(margin)
    names = oob.scenario_data().side_names
    totals = ", ".join(f"{names.get(side, side)} {pts}" for side, pts in ranked)
    if level == margin_level(0):
        return None, margin, level, f"{level}: the margin is {margin} victory points ({totals})"
    return top, margin, level, f"{level} victory for {names.get(top, top)} by {margin} victory points ({totals})"


@rules.step_rule(VICTORY_CHECK)
def victory_check(ctx, step_id: str) -> None:
    """Victory Check: the Allies' convoy points of this turn, the standing, and on the last
    turn the result (no automatic victory in Guadalcanal)."""
    if not victory_rules(ctx.state):
        return
    k = ctx.state.kernel
    ctx.emit(ConvoyPointsScored(turn=k.turn, points=convoy_points_now(ctx.state)))
    points, rows = count_victory_points(ctx.state)
    ctx.emit(VictoryPointsCounted(turn=k.turn, points=points, rows=rows))
    last = world(ctx.state).last_turn or int(k.options.get("last_turn", oob.scenario_data().start.turns))
    if k.turn < last:
        return
    winner, margin, level, words = result_words(points)
    ctx.emit(VictoryMarginDetermined(turn=k.turn, points=points, winner=winner, margin=margin, level=level,
                                     result=words))
