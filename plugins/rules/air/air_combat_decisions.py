"""The players' decisions in an air-to-air combat: which combat next, how each side arranges
its lines (secretly), which unit a result falls on, abort or stay.  Handler, choices and
preview of each call the same check.

Seeds: "Air-to-air Combat: Select Location", "Air-to-air Combat: Arrange Units",
"Air-to-air Combat: Affected Attacking Unit Chosen" / "... Defending Unit Chosen",
"Air-to-air Combat: Attacker Aborts or Stays" / "Defender Aborts or Stays".
"""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected

from .air_to_air import EFFECT, after_effect, begin_round, default_lines, select, side_dm, strength, strengths
from .aircraft import hex_label, name, side
from .events import AirCasualtyChosen, AirCombatChoice, AirCombatResultApplied, AirLineArranged, AirLinesRevealed
from .missions import mission_running
from .state import A2A, ABORT_OR_STAY_STEPS, AFFECTED_UNIT_STEPS, ARRANGE_UNITS, SELECT_LOCATION, air


def _combat(state, rule: str):
    c = air(state).mission.combat
    if c is None or c.ended:
        raise Rejected(f"{rule}: no air-to-air combat is being fought now")
    return c


# ---------------------------------------------------------------- Select Location
def check_select(state, hex_) -> None:
    m = mission_running(state, "Select Location")
    if tuple(hex_) not in [tuple(h) for h in m.combats_left]:
        left = ", ".join(str(tuple(h)) for h in m.combats_left) or "none"
        raise Rejected(f"Air-to-air Combat: no air combat waits at {tuple(hex_)} (waiting: {left})")


def select_air_combat(ctx, cmd) -> None:
    check_select(ctx.state, cmd.hex)
    select(ctx, cmd.hex)
    ctx.finish_decision(cmd.actor)


def select_choices(state, actor, step_id):
    m = air(state).mission
    if not m.combats_left:
        return None
    return [Field("hex", "hex", [Option(tuple(h), f"air combat over {hex_label(h)}") for h in m.combats_left],
                  label="air combat to resolve next")]


def select_preview(state, cmd) -> dict:
    check_select(state, cmd.hex)
    lines = default_lines(state, cmd.hex)
    power, values, no_roll = strengths(state, lines)
    return {"hex": list(cmd.hex), "lines": lines, "strength": power, "value": values, "no_roll": no_roll,
            "modifiers": "base ratings (optional rules' modifiers apply when the round begins)"}


# ---------------------------------------------------------------- Arrange Units
def check_arrangement(state, actor: str, fighters: list[str], bombers: list[str]) -> str:
    """The side ``actor`` arranges; Rejected unless the lists hold its units, each once."""
    c = _combat(state, "Air-to-air Combat, Arrangement")
    side_ = side(state, actor)
    line = c.lines.get(side_) or {"fighters": [], "bombers": []}
    if sorted(fighters) != sorted(line["fighters"]) or sorted(bombers) != sorted(line["bombers"]):
        raise Rejected(f"Air-to-air Combat, Arrangement: list every one of your fighters ({', '.join(line['fighters']) or 'none'}) "
                       f"and bombers ({', '.join(line['bombers']) or 'none'}) once, front first; units cannot change lines")
    return side_


def arrange_air_line(ctx, cmd) -> None:
    side_ = check_arrangement(ctx.state, cmd.actor, cmd.fighters, cmd.bombers)
    ctx.emit(AirLineArranged(side=side_, fighters=cmd.fighters, bombers=cmd.bombers))
    ctx.finish_decision(cmd.actor)  # the last side's finish ends the step: ``reveal_lines``


def reveal_lines(ctx) -> None:
    """Arrange Units: "neither side sees how the other side has arranged its units until both
    sides click on the Ready button": when the step ends both lines are revealed together,
    then the round begins."""
    c = air(ctx.state).mission.combat
    if c is None or not c.arranged:
        return
    ctx.emit(AirLinesRevealed(lines=dict(c.arranged)))
    begin_round(ctx)


def _fronts(state, group: list[str], what: str) -> list[Option]:
    # Only the front unit of a line tells in a round (strength, results); the lines are
    # arranged again before the next round, so one arrangement per front unit is offered.
    if len(group) <= 1:
        return [Option(list(group), f"{name(state, group[0])} alone" if group else f"no {what}")]
    return [Option([front] + [u for u in group if u != front], f"{name(state, front)} in front") for front in group]


def arrange_choices(state, actor, step_id):
    c = air(state).mission.combat
    if c is None or c.ended:
        return None
    line = c.lines.get(side(state, actor)) or {"fighters": [], "bombers": []}
    return [Field("fighters", "option", _fronts(state, line["fighters"], "fighters"), label="fighters, front first"),
            Field("bombers", "option", _fronts(state, line["bombers"], "bombers"), label="bombers, front first")]


def arrange_preview(state, cmd) -> dict:
    side_ = check_arrangement(state, cmd.actor, cmd.fighters, cmd.bombers)
    c = air(state).mission.combat
    mine = {"fighters": list(cmd.fighters), "bombers": list(cmd.bombers)}
    theirs = next(line for s, line in c.lines.items() if s != side_)  # as last seen: theirs is secret
    own, rolls = strength(state, mine, theirs)
    enemy, _ = strength(state, theirs, mine)
    return {"side": side_, "strength": own, "rolls": rolls, "enemy_strength": enemy, "value": own - enemy,
            "modifiers": "base ratings, against the enemy's line as last revealed"}


# ---------------------------------------------------------------- Affected Unit Chosen
def check_casualty(state, unit: str) -> dict:
    c = _combat(state, "Air-to-air Combat Results")
    p = c.pending
    if not p or p["chosen"] or unit not in p["candidates"]:
        allowed = ", ".join(p["candidates"]) if p else "none"
        raise Rejected(f"Air-to-air Combat Results: the {p['result'] if p else ''} result applies to one of: {allowed}")
    return p


def choose_air_casualty(ctx, cmd) -> None:
    check_casualty(ctx.state, cmd.unit)
    ctx.emit(AirCasualtyChosen(unit=cmd.unit, by=cmd.actor))
    ctx.finish_decision(cmd.actor)


def casualty_choices(state, actor, step_id):
    c = air(state).mission.combat
    p = c.pending if c is not None else None
    if not p or p["chosen"]:
        return None
    effect = EFFECT[p["result"][1]]
    return [Field("unit", "unit", [Option(u, f"{name(state, u)} is {effect}") for u in p["candidates"]],
                  label=f"the unit the {p['result']} result falls on")]


def casualty_preview(state, cmd) -> dict:
    p = check_casualty(state, cmd.unit)
    return {"unit": cmd.unit, "result": p["result"], "effect": EFFECT[p["result"][1]]}


# ---------------------------------------------------------------- Aborts or Stays
def check_abort_or_stay(state, actor: str) -> list[str]:
    """The units ``actor``'s side would abort (all of them in the combat)."""
    c = _combat(state, "Air-to-air Combat: Aborts or Stays")
    return [u for g in c.lines[side(state, actor)].values() for u in g]


def abort_or_stay(ctx, cmd) -> None:
    units = check_abort_or_stay(ctx.state, cmd.actor)
    ctx.emit(AirCombatChoice(side=side(ctx.state, cmd.actor), abort=cmd.abort))
    if cmd.abort:
        # Voluntary abort: apply an "A" result to every air unit you have in the combat
        for unit in units:
            ctx.emit(AirCombatResultApplied(unit=unit, effect="aborted", cause="voluntary abort"))
            after_effect(ctx, unit, "aborted")
    ctx.finish_decision(cmd.actor)


def abort_choices(state, actor, step_id):
    c = air(state).mission.combat
    if c is None or c.ended:
        return None
    return [Field("abort", "bool", [Option(False, "stay: there may be another round"),
                                    Option(True, "abort every one of your air units in this combat")])]


def abort_preview(state, cmd) -> dict:
    units = check_abort_or_stay(state, cmd.actor)
    c = air(state).mission.combat
    return {"abort": cmd.abort, "aborting": units if cmd.abort else [], "strength": dict(c.strength)}


# ---------------------------------------------------------------- mandatory decisions
def finish_refusal(state, step_id: str, power: str) -> str | None:
    """Why ``power`` may not end an air-to-air decision step without deciding."""
    m = air(state).mission
    c = m.combat
    if step_id == SELECT_LOCATION and m.combats_left and (c is None or c.ended):
        return "Air-to-air Combat: Select Location: choose which air combat is resolved next (SelectAirCombat)"
    if c is None or c.ended:
        return None
    if step_id == ARRANGE_UNITS and side(state, power) not in c.arranged:
        return "Air-to-air Combat: Arrange Units: arrange your fighters and bombers, front first (ArrangeAirLine)"
    if step_id in AFFECTED_UNIT_STEPS and c.pending and not c.pending["chosen"]:
        return f"Air-to-air Combat: choose the unit the {c.pending['result']} result falls on (ChooseAirCasualty)"
    if step_id in ABORT_OR_STAY_STEPS:
        return "Air-to-air Combat: click Abort or Stay (AirCombatAbortOrStay)"
    return None


# ---------------------------------------------------------------- the secret arrangement
def sides_seen_by(state, player: str) -> set[str]:
    """The sides whose secrets ``player`` may see: those of the powers the player controls
    (a side's or a power's own name stands for that side)."""
    k = state.kernel
    if player in k.sides:
        return {player}
    powers = [p for p, who in k.controllers.items() if who == player] + [player]
    return {k.side_of(p) for p in powers} - {None}


def hide_arrangement(event, player, view, state) -> None:
    # Air-to-air Combat: Arrange Units: an arrangement stays secret until both are revealed
    c = air(state).mission.combat
    if c is not None and event.seq in c.unrevealed and event.data["side"] not in sides_seen_by(state, player):
        view["hidden"] = True


def hide_arranged_lines(state, player, view) -> None:
    combat = (view["sections"].get("air") or {}).get("mission", {}).get("combat")
    if combat and combat.get("arranged"):
        seen = sides_seen_by(state, player)
        combat["arranged"] = {s: line for s, line in combat["arranged"].items() if s in seen}


# ---------------------------------------------------------------- who decides
def deciders(state, step_id: str, kind: str) -> list[str] | None:
    """The decision makers of an air-to-air combat step (None: not an air combat rule)."""
    m = air(state).mission
    if kind == "rule:air-combat-order-chooser":
        # Select Location: "the major power on the phasing side which has the most bombers/air
        # transports involved in air-to-air combats chooses the order"
        counts: dict[str, int] = {}
        for f in m.flights.values():
            if f.side == state.kernel.active_side and f.hex in [tuple(h) for h in m.combats_left]:
                counts[f.power] = counts.get(f.power, 0) + (f.role == "bomber")
        return sorted(counts, key=lambda p: (-counts[p], p))[:1]
    c = m.combat
    if c is None:
        return None
    if kind == "rule:air-combat-dms":
        return [side_dm(state, s) for s in (c.attacker, c.defender)]
    if kind == "rule:air-result-chooser":
        p = c.pending
        return [p["chooser"]] if p and not p["chosen"] and len(p["candidates"]) > 1 else []
    if kind in ("rule:attacker", "rule:defender") and step_id.startswith(A2A):
        return [side_dm(state, c.attacker if kind == "rule:attacker" else c.defender)]
    return None
