"""Land combat arithmetic: factors, odds, table choice, die modifiers, the results tables.

Pure functions of the state (no events), so the command handlers, the die-roll step and the
GUI's preview (``odds_preview``) all compute the same numbers.  Seed sections cited:
"Land Combat" (L2293-2572), "Weather Report" (L7651-7760), "Ignore Notional" (L2166-2215),
"Fortification Hexside" (L1850-1915).  The values the seeds leave out are in
``data/land_crt.json`` and ``data/combat_effects.json`` (see their headers).
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

from plugins.rules import core
from plugins.rules.land import movement
from plugins.rules.land.movement import SUPPLY_TYPES, is_division  # noqa: F401  (land's, used here)
from plugins.rules.supply import hex_has_basic_supply_path

DATA = Path(__file__).resolve().parent / "data"

# Unit type ids (scenario counter data).  Land Combat, choosing combat tables: "ARM and
# HQ-A units", "MECH units", "Each defending anti-tank unit counts as an ARM corps".
ARM_TYPES = frozenset({"arm", "armor", "armour", "hq-a", "hqa"})
MECH_TYPES = frozenset({"mech"})
AT_TYPES = frozenset({"at", "anti-tank"})
TERRITORIAL_TYPES = frozenset({"terr", "territorial"})
MOUNTAIN_TYPES = frozenset({"mtn", "mountain"})
BLITZ_TERRAIN = frozenset({"clear", "forest", "desert"})  # condition 1 of choosing tables

# Odds levels.  Level 0 is 1:2; 1:n (n > 2) is 2 - n; 1:1 is 1; 3:2 is 2; k:1 (k >= 2) is
# k + 1.  Weather Report: "12:1 becomes 11:1, and 3:2 becomes 1:1" (-1); "3:1 becomes 3:2" (-2).
LEVEL_1_2 = 0


@cache
def crt() -> dict:
    return json.loads((DATA / "land_crt.json").read_text(encoding="utf-8"))


@cache
def effects() -> dict:
    return json.loads((DATA / "combat_effects.json").read_text(encoding="utf-8"))


# ---------------------------------------------------------------- helpers
def norm(hex_) -> tuple[int, int]:
    return core.world_map().grid.normalize(tuple(hex_))


def hex_weather(state, hex_) -> str:
    """The weather a hex feels (Weather Report: deserts feel milder weather), by land's rule."""
    terrain = core.world_map().terrain(norm(hex_))
    return movement.effective_weather(core.weather_in(state, hex_), terrain)


def hex_terrain(state, hex_) -> str:
    """The terrain a hex counts as in this weather (frozen lakes and swamps), by land's rule."""
    terrain = core.world_map().terrain(norm(hex_))
    return movement.effective_terrain(terrain, hex_weather(state, hex_))


def map_hexside(a, b) -> str | None:
    """The printed hexside feature between two adjacent hexes (river, lake, strait...); None
    from a hex into itself (a paradropped unit attacks the hex it landed in)."""
    a, b = norm(a), norm(b)
    if a == b:
        return None
    m = core.world_map()
    side = m.grid.hexside_between(a, b)
    feature = m.hexside_feature(side) if side is not None else None
    return feature.kind if feature else None


def hexside_kind(state, a, b) -> str | None:
    """The hexside feature between two hexes as land combat counts it: Weather Report "Treat
    a frozen lake hexside as a river hexside" (a lake hexside land units may cross, by land's
    ``hexside_cost``, is frozen)."""
    kind = map_hexside(a, b)
    if kind == "lake" and movement.hexside_cost("lake", core.weather_in(state, a), core.weather_in(state, b)) is not None:
        return "river"
    return kind


def across_fort(state, a, b) -> bool:
    """Attacking from ``a`` into ``b`` across a fortification hexside (core's rule); never from
    inside the hex ("a paradrop on a fort satisfies condition #2")."""
    return norm(a) != norm(b) and core.across_fort(state, a, b)


def adjacent(a, b) -> bool:
    return core.world_map().grid.distance(norm(a), norm(b)) == 1


def unit_type(unit) -> str:
    return unit.type.lower()


def combat_factor(unit) -> float:
    return float(unit.factors.get("combat", 0))


def is_mountain_unit(unit) -> bool:
    return unit_type(unit) in MOUNTAIN_TYPES or "mountain" in unit.flags


def is_snow_unit(unit, state=None, hook=None) -> bool:
    """Weather Report: "MTN, ski troops, Swedish, Finnish, Norwegian, or elite Soviet units".
    Ski troops are an optional rule (its plugin answers the ``snow_unit`` hook)."""
    nat = (unit.nationality or unit.power).lower()
    if (is_mountain_unit(unit) or nat in effects()["snow_unit_nationalities"]
            or ("elite" in unit.flags and nat == "ussr")):
        return True
    return hook is not None and any(hook.snow_unit(state=state, unit=unit))


def hostile(state, power_a: str, power_b: str) -> bool:
    return core.enemies(state, power_a, power_b)


def land_units(state, hex_) -> list:
    return [u for u in state["units"].in_hex(norm(hex_)) if u.branch == "land" and u.on_map]


def defenders(state, hex_, attacker_power: str) -> list:
    """The enemy land units in the attacked hex."""
    return [u for u in land_units(state, hex_) if hostile(state, attacker_power, u.power)]


def place_name(hex_) -> str:
    city = core.world_map().city_at(norm(hex_))
    return city.name if city else f"hex {hex_[0]},{hex_[1]}"


# ---------------------------------------------------------------- odds levels
def odds_level(attack: float, defence: float) -> int:
    """Land Combat, odds ratios: "Round the ratio to a whole number.  Always round in favor
    of the defender." (whole ratios k:1, with 3:2 between 1:1 and 2:1, and 1:n below)."""
    if defence <= 0:
        raise ValueError("no odds against 0 defending factors")
    if attack <= 0:
        return -1000
    if attack >= defence:
        ratio = attack / defence
        if ratio < 1.5:
            return 1
        if ratio < 2:
            return 2
        return int(math.floor(ratio)) + 1
    n = math.ceil(defence / attack)  # 1:n, rounded in the defender's favour
    return 2 - max(n, 2)


def level_name(level: int) -> str:
    if level >= 3:
        return f"{level - 1}:1"
    if level == 2:
        return "3:2"
    if level == 1:
        return "1:1"
    return f"1:{2 - level}"


def column(table: str, level: int) -> str:
    """The column of ``table`` the die is read on: Land Combat, results: "For odds less than
    1-2, use the 1-2 column.  For final odds of more than 7-1 (blitzkrieg) or 10-1 (assault),
    use the right-most column." """
    cols = crt()["tables"][table]["columns"]
    return cols[max(0, min(level, len(cols) - 1))]


def lookup(table: str, level: int, modified_roll: int) -> str:
    """The result of ``table`` at odds ``level`` for a modified roll."""
    rows = crt()["rows"]
    row = rows[max(0, min(modified_roll, len(rows) - 1))]
    return crt()["tables"][table]["cells"][row][column(table, level)]


def odds_ratio(level: int) -> float:
    """An odds level as the number attack:defence (3:1 is 3.0, 3:2 is 1.5, 1:3 is 0.33)."""
    if level >= 3:
        return float(level - 1)
    if level == 2:
        return 1.5
    if level == 1:
        return 1.0
    return round(1 / (2 - level), 3)


def parse_result(code: str) -> dict:
    """'X/Y': a number = land units destroyed; R retreat, S shatter, B breakthrough; '*' the
    attackers are not disorganized."""
    att, dfn = code.split("/")
    digits = lambda s: int("".join(c for c in s if c.isdigit()) or 0)  # noqa: E731
    return {
        "attacker_losses": digits(att), "asterisk": "*" in att,
        "defender_losses": digits(dfn), "retreat": "R" in dfn, "shatter": "S" in dfn,
        "breakthrough": "B" in dfn,
    }


# ---------------------------------------------------------------- table choice
def _count(units, types, state=None, hook=None, side: str = "", kind: str = "") -> int:
    """Divisions count as 1/2 a unit (the total rounded up).  An optional rule may weigh a unit
    otherwise (``table_choice_weight``: e.g. Artillery's anti-tank units count as ARM corps)."""
    total = 0.0
    for u in units:
        weight = hook.table_choice_weight(state=state, unit=u, side=side, kind=kind) if hook is not None else None
        if weight is None:
            weight = (0.5 if is_division(u) else 1) if unit_type(u) in types else 0
        total += weight
    return math.ceil(total)


def attacker_chooses_table(state, attackers, hex_, dfn=None, hook=None) -> tuple[bool, list[str]]:
    """Land Combat, choosing combat tables: the attacker chooses if (1) the defending hex is a
    non-city hex in clear, forest or desert; (2) any attacking unit is not attacking across a
    fort hexside; (3) the attacker has more ARM and HQ-A units than the defender, or more MECH
    units while the defender has no ARM or HQ-A units.  Otherwise the defender chooses."""
    reasons = []
    terrain = hex_terrain(state, hex_)
    city = core.world_map().city_at(norm(hex_))
    c1 = city is None and terrain in BLITZ_TERRAIN
    if not c1:
        reasons.append("the defending hex is a city" if city else f"the defending hex is {terrain}")
    # (2) Fortifications: "The defender chooses the land combat results table if all
    # attacking units attack across a fortification hexside."
    c2 = not attackers or not all(across_fort(state, u.hex, hex_) for u in attackers)
    if not c2:
        reasons.append("every attacking unit attacks across a fortification hexside")
    if dfn is None:
        dfn = defenders(state, hex_, attackers[0].power) if attackers else []
    a_arm = _count(attackers, ARM_TYPES, state, hook, "attacker", "arm")
    d_arm = _count(dfn, ARM_TYPES | AT_TYPES, state, hook, "defender", "arm")  # defending AT units count as ARM
    a_mech = _count(attackers, MECH_TYPES, state, hook, "attacker", "mech")
    d_mech = _count(dfn, MECH_TYPES, state, hook, "defender", "mech")
    c3 = a_arm > d_arm or (a_mech > d_mech and d_arm == 0)
    if not c3:
        reasons.append("the attacker has no more ARM/HQ-A (or MECH) units than the defender")
    return c1 and c2 and c3, reasons


# ---------------------------------------------------------------- the whole calculation
def evaluate(state, attacker_ids, hex_, *, notional: bool = False, ground_support: dict | None = None,
             hq_shift: dict | None = None, snow_units: bool | None = None, table: str | None = None,
             hook=None, extra_shifts: dict | None = None, paradropped: int = 0) -> dict:
    """Every number of one land combat, as the seeds' "Land Combat" section computes them.

    ``hook`` (the game's ``pm.hook``) lets optional rules add odds shifts and die modifiers
    (see ``hooks.py``); ``extra_shifts`` are shifts decided while resolving (a fractional
    odds roll)."""
    hex_ = norm(hex_)
    units = state["units"].units
    attackers = [units[i] for i in attacker_ids if i in units and units[i].on_map]
    power = attackers[0].power if attackers else None
    dfn = defenders(state, hex_, power) if power else []
    fx = effects()
    terrain = hex_terrain(state, hex_)
    weather = hex_weather(state, hex_)
    notes: list[str] = []

    # Attack: each unit's factors modified for terrain and the hexside it attacks across.
    attack = 0.0
    for u in attackers:
        cf = combat_factor(u)
        changed = hook.land_attack_factor(state=state, unit=u, hex_=hex_, factor=cf) if hook is not None else None
        if changed is not None and changed != cf:
            notes.append(f"{u.name or u.id} {cf:g} -> {changed:g} (optional rule)")
            cf = changed
        mult = fx["attacker_multiplier_by_terrain"].get(terrain, 1.0)
        if mult != 1.0 and terrain in fx["mountain_units_ignore"] and is_mountain_unit(u):
            mult = 1.0
        side = hexside_kind(state, u.hex, hex_)
        mult *= fx["attacker_multiplier_by_hexside"].get(side, 1.0) if side else 1.0
        if across_fort(state, u.hex, hex_):
            # Fortifications: "A unit that attacks into a fortification hex across a printed
            # fortification hexside has its combat factors reduced to one third."
            mult /= 3
            side = f"{side} and " if side else ""
            side += "fortification hexside"
        if mult != 1.0:
            notes.append(f"{u.name or u.id} x{mult:g} ({terrain}{', across a ' + side if side else ''})")
        attack += cf * mult
    # Partisans: "1 is added to each partisan unit's combat factors if it is defending in a
    # forest or jungle hex."
    partisan_bonus = 1 if terrain in ("forest", "jungle") else 0
    defence = sum(combat_factor(u) + (partisan_bonus if unit_type(u) == "partisan" else 0) for u in dfn)
    notional_cf = notional_factors(state, hex_, dfn) if notional else 0
    defence += notional_cf
    land_attack, land_defence = attack, defence
    # Ground support: tactical factors above the supported side's land factors are ignored.
    gs = ground_support or {}
    a_gs = min(float(gs.get("attacker", 0)), land_attack)
    d_gs = min(float(gs.get("defender", 0)), land_defence)
    # "Round the total to the nearest whole number (rounding 0.5 up)."
    attack_total = int(math.floor(attack + a_gs + 0.5))
    defence_total = int(math.floor(defence + d_gs + 0.5))

    # Odds shifts: weather (Weather Report), jungle, HQ support.
    shifts: dict[str, int] = {}
    w_shift = fx["weather_odds_shift"].get(weather, 0)
    snow_eligible = (weather in fx["snow_unit_mitigation"] and w_shift < 0 and bool(attackers)
                     and 2 * sum(1 for u in attackers if is_snow_unit(u, state, hook)) >= len(attackers))
    use_snow = snow_eligible if snow_units is None else (snow_units and snow_eligible)
    if use_snow:
        w_shift = min(0, w_shift + fx["snow_unit_mitigation"][weather])
    if w_shift:
        shifts["weather (" + weather + ")"] = w_shift
    t_shift = fx["odds_shift_by_terrain"].get(terrain, 0)
    if t_shift:
        shifts[terrain] = t_shift
    hq = hq_shift or {}
    if hq.get("attacker"):
        shifts["attacking HQ support"] = int(hq["attacker"])
    if hq.get("defender"):
        shifts["defending HQ support"] = -int(hq["defender"])
    pre = {"hex": hex_, "terrain": terrain, "weather": weather, "table": table}
    if hook is not None:
        for answer in hook.land_odds_shifts(state=state, attackers=attackers, defenders=dfn, evaluation=pre):
            for shift, reason in answer or ():
                shifts[reason] = shifts.get(reason, 0) + int(shift)
    for reason, shift in (extra_shifts or {}).items():
        shifts[reason] = int(shift)

    chooser_is_attacker, why = attacker_chooses_table(state, attackers, hex_, dfn, hook=hook)
    out = {
        "hex": hex_, "place": place_name(hex_), "terrain": terrain, "weather": weather,
        "attack": attack_total, "defence": defence_total, "notional_factors": notional_cf,
        "ground_support": {"attacker": a_gs, "defender": d_gs},
        "chooser": "attacker" if chooser_is_attacker else "defender", "chooser_reasons": why,
        "table": table, "snow_units_eligible": snow_eligible, "snow_units_used": use_snow,
        "factor_notes": notes, "shifts": shifts,
    }
    if defence_total <= 0:
        # "If, after all modifications, you are attacking 0 defending combat factors, the
        # combat result is an automatic '*/2B' ... or '*/2S' if it is an assault."
        out.update(base_odds=None, level=None, odds="auto", drm={}, automatic=True)
        return out
    base = odds_level(attack_total, defence_total)
    level = base + sum(shifts.values())
    drm: dict[str, int] = {}
    disorganized = sum(1 for u in dfn if not u.face_up) + (1 if notional else 0)  # notional: always disorganized
    if disorganized:
        drm["disorganized defenders"] = disorganized
    if level < LEVEL_1_2:
        drm["odds below 1:2"] = level - LEVEL_1_2
    if attackers and all(unit_type(u) in TERRITORIAL_TYPES for u in attackers):
        drm["only territorials attack"] = -1
    if dfn and not notional and all(unit_type(u) in TERRITORIAL_TYPES for u in dfn):
        drm["only territorials defend"] = 1
    if paradropped:
        # Land Combat: "Add 1 to the roll for each paradropping unit (after air to air combat
        # and anti aircraft fire, if any)"
        drm["paradropping units"] = paradropped
    out.update(base_odds=level_name(base), level=level, odds=level_name(max(level, LEVEL_1_2)),
               drm=drm, automatic=False)
    if hook is not None:
        for answer in hook.land_combat_modifiers(state=state, attackers=attackers, defenders=dfn, evaluation=out):
            for value, reason in answer or ():
                drm[reason] = drm.get(reason, 0) + int(value)
    return out


def notional_factors(state, hex_, real_defenders) -> int:
    """Ignore Notional: 1, +1 city, +1 in the home country of the power controlling the hex,
    +1 if not stacked with a land unit but in the ZOC of a friendly corps or army, -1 if it
    cannot trace a basic supply path of any length; never < 0.  (The shore bombardment and surprise modifiers are not applied here.)"""
    cf = 1
    m = core.world_map()
    if m.city_at(norm(hex_)):
        cf += 1
    controller = core.hex_controller(state, hex_)
    country = m.country_of(norm(hex_))
    if controller and country and country.controller.lower().replace(" ", "") == controller.lower():
        cf += 1
    side = core.side_of(state, controller) if controller else None
    if not real_defenders and side is not None and norm(hex_) in movement.zoc_hexes(state, side):
        cf += 1
    if controller and not hex_has_basic_supply_path(state, controller, norm(hex_)):
        cf -= 1  # "-1 if it cannot trace a basic supply path of any length"
    return max(0, cf)


def evaluate_combat(state, combat, table: str | None = None, hook=None, extra_shifts: dict | None = None,
                    attackers=None, snow_units: bool | None = None) -> dict:
    """``evaluate`` for a declared combat (``state["combat"]`` model): its attackers (or
    ``attackers``), notional unit, ground support, HQ support, snow decision and table (or
    ``table`` / ``snow_units`` as a choice would make them)."""
    gs = state["combat"].ground_support.get(combat.id)
    attackers = list(combat.attackers if attackers is None else attackers)
    return evaluate(state, attackers, combat.hex, paradropped=sum(1 for u in attackers if u in combat.paradropped),
                    notional=bool(combat.forced and combat.notional), ground_support=gs,
                    hq_shift=combat.hq_shift, snow_units=combat.snow_units if snow_units is None else snow_units,
                    table=table or combat.table, hook=hook, extra_shifts=extra_shifts)
