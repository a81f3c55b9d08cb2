"""One line a player reads for each air event, keyed by event type."""

from __future__ import annotations

from .aircraft import name
from .state import MISSION_NAME

ROLE = {"bomber": "as a bomber", "escort": "as an escort", "cap": "on combat air patrol", "interceptor": "to intercept"}
EFFECT = {"destroyed": "is destroyed", "aborted": "aborts", "cleared": "is cleared through to the target"}


def _mission(d) -> str:
    return MISSION_NAME.get(d["kind"], d["kind"])


def _rolled(state, d) -> str:
    if not d["dice"]:
        return f"{d['side']} does not fire ({d['reason']})"
    res = "no effect" if d["result"] == "-" else d["result"]
    who = f"; {d['chooser']} chooses among {', '.join(d['candidates'])}" if len(d["candidates"]) > 1 else ""
    return f"{d['side']} rolls {d['dice'][0]}+{d['dice'][1]} {d['value']:+g} = {d['modified']:g}: {res}{who}"


def _strike(state, d) -> str:
    outcome = "disorganized" if d["success"] else "no effect"
    return (f"Ground strike: {name(state, d['bomber'])} rolls {d['die']} against tactical {d['tactical']} "
            f"on {name(state, d['target'])}: {outcome}")


DESCRIBE = {
    "AirMissionBegan": lambda state, d: f"{_mission(d)} air missions begin",
    "AirUnitFlew": lambda state, d: (f"{name(state, d['unit'])} flies {ROLE[d['role']]} to {tuple(d['hex'])} "
                                     f"from {tuple(d['base'])}"),
    "AirCombatsFound": lambda state, d: "Air-to-air combat over " + ", ".join(str(tuple(h)) for h in d["hexes"]),
    "AirCombatSelected": lambda state, d: (f"Air-to-air combat over {tuple(d['hex'])}: {d['defender']} defends, "
                                           f"{d['attacker']} attacks"),
    "AirLineArranged": lambda state, d: (f"{d['side']} arranges its fighters {d['fighters']} and bombers "
                                         f"{d['bombers']} (front first)"),
    "AirLinesRevealed": lambda state, d: "Air-to-air lines revealed: " + "; ".join(
        f"{s} fighters {line['fighters']}, bombers {line['bombers']}" for s, line in sorted(d["lines"].items())),
    "AirCombatRoundStarted": lambda state, d: "Air-to-air round {}: strength {}".format(
        d["round"], ", ".join(f"{s} {v:g} (combat value {d['value'][s]:+g})" for s, v in d["strength"].items())),
    "AirCombatRolled": _rolled,
    "AirCasualtyChosen": lambda state, d: f"{d['by']} chooses {name(state, d['unit'])}",
    "AirCombatResultApplied": lambda state, d: f"{name(state, d['unit'])} {EFFECT[d['effect']]} ({d['cause']})",
    "AirCombatChoice": lambda state, d: f"{d['side']} {'aborts the air combat' if d['abort'] else 'stays in the air combat'}",
    "AirCombatEnded": lambda state, d: f"Air-to-air combat over {tuple(d['hex'])} ends: {d['reason']}",
    "GroundStrikeRolled": _strike,
    "AirGroundSupportFlown": lambda state, d: (f"Ground support: {d['side']} adds {d['factors']} tactical factors "
                                               f"to the combat at {tuple(d['hex'])}"),
    "AirMissionPerformed": lambda state, d: f"{_mission(d)} mission performed",
    "AirUnitReturned": lambda state, d: f"{name(state, d['unit'])} returns to base at {tuple(d['hex'])}",
    "AirUnitDestroyed": lambda state, d: f"{name(state, d['unit'])} is destroyed: {d['reason']}",
    "AirUnitRebased": lambda state, d: (f"{name(state, d['unit'])} rebases from {tuple(d['from_hex'])} "
                                        f"to {tuple(d['to_hex'])}"),
}


def describe(event, state) -> str | None:
    fn = DESCRIBE.get(event.type)
    return fn(state, event.data) if fn else None
