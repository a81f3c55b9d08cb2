"""Air-to-air combat (RAC 14.3, PM 7.9): where it is fought, strengths and combat values, the
rounds, the dice and the Air-to-air Combat Results Table.

Seeds: "Air-to-air Combat (see RAC 14.3)", "Air-to-air Combat Results Table", "Air-to-air
Combat" (subphase) and the sub-subphases "Defender Fires on Attacker", "Attacking Unit's
Result", "Attacker Fires on Defender", "Defending Unit's Result", "Both Staying".  The
players' decisions in a combat are in air_combat_decisions.py.
"""

from __future__ import annotations

import json
from functools import cache

from plugins.rules.units import UnitFlipped, UnitMoved

from .aircraft import DATA, is_carrier, is_fighter, other_side, units_of
from .events import (
    AirCombatEnded,
    AirCombatResultApplied,
    AirCombatRolled,
    AirCombatRoundStarted,
    AirCombatSelected,
    AirCombatsFound,
)
from .mission_kinds import KINDS
from .state import MISSION_NAME, Combat, Flight, air

EFFECT = {"X": "destroyed", "A": "aborted", "C": "cleared"}  # the result code's second letter


@cache
def a2a_table() -> list[tuple[int, str]]:
    data = json.loads((DATA / "air_to_air_table.json").read_text())
    return [(row["min"], row["result"]) for row in data["ladder"]]


def a2a_result(modified_total: float) -> str:
    """Air-to-air Combat Results Table (authored ladder, see data/air_to_air_table.json)."""
    for least, result in a2a_table():
        if modified_total >= least:
            return result
    return "-"


def combat_hexes(state) -> list[tuple[int, int]]:
    """Air-to-air combat is fought where both sides fly units and either has a fighter."""
    by_hex: dict[tuple, list[Flight]] = {}
    for f in air(state).mission.flights.values():
        by_hex.setdefault(f.hex, []).append(f)
    return [hex_ for hex_, flights in sorted(by_hex.items())
            if len({f.side for f in flights}) == 2 and any(f.role != "bomber" for f in flights)]


def default_lines(state, hex_) -> dict[str, dict[str, list[str]]]:
    units = units_of(state)
    lines: dict[str, dict[str, list[str]]] = {s: {"fighters": [], "bombers": []} for s in state.kernel.sides}
    for f in air(state).mission.flights.values():
        if f.hex == tuple(hex_):
            lines[f.side]["bombers" if f.role == "bomber" else "fighters"].append(f.unit)
    for line in lines.values():  # best air-to-air fighter in front, best bombers at the back
        line["fighters"].sort(key=lambda u: (-units[u].factors.get("air", 0), u))
        line["bombers"].sort(key=lambda u: (units[u].factors.get("tactical", 0), u))
    return lines


def side_dm(state, side: str) -> str:
    """The side's decision maker in an air combat: the power with most air units in it
    (ties: most fighters)."""
    c = air(state).mission.combat
    units = units_of(state)
    ids = [u for g in c.lines.get(side, {}).values() for u in g] if c else []
    counts: dict[str, tuple[int, int]] = {}
    for u in ids:
        n, f = counts.get(units[u].power, (0, 0))
        counts[units[u].power] = (n + 1, f + is_fighter(units[u]))
    if not counts:
        return state.kernel.sides[side][0]
    return sorted(counts, key=lambda p: (-counts[p][0], -counts[p][1], p))[0]


def needs_arranging(c: Combat) -> bool:
    # Arrange Units: skipped if both sides have 0-1 fighters and 0-1 bombers
    return any(len(line["fighters"]) > 1 or len(line["bombers"]) > 1 for line in c.lines.values())


def alive(c: Combat, side: str) -> bool:
    line = c.lines.get(side, {})
    return bool(line.get("fighters") or line.get("bombers"))


def rating(state, unit, role: str, hook=None) -> float:
    """A unit's air-to-air rating as modified by optional rules (``air_to_air_modifiers``)."""
    value = float(unit.factors.get("air", 0))
    if hook is not None:
        value += sum(d for answer in hook.air_to_air_modifiers(state=state, unit=unit, role=role)
                     for d, _ in answer or ())
    return value


def strength(state, line: dict[str, list[str]], opposing: dict | None = None, hook=None) -> tuple[float, bool]:
    """Air-to-air strength and whether the side rolls ("Combat values").

    Front fighter's rating + 1 per other FTR + 0.5 per other carrier air unit; with no
    fighter group, the front bomber's rating (an unarmed bomber does not roll).  ``hook``
    lets optional rules modify ratings and back-up fighters (against ``opposing``'s line)."""
    units = units_of(state)
    if line["fighters"]:
        front, *others = line["fighters"]
        total = rating(state, units[front], "front-fighter", hook)
        their_front = (opposing or {}).get("fighters") or []
        their = rating(state, units[their_front[0]], "front-fighter", hook) if their_front else None
        for u in others:
            if is_carrier(units[u]):
                total += 0.5
            elif hook is None or hook.backup_fighter_counts(
                    state=state, unit=units[u], rating=rating(state, units[u], "backup", hook),
                    opposing_front_rating=their) is not False:
                total += 1.0
        return total, True
    if line["bombers"]:
        front = units[line["bombers"][0]]
        return rating(state, front, "front-bomber", hook), "unarmed" not in front.flags
    return 0.0, False


def strengths(state, lines: dict[str, dict[str, list[str]]], hook=None) -> tuple[dict, dict, list[str]]:
    """Each side's strength, combat value (own strength - enemy strength) and the sides that do not roll."""
    power, rolls = {}, {}
    for side, line in lines.items():
        power[side], rolls[side] = strength(state, line, lines[other_side(state, side)], hook)
    values = {s: power[s] - power[other_side(state, s)] for s in power}
    return power, values, [s for s in rolls if not rolls[s]]


# ---------------------------------------------------------------- the combat, step by step
def air_to_air_step(ctx, step: str) -> None:
    # Air-to-air Combat subphase: run the air-to-air sub-machine for each combat hex
    hexes = combat_hexes(ctx.state)
    if not hexes:
        return
    ctx.emit(AirCombatsFound(hexes=hexes))
    next_combat(ctx)


def next_combat(ctx) -> None:
    m = air(ctx.state).mission
    if len(m.combats_left) == 1:
        select(ctx, m.combats_left[0])  # Select Location is skipped with one combat
    ctx.push("procedures.air-to-air-combat")


def select(ctx, hex_) -> None:
    state = ctx.state
    kind = KINDS.get(air(state).mission.kind)
    attacker = kind.attacker(state) if kind is not None and kind.attacker else state.kernel.active_side
    ctx.emit(AirCombatSelected(hex=tuple(hex_), attacker=attacker, defender=other_side(state, attacker),
                               lines=default_lines(state, hex_)))
    if not needs_arranging(air(state).mission.combat):
        begin_round(ctx)


def begin_round(ctx) -> None:
    """A new round: clear through bombers facing no fighters, strengths, the defender fires."""
    state = ctx.state
    c = air(state).mission.combat
    for side in (c.defender, c.attacker):
        if not c.lines[side]["fighters"]:
            # "If a side starts a round with no fighters, all opposing bombers are
            # immediately cleared through to the target."
            for bomber in list(c.lines[other_side(state, side)]["bombers"]):
                ctx.emit(AirCombatResultApplied(unit=bomber, effect="cleared", cause="no fighters"))
    if not (alive(c, c.attacker) and alive(c, c.defender)):
        return
    power, values, no_roll = strengths(state, {s: c.lines[s] for s in (c.defender, c.attacker)}, ctx.host.pm.hook)
    for side in values:
        values[side] += sum(d for answer in ctx.host.pm.hook.air_combat_value_modifiers(state=state, combat=c, side=side)
                            for d, _ in answer or ())
    ctx.emit(AirCombatRoundStarted(round=c.round + 1, strength=power, value=values, no_roll=no_roll))
    fire(ctx, c.defender)  # 1. The inactive side rolls two dice and adds them together.


def fire(ctx, side: str) -> None:
    state = ctx.state
    c = air(state).mission.combat
    target = other_side(state, side)
    value = c.value.get(side, 0.0)
    if not alive(c, side) or not alive(c, target) or side in c.no_roll:
        why = "unarmed" if side in c.no_roll else "no opposing aircraft left"
        ctx.emit(AirCombatRolled(side=side, dice=[], value=value, modified=0, result="-", target_side=target, reason=why))
        return
    m = air(state).mission
    dice = ctx.roll(f"air-to-air combat over {c.hex} ({MISSION_NAME.get(m.kind, m.kind)}), round {c.round}: {side} fires",
                    faces=10, count=2)
    modified = sum(dice) + value
    result = a2a_result(modified)
    result = ctx.host.pm.hook.air_combat_result(state=state, combat=c, side=side, result=result) or result
    line = c.lines[target]
    if result in ("AX", "DX", "AA", "DA"):
        candidates = [g[0] for g in (line["fighters"], line["bombers"]) if g]
    elif result in ("AC", "DC"):
        candidates = list(line["bombers"])
    else:
        candidates = []
    chooser = None
    if candidates:
        chooser = side_dm(state, side if result.startswith("A") else target)
    ctx.emit(AirCombatRolled(side=side, dice=dice, value=value, modified=modified, result=result,
                             target_side=target, chooser=chooser, candidates=candidates))


def apply_result(ctx, target_side: str) -> None:
    c = air(ctx.state).mission.combat
    p = c.pending
    if not p or p["target_side"] != target_side or p["applied"] or not p["chosen"]:
        return
    effect = EFFECT[p["result"][1]]
    unit = p["chosen"]
    ctx.emit(AirCombatResultApplied(unit=unit, effect=effect, cause=p["result"]))
    after_effect(ctx, unit, effect)


AIR_TO_AIR = "air-to-air combat"  # the reason the ``aircraft_destroyed`` hook is told


def after_effect(ctx, unit: str, effect: str) -> None:
    if effect == "destroyed":
        ctx.host.pm.hook.aircraft_destroyed(ctx=ctx, unit=unit, reason=AIR_TO_AIR,
                                            hex_=tuple(air(ctx.state).mission.combat.hex))
        ctx.emit(UnitMoved(unit=unit, to_hex=None, to_where="force-pool"))
    elif effect == "aborted" and units_of(ctx.state)[unit].face_up:
        # "An aborted air unit becomes disorganized"; it returns to base at once, through
        # the Return to Base digression when its result step ends (see ``step_ended``).
        kind = KINDS.get(air(ctx.state).mission.kind)
        if kind is None or kind.keeps_facing is None or not kind.keeps_facing(ctx.state, unit):
            ctx.emit(UnitFlipped(unit=unit, face_up=False))


def result_step(side_attr: str):
    def rule(ctx, step: str) -> None:
        c = air(ctx.state).mission.combat
        apply_result(ctx, getattr(c, side_attr))
    return rule


def attacker_fires(ctx, step: str) -> None:
    c = air(ctx.state).mission.combat
    fire(ctx, c.attacker)  # 3. The active side rolls two dice and adds them together.


def both_staying(ctx, step: str) -> None:
    state = ctx.state
    c = air(state).mission.combat
    if not c.ended:
        if c.aborted_sides or not (alive(c, c.attacker) and alive(c, c.defender)):
            reason = ("voluntary abort by " + ", ".join(c.aborted_sides)) if c.aborted_sides else "one side has no aircraft left"
            ctx.emit(AirCombatEnded(hex=c.hex, reason=reason))
        else:
            if not needs_arranging(c):
                begin_round(ctx)
            return  # the round repeats (repeat_step)
    if air(state).mission.combats_left:
        next_combat(ctx)


def round_skip(state, step_id: str) -> str | None:
    c = air(state).mission.combat
    last = step_id.rsplit(".", 1)[-1]
    if c is None:
        # No combat yet (as `wif steps` asks at the start of a game): the defender's fire is no
        # step of its own in any combat ("1. The inactive side rolls" as the round begins: begin_round)
        return "the defender fires as each round begins (above)" if last == "defender-fires" else None
    if last in ("both-staying", "attacking-unit-result", "defending-unit-result"):
        return None
    if c.ended or not (alive(c, c.attacker) and alive(c, c.defender)):
        return "the air combat is over"
    if last == "defender-fires":
        return "the defender rolled when the round began (above)"
    if last == "arrange-units" and not needs_arranging(c):
        return "both sides have at most 1 fighter and 1 bomber"
    return None
