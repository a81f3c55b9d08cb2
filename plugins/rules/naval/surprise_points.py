"""Surprise Points: what the side with more surprise points may spend them on, and when.

Seeds, "Surprise Points" (L6925-7063): "The side with the greater number of surprise points can
spend the difference according to the following table": avoid combat 4 ("Surprise
calculated"), choose combat type 4, "Increase your air-to-air combat value" / "Decrease
opponent's air-to-air combat value" 2 per point ("Air-to-air combat"), "Increase your
anti-aircraft fire" / "Decrease opponent's anti-aircraft fire" 2 per column ("Anti-aircraft
combat"), "Increase your column on the naval combat chart" / "Decrease opponent's column" 2
per column ("Naval combat"), select a target 3 ("Naval combat results").  "You can spend points
on the other benefits as you go"; "You can only spend points to modify air-to-air combat values
at the start of the naval air combat (not during each air-to-air combat round)" and the
modification "lasts for the whole naval-air combat"; "During the anti-aircraft phase you can
increase or decrease the column by 1 for each 2 surprise points you spend"; "surprise points
are lost if they are not used in the current combat".  "Anti-Air Fire" (L603-608): "It costs 2
surprise points per column shift".

Where they are spent here: at Naval Combat Surprise (avoid combat, the naval chart's columns),
at Select Naval Combat Type (``ChooseNavalCombatType``: 4 points choose any type) and at the
start of a naval air combat, the Assign Plane Roles step, which waits for the side with points
left when a naval air benefit applies: the air-to-air values, the anti-aircraft columns and the
chart's columns.  Authored: the anti-aircraft column shift is bought there too, at the start
of the naval air combat rather than when each side's ships fire (the ships' fire is rolled as
soon as the air-to-air combat is over, with no decision between); selecting a target (3 points)
is not offered.  The benefit's effect is the reducer's (naval_combat_events.SurpriseSpent).
"""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules.air.state import air

from . import port_attack, port_attack_surprise as pas
from .naval_air_combat import KIND as NAVAL_AIR, PLANE_ROLES, combat_planes, ships_aa
from .naval_combat import ROUND, other, side_dm
from .naval_combat_events import SurpriseSpent
from .naval_combat_results import chooser
from .state import naval, rules

RULE = "Surprise Points"
SURPRISE_STEP = f"{ROUND}.naval-combat-surprise"
SURPRISE_COSTS = {"avoid-combat": 4, "own-column": 2, "enemy-column": 2, "own-air-to-air": 2,
                  "enemy-air-to-air": 2, "own-aa-column": 2, "enemy-aa-column": 2, "select-target": 3}
CHOOSE_TYPE_COST = 4
BENEFIT_NAMES = {"avoid-combat": "avoid combat", "own-column": "increase your column on the naval combat chart",
                 "enemy-column": "decrease opponent's column on the naval combat chart",
                 "own-air-to-air": "increase your air-to-air combat value",
                 "enemy-air-to-air": "decrease opponent's air-to-air combat value",
                 "own-aa-column": "increase your anti-aircraft fire", "enemy-aa-column": "decrease opponent's anti-aircraft fire",
                 "select-target": "select the enemy or friendly naval target of the next result"}
# when each benefit may be bought (the table's "When" column, as steps of this edition)
WHEN = {"avoid-combat": "at Naval Combat Surprise", "own-column": "at Naval Combat Surprise or the start of a naval air combat",
        "enemy-column": "at Naval Combat Surprise or the start of a naval air combat",
        "own-air-to-air": "at the start of a naval air combat with air-to-air combat",
        "enemy-air-to-air": "at the start of a naval air combat with air-to-air combat",
        "own-aa-column": "at the start of a naval air combat, if your ships have anti-aircraft factors and the enemy flies bombers",
        "enemy-aa-column": "at the start of a naval air combat, if the enemy's ships have anti-aircraft factors and you fly bombers",
        "select-target": "in a naval combat's attack step, before the other side picks the unit that suffers the next result"}


class SpendSurprise(Command):
    benefit: str  # a key of SURPRISE_COSTS
    port: str = ""  # in a port attack: the port ("col,row") whose combat the points belong to


def surprise_side(state) -> str | None:
    """The side with surprise points left to spend (at least 2: every benefit costs 2 or more)."""
    c = naval(state).combat
    if c is None or c.over:
        return None
    return next((s for s, p in c.surprise.items() if p >= 2), None)


def _bombers_possible(planes) -> bool:
    return any(u.factors.get("naval", 0) > 0 for u in planes)


def benefits_now(state, side: str, step: str | None = None) -> list[str]:
    """The benefits that apply at ``step`` (default: the current one) of the combat for ``side``
    (cost aside)."""
    c = naval(state).combat
    step = (state.kernel.sequence.current or "") if step is None else step
    if c is None or c.over:
        return []
    if step == SURPRISE_STEP:
        return ["avoid-combat", "own-column", "enemy-column"]
    if pick_target_side(state, side, step) is not None:
        return ["select-target"]
    if step != PLANE_ROLES or c.kind != NAVAL_AIR or c.air_stage:
        return []
    enemy = other(state, side)
    mine, theirs = combat_planes(state, side), combat_planes(state, enemy)
    out = ["own-column", "enemy-column"]
    if mine and theirs and any(u.factors.get("air", 0) > 0 for u in mine + theirs):
        out += ["own-air-to-air", "enemy-air-to-air"]  # an air-to-air combat may be fought
    if ships_aa(state, side) > 0 and _bombers_possible(theirs):
        out.append("own-aa-column")
    if ships_aa(state, enemy) > 0 and _bombers_possible(mine):
        out.append("enemy-aa-column")
    return out


def pick_target_side(state, side: str, step: str | None = None) -> str | None:
    """The side whose next result ``side`` may buy the pick of now ("Select enemy or friendly
    naval target", 3 points: "you can select the target instead of your opponent"): the target
    side of this attack step, when the other side picks it."""
    from .naval_combat_steps import ATTACK_STEPS, attack_target  # the steps module asks this one too
    step = (state.kernel.sequence.current or "") if step is None else step
    if step not in ATTACK_STEPS or naval(state).combat is None:
        return None
    target = attack_target(state, step)
    if target is None or chooser(state, target) == side:
        return None
    return target


def target_spender_dm(state, step_id: str) -> list[str]:
    """At an attack step, the power deciding for the side that may buy the next pick."""
    side = surprise_side(state)
    c = naval(state).combat
    if side is None or c.surprise.get(side, 0) < SURPRISE_COSTS["select-target"]:
        return []
    return [side_dm(state, side, c.area)] if pick_target_side(state, side, step_id) else []


def naval_air_spender(state) -> str | None:
    """The side that may still spend surprise points at the start of this naval air combat
    (Assign Plane Roles; asked too before that step begins, whether to skip it)."""
    side = surprise_side(state)
    if side is None:
        return None
    left = naval(state).combat.surprise[side]
    return side if any(SURPRISE_COSTS[b] <= left for b in benefits_now(state, side, PLANE_ROLES)) else None


def spender_dm(state) -> list[str]:
    """The power deciding for the side that may spend surprise points at Assign Plane Roles."""
    side = naval_air_spender(state)
    return [side_dm(state, side, naval(state).combat.area)] if side else []


# ---------------------------------------------------------------- in a port attack
def port_points(state, port: str, side: str) -> int:
    return naval(state).port_surprise.get(port, {}).get("surprise", {}).get(side, 0)


def port_benefits(state, side: str, port: str) -> list[str]:
    """What ``side`` may buy for the combat at ``port`` in Spend Surprise Points: the air-to-air
    values where both sides fly there, the defender's ships' AA columns, the bombers' chart column."""
    if port_points(state, port, side) < 2:
        return []
    attacker = pas.attacked_ports(state).get(port)
    if attacker is None:
        return []
    flights = [f for f in air(state).mission.flights.values() if f"{f.hex[0]},{f.hex[1]}" == port]
    out = []
    if {f.side for f in flights} == set(state.kernel.sides) and any(f.role != "bomber" for f in flights):
        out += ["own-air-to-air", "enemy-air-to-air"]
    hex_ = tuple(int(x) for x in port.split(","))
    defender = other(state, attacker)
    ships_fire = port_attack.ships_aa(state, defender).get(hex_, 0) > 0
    if ships_fire:
        out.append("own-aa-column" if side == defender else "enemy-aa-column")
    out.append("own-column" if side == attacker else "enemy-column")
    return out


def port_spenders(state) -> dict[str, str]:
    """Port -> the side with surprise points to spend there (at Spend Surprise Points)."""
    out = {}
    for port, record in sorted(naval(state).port_surprise.items()):
        side = next((s for s, p in record["surprise"].items() if p >= 2), None)
        if side is not None and port_benefits(state, side, port):
            out[port] = side
    return out


def port_spend_skip(state, step_id: str) -> str | None:
    if step_id != pas.SPEND_STEP:
        return None
    return None if port_spenders(state) else \
        "Spend Surprise Points: neither side has 2 surprise points to spend on a port attacked"


def port_deciders(state) -> list[str]:
    return sorted({side_dm(state, side) for side in port_spenders(state).values()})


def why_not_spend_at_port(state, actor, benefit: str, port: str) -> str | None:
    side = state.kernel.side_of(actor)
    if port not in naval(state).port_surprise:
        return f"{RULE}: {port!r} is not a port attacked in this port attack"
    if port_points(state, port, side) < 2:
        return f"{RULE}: only the side with more surprise points at the port {port} spends them"
    cost = SURPRISE_COSTS.get(benefit)
    if cost is None:
        return f"{RULE}: {benefit!r} is not a benefit ({', '.join(SURPRISE_COSTS)})"
    if benefit not in port_benefits(state, side, port):
        return f"{RULE}: {BENEFIT_NAMES[benefit]} does not apply to this port attack (a port attack cannot be avoided)"
    if port_points(state, port, side) < cost:
        return f"{RULE}: {benefit} costs {cost}; {side} has {port_points(state, port, side)} at the port {port}"
    return None


# ---------------------------------------------------------------- the rule
def why_not_spend(state, actor, benefit: str, port: str = "") -> str | None:
    if (state.kernel.sequence.current or "") == pas.SPEND_STEP or port:
        if (state.kernel.sequence.current or "") != pas.SPEND_STEP:
            return f"{RULE}: a port's surprise points are spent only in a port attack's Spend Surprise Points"
        return why_not_spend_at_port(state, actor, benefit, port)
    side = state.kernel.side_of(actor)
    c = naval(state).combat
    if surprise_side(state) != side:
        return f"{RULE}: only the side with more surprise points spends them"
    cost = SURPRISE_COSTS.get(benefit)
    if cost is None:
        return f"{RULE}: {benefit!r} is not a benefit ({', '.join(SURPRISE_COSTS)})"
    if benefit not in benefits_now(state, side):
        return f"{RULE}: {BENEFIT_NAMES[benefit]} is bought {WHEN[benefit]}, not now"
    if c.surprise.get(side, 0) < cost:
        return f"{RULE}: {benefit} costs {cost}; {side} has {c.surprise.get(side, 0)}"
    return None


def spend_choices(state, actor, step_id):
    side = state.kernel.side_of(actor)
    if step_id == pas.SPEND_STEP:
        ports = [port for port, s in port_spenders(state).items() if s == side]

        def benefits(port):
            return [Field("benefit", "option", [Option(b, f"{BENEFIT_NAMES[b]} ({SURPRISE_COSTS[b]} points)")
                                                for b in SURPRISE_COSTS if why_not_spend(state, actor, b, port) is None])]
        return [Field("port", "option", [Option(p, f"the port at {p} ({port_points(state, p, side)} points)",
                                                (lambda p=p: benefits(p))) for p in ports])] if ports else None
    if surprise_side(state) != side:
        return None
    fit = [b for b in SURPRISE_COSTS if why_not_spend(state, actor, b) is None]
    return [Field("benefit", "option", [Option(b, f"{BENEFIT_NAMES[b]} ({SURPRISE_COSTS[b]} points)") for b in fit])] \
        if fit else None


def spend_preview(state, cmd: SpendSurprise) -> dict:
    problem = why_not_spend(state, cmd.actor, cmd.benefit, cmd.port)
    if problem:
        raise Rejected(problem)
    side = state.kernel.side_of(cmd.actor)
    if cmd.port:
        return {"benefit": cmd.benefit, "port": cmd.port, "cost": SURPRISE_COSTS[cmd.benefit],
                "left": port_points(state, cmd.port, side) - SURPRISE_COSTS[cmd.benefit]}
    c = naval(state).combat
    out = {"benefit": cmd.benefit, "cost": SURPRISE_COSTS[cmd.benefit], "left": c.surprise.get(side, 0) - SURPRISE_COSTS[cmd.benefit]}
    enemy = other(state, side)
    if cmd.benefit.endswith("air-to-air"):
        who = side if cmd.benefit.startswith("own") else enemy
        out["air_to_air_value_change"] = {who: c.air_values.get(who, 0) + (1 if who == side else -1)}
    elif cmd.benefit.endswith("aa-column"):
        who = side if cmd.benefit.startswith("own") else enemy
        out["aa_column_shift"] = {who: c.aa_shifts.get(who, 0) + (1 if who == side else -1)}
    elif cmd.benefit.endswith("column"):
        who = side if cmd.benefit.startswith("own") else enemy
        out["chart_column_shift"] = {who: c.shifts.get(who, 0) + (1 if who == side else -1)}
    return out


@rules.command(SpendSurprise, choices=spend_choices, preview=spend_preview)
def spend_surprise(ctx, cmd: SpendSurprise) -> None:
    problem = why_not_spend(ctx.state, cmd.actor, cmd.benefit, cmd.port)
    if problem:
        raise Rejected(problem)
    side = ctx.state.kernel.side_of(cmd.actor)
    target = pick_target_side(ctx.state, side) if cmd.benefit == "select-target" else None
    ctx.emit(SurpriseSpent(side=side, benefit=cmd.benefit, points=SURPRISE_COSTS[cmd.benefit], port=cmd.port,
                           target_side=target or ""))


def air_value_modifiers(state, combat, side: str) -> list[tuple[int, str]]:
    """The air plugin's ``air_combat_value_modifiers``: the surprise points spent on ``side``'s
    air-to-air combat value in this naval air combat."""
    c = naval(state).combat
    if air(state).mission.kind == pas.KIND:
        return pas.air_values(state, combat, side)
    if c is None or c.kind != NAVAL_AIR or not c.air_values.get(side):
        return []
    if air(state).mission.kind != NAVAL_AIR:
        return []
    return [(c.air_values[side], "surprise points")]
