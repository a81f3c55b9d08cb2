"""Anti-aircraft fire (PM 7.8.7): who fires and Plot Anti-aircraft Fire; the anti-aircraft table.
Its results (PM 7.8.8) are anti_aircraft_fire_results.py's.

Seeds: "Anti-Air Fire" / "Plot Anti-aircraft Fire", "Anti-aircraft Combat Results Table",
"Anti-aircraft Fire Results (Die Rolls)", "Anti-aircraft Fire Effects", "Anti-aircraft
Attacks by Non-Phasing Side", "Anti-aircraft Attacks by Phasing Side", "Weather Report".

Who fires: "Naval units have an intrinsic anti-air strength ... Additionally, anti-aircraft
divisions can fire on aircraft attacking the hex they occupy and any adjacent hexes.  No
other units have the ability to use anti-aircraft fire."  So a city, or any other land unit,
has no AA; a land unit with an ``aa`` factor (the AA divisions an optional rule brings) fires
if organized and in supply; ships fire only in Port Attack and naval air combat: their AA is
the naval plugin's, fed in here through ``MissionKind.intrinsic_aa`` (port attack) and
``DAMAGE_STEPS`` (naval air combat's Anti-aircraft Combat steps).

How: each AA unit has 4 shots a mission; n shots at one hex add n times its AA factor there,
halved for a light AA unit at a hex of only 4-turn LND (``fired_factors``; ``PlotAAFire``).
When the plotting step ends, each hex's total picks a column of the anti-aircraft table
(data/anti_aircraft_table.json), the number of bombers there its row; the cell says how many
dice to roll and how many of the highest or lowest to sum. Every 10 points destroys a bomber, 5
left over abort one, each point left reduces one attack factor (tactical or strategic, as the
mission uses): the bombers' owner applies them one by one (``ApplyAADamage``). Weather: "Halve
the ... tactical and strategic bombardment factors of aircraft ... attacking a hex, in rain or
snow. If the aircraft is suffering anti-aircraft fire, apply this halving after the AA results
are applied" (``aircraft.bombing_factor``). An AA unit that fired is disorganized when the
mission is performed. Not applied over land: "Anti-aircraft fire from units of a major power that
is surprised is halved if directed exclusively against bombers controlled by a major power that
declared war on it (see RAC 15.1)": a power is surprised in the impulse another declares war on
it, and the air missions here never meet one ("Surprise Points Used": "Surprise never happens
during the other 7 air mission phases", only in Port Attack; Barbarossa and Guadalcanal start at
war, with no Declare War phase).  Ships' AA and the surprise points of a port attack or naval air
combat are the naval rules' (plugins/rules/naval: ``port_attack.ships_aa``, surprise_points.py,
port_attack_surprise.py): surprise points move the AA column (``table_cell``'s ``shift``,
``MissionKind.aa_shift``); Barbarossa has no ships (its order of battle holds land and air units
only).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Callable

from kernel.choices import Field, Option
from kernel.errors import Rejected
from plugins.rules.combat.state import PROC as COMBAT_PROC
from plugins.rules.core import hex_key
from plugins.rules.supply import in_supply

from .aircraft import DATA, distance, hex_label, name, other_side, rules_data, units_of
from .events import AAFirePlotted
from .mission_kinds import KINDS
from .state import AM, air

SHOTS = 4  # "Each AA unit can fire up to 4 times"
# Extension point: "Reorganize Units" (By Air), "6. AsA option 3: surviving bombers suffer
# anti-aircraft fire from AA units": an optional rule appends ``fires(state) -> bool`` here
# (plugins/optional/anti-aircraft-fire-on-air-supply).
AIR_SUPPLY_AA: list[Callable] = []
NON_PHASING, PHASING = f"{AM}.aa-by-non-phasing-side", f"{AM}.aa-by-phasing-side"
PLOT_STEPS = {f"{NON_PHASING}.plot-aa-fire": "nps", f"{PHASING}.plot-aa-fire": "ps"}
RESULT_STEPS = {f"{NON_PHASING}.aa-fire-results": "nps", f"{PHASING}.aa-fire-results": "ps"}
RULE = "Anti-aircraft Fire"
# Extension point: further steps where the bombers' owners apply anti-aircraft damage with
# ApplyAADamage (the naval plugin's Anti-aircraft Combat steps of naval air combat)
DAMAGE_STEPS: set[str] = set(RESULT_STEPS)
ADVANCE_AFTER_COMBAT = f"{COMBAT_PROC}.advance-after-combat"
AFTER_LAND_COMBAT = ("wif.turn.impulse.air-rebase", "wif.turn.impulse.end-of-impulse")


@cache
def table() -> dict:
    return json.loads((DATA / "anti_aircraft_table.json").read_text())


def _band(bands, value: int) -> int:
    return next(i for i, (low, high) in enumerate(bands) if low <= value <= high)


def table_cell(factors: int, bombers: int, shift: int = 0) -> str | None:
    """The anti-aircraft table's cell for ``factors`` AA factors at ``bombers`` bombers: "-1/6";
    ``shift`` columns up (+) or down (-) ("Surprise Points": "During the anti-aircraft phase you
    can increase or decrease the column by 1 for each 2 surprise points you spend").  None: moved
    off the table's low end, the fire does nothing (authored, as the naval chart's "if you are
    moved off the left-hand end, you inflict no result"); no cell beyond the high end."""
    t = table()
    ladder = t["ladder"]
    index = _band(t["columns"], factors) + _band(t["rows"], bombers) + shift
    return None if index < 0 else ladder[min(index, len(ladder) - 1)]


def cell_dice(cell: str) -> tuple[int, int]:
    """"-2/4" -> (-2, 4): sum the 2 lowest of 4 dice; "+3/5": the 3 highest of 5."""
    kept, rolled = cell.split("/")
    return int(kept), int(rolled)


def points_of(cell: str, dice: list[int]) -> int:
    kept, _ = cell_dice(cell)
    ordered = sorted(dice, reverse=kept > 0)
    return sum(ordered[:abs(kept)])


def damage_of(points: int) -> dict[str, int]:
    """Anti-aircraft Fire Effects: every 10 points destroy a bomber, 5 left abort one, each
    point left reduces one attack factor."""
    destroyed, rest = divmod(points, 10)
    aborted = 1 if rest >= 5 else 0
    return {"destroy": destroyed, "abort": aborted, "reduce": rest - 5 * aborted}


# ---------------------------------------------------------------- who fires at what
def firing_side(state, step_id: str) -> str | None:
    ps = state.kernel.active_side
    which = PLOT_STEPS.get(step_id) or RESULT_STEPS.get(step_id) or {NON_PHASING: "nps", PHASING: "ps"}.get(step_id)
    if ps is None or which is None:
        return None
    return ps if which == "ps" else other_side(state, ps)


def bombers_at(state, target_side: str) -> dict[tuple[int, int], list]:
    """The flights of ``target_side`` that AA may hit, by hex: bombers (and air transports)
    that were cleared through (not destroyed, not aborted)."""
    m = air(state).mission
    out: dict[tuple[int, int], list] = {}
    for f in sorted(m.flights.values(), key=lambda f: f.unit):
        if f.side == target_side and f.role == "bomber" and f.unit not in m.aborted:
            out.setdefault(tuple(f.hex), []).append(f)
    return out


def shots_left(state, unit_id: str) -> int:
    return SHOTS - air(state).mission.aa_shots.get(unit_id, 0)


def aa_factor(unit) -> int:
    return int(unit.factors.get("aa", 0)) if unit.branch == "land" else 0


def fired_factors(state, unit, hex_, shots: int, firing: str) -> int:
    """The AA factors ``unit`` fires at ``hex_`` with ``shots`` shots: "If you fire twice at one
    hex, double the unit's AA value ..."; "Halve the AA factors fired by light AA units at a hex
    containing only LND that took 4 or more turns to produce" (rounded up: data/air.json)."""
    fired = aa_factor(unit) * shots
    data = rules_data()
    targets = bombers_at(state, other_side(state, firing)).get(tuple(hex_), [])
    units = units_of(state)
    slow_lnd_only = bool(targets) and all(
        units[f.unit].type in data["land_bomber_types"] and data["slow_build_bomber_flag"] in units[f.unit].flags
        for f in targets)
    if data["light_aa_flag"] in unit.flags and slow_lnd_only:
        return (fired + 1) // 2
    return fired


def target_hexes(state, unit, firing: str) -> list[tuple[int, int]]:
    """Hexes with enemy bombers in or next to ``unit``'s hex."""
    return sorted(h for h in bombers_at(state, other_side(state, firing)) if distance(unit.hex, h) <= 1)


def aa_units(state, firing: str) -> list:
    """``firing``'s land units that can fire AA now: an AA factor, organized, in supply, on the
    map, shots left and an enemy bomber in or next to their hex."""
    powers = set(state.kernel.sides.get(firing, []))
    return [u for u in sorted(units_of(state).values(), key=lambda u: u.id)
            if u.power in powers and aa_factor(u) > 0 and u.on_map and u.face_up
            and shots_left(state, u.id) > 0 and target_hexes(state, u, firing) and in_supply(state, u.id)]


def air_supply_suffers_aa(state) -> bool:
    """Do AA units fire at aircraft flying air supply (an optional rule, ``AIR_SUPPLY_AA``)?"""
    return any(fires(state) for fires in AIR_SUPPLY_AA)


def why_no_aa(state, step_id: str) -> str | None:
    """Why an anti-aircraft subphase is skipped now, or None (seeds "Anti-aircraft Attacks by
    Non-Phasing Side" / "by Phasing Side")."""
    m = air(state).mission
    firing = firing_side(state, step_id)
    if firing is None:
        return None
    if step_id == PHASING and m.kind != "ground-support":
        return "skipped for all air mission phases except ground support"
    if m.kind == "air-reorganization" and not air_supply_suffers_aa(state):
        return ("Reorganize Units (By Air): air transports flying air supply suffer anti-aircraft fire only with "
                "the optional rule Anti-aircraft fire on air supply (AsA option 3), which is off")
    who = "non-phasing" if firing == state.kernel.active_side else "phasing"
    if not bombers_at(state, other_side(state, firing)):
        return f"no bomber or air transport of the {who} side survived air-to-air combat"
    if not aa_units(state, firing) and not intrinsic_aa(state, firing):
        return ("no anti-aircraft unit can fire: only anti-aircraft divisions (an optional rule's units) fire on "
                "aircraft over land, organized, in supply, at their own or an adjacent hex (no other unit, and no "
                "city, has anti-aircraft fire; ships fire only in Port Attack)")
    return None


def intrinsic_aa(state, firing: str) -> dict[tuple, int]:
    """AA factors that fire without plotting at hexes with enemy bombers (``MissionKind.intrinsic_aa``:
    ships in a port attacked)."""
    kind = KINDS.get(air(state).mission.kind)
    if kind is None or kind.intrinsic_aa is None:
        return {}
    targets = bombers_at(state, other_side(state, firing))
    return {tuple(h): n for h, n in kind.intrinsic_aa(state, firing).items() if n > 0 and tuple(h) in targets}


# ---------------------------------------------------------------- Plot Anti-aircraft Fire
def check_aa_unit(state, actor: str, unit_id: str, step_id: str):
    firing = firing_side(state, step_id)
    if firing is None or step_id not in PLOT_STEPS:
        raise Rejected(f"{RULE}: anti-aircraft fire is plotted only in Plot Anti-aircraft Fire")
    unit = units_of(state).get(unit_id)
    if unit is None:
        raise Rejected(f"{RULE}: there is no unit {unit_id!r}")
    if unit.power != actor:
        raise Rejected(f"{RULE}: {name(state, unit_id)} belongs to {unit.power}, not {actor}")
    if aa_factor(unit) <= 0:
        raise Rejected(f"{RULE}: {name(state, unit_id)} has no anti-aircraft factor (only AA divisions fire)")
    if not unit.on_map or not unit.face_up:
        raise Rejected(f"{RULE}: {name(state, unit_id)} is not organized on the map")
    if shots_left(state, unit_id) <= 0:
        raise Rejected(f"{RULE}: {name(state, unit_id)} has fired its {SHOTS} shots")
    if not in_supply(state, unit_id):
        raise Rejected(f"{RULE}: {name(state, unit_id)} is out of supply (only in-supply AA units fire)")
    return unit


def check_aa_target(state, unit, hex_, shots: int, step_id: str) -> None:
    firing = firing_side(state, step_id)
    if tuple(hex_) not in target_hexes(state, unit, firing):
        raise Rejected(f"{RULE}: no enemy bomber at hex {tuple(hex_)} in or next to {name(state, unit.id)}'s hex")
    left = shots_left(state, unit.id)
    if not 1 <= shots <= left:
        raise Rejected(f"{RULE}: {name(state, unit.id)} may fire 1 to {left} shots, not {shots}")


def plot_aa_fire(ctx, cmd) -> None:
    state, step = ctx.state, state_step(ctx.state)
    unit = check_aa_unit(state, cmd.actor, cmd.unit, step)
    check_aa_target(state, unit, cmd.hex, cmd.shots, step)
    ctx.emit(AAFirePlotted(unit=unit.id, power=unit.power, hex=tuple(cmd.hex), shots=cmd.shots,
                           factors=fired_factors(state, unit, cmd.hex, cmd.shots, firing_side(state, step))))


def state_step(state) -> str:
    return state.kernel.sequence.current or ""


def plot_choices(state, actor, step_id):
    if step_id not in PLOT_STEPS:
        return None
    firing = firing_side(state, step_id)

    def units():
        out = []
        for u in aa_units(state, firing):
            if u.power != actor:
                continue
            left = shots_left(state, u.id)
            hexes = [Option(h, hex_label(h), [Field("shots", "number", min=1, max=left, label="shots")])
                     for h in target_hexes(state, u, firing)]
            out.append(Option(u.id, f"{name(state, u.id)}, AA {aa_factor(u)}, {left} shots left",
                              [Field("hex", "hex", hexes, label="hex to fire at")]))
        return out
    return [Field("unit", "unit", units, label="anti-aircraft unit")]


def plot_preview(state, cmd) -> dict:
    step = state_step(state)
    unit = check_aa_unit(state, cmd.actor, cmd.unit, step)
    check_aa_target(state, unit, cmd.hex, cmd.shots, step)
    fired = fired_factors(state, unit, cmd.hex, cmd.shots, firing_side(state, step))
    total = air(state).mission.aa_plot.get(hex_key(cmd.hex), 0) + fired
    bombers = len(bombers_at(state, other_side(state, firing_side(state, step))).get(tuple(cmd.hex), []))
    return {"unit": unit.id, "hex": list(cmd.hex), "shots": cmd.shots, "factors": fired,
            "hex_total": total, "bombers": bombers, "cell": table_cell(total, bombers)}
