"""One line a player reads for each air event, one function per event type."""

from __future__ import annotations

from .aircraft import name
from .state import MISSION_NAME, rules

ROLE = {"bomber": "as a bomber", "escort": "as an escort", "cap": "on combat air patrol", "interceptor": "to intercept"}
EFFECT = {"destroyed": "is destroyed", "aborted": "aborts", "cleared": "is cleared through to the target"}


def _mission(d) -> str:
    return MISSION_NAME.get(d["kind"], d["kind"])


@rules.describe("AirMissionBegan")
def _began(event, state):
    return f"{_mission(event.data)} air missions begin"


@rules.describe("AirUnitFlew")
def _flew(event, state):
    d = event.data
    return f"{name(state, d['unit'])} flies {ROLE[d['role']]} to {tuple(d['hex'])} from {tuple(d['base'])}"


@rules.describe("AirCombatsFound")
def _combats_found(event, state):
    return "Air-to-air combat over " + ", ".join(str(tuple(h)) for h in event.data["hexes"])


@rules.describe("AirCombatSelected")
def _combat_selected(event, state):
    d = event.data
    return f"Air-to-air combat over {tuple(d['hex'])}: {d['defender']} defends, {d['attacker']} attacks"


@rules.describe("AirLineArranged")
def _line_arranged(event, state):
    d = event.data
    return f"{d['side']} arranges its fighters {d['fighters']} and bombers {d['bombers']} (front first)"


@rules.describe("AirLinesRevealed")
def _lines_revealed(event, state):
    return "Air-to-air lines revealed: " + "; ".join(
        f"{s} fighters {line['fighters']}, bombers {line['bombers']}" for s, line in sorted(event.data["lines"].items()))


@rules.describe("AirCombatRoundStarted")
def _round_started(event, state):
    d = event.data
    return "Air-to-air round {}: strength {}".format(
        d["round"], ", ".join(f"{s} {v:g} (combat value {d['value'][s]:+g})" for s, v in d["strength"].items()))


@rules.describe("AirCombatRolled")
def _rolled(event, state):
    d = event.data
    if not d["dice"]:
        return f"{d['side']} does not fire ({d['reason']})"
    res = "no effect" if d["result"] == "-" else d["result"]
    who = f"; {d['chooser']} chooses among {', '.join(d['candidates'])}" if len(d["candidates"]) > 1 else ""
    return f"{d['side']} rolls {d['dice'][0]}+{d['dice'][1]} {d['value']:+g} = {d['modified']:g}: {res}{who}"


@rules.describe("AirCasualtyChosen")
def _casualty_chosen(event, state):
    return f"{event.data['by']} chooses {name(state, event.data['unit'])}"


@rules.describe("AirCombatResultApplied")
def _result_applied(event, state):
    d = event.data
    return f"{name(state, d['unit'])} {EFFECT[d['effect']]} ({d['cause']})"


@rules.describe("AirCombatChoice")
def _choice(event, state):
    d = event.data
    return f"{d['side']} {'aborts the air combat' if d['abort'] else 'stays in the air combat'}"


@rules.describe("AirCombatEnded")
def _combat_ended(event, state):
    return f"Air-to-air combat over {tuple(event.data['hex'])} ends: {event.data['reason']}"


@rules.describe("GroundStrikeRolled")
def _strike(event, state):
    d = event.data
    outcome = "disorganized" if d["success"] else "no effect"
    return (f"Ground strike: {name(state, d['bomber'])} rolls {d['die']} against tactical {d['tactical']} "
            f"on {name(state, d['target'])}: {outcome}")


@rules.describe("AirGroundSupportFlown")
def _support(event, state):
    d = event.data
    return f"Ground support: {d['side']} adds {d['factors']} tactical factors to the combat at {tuple(d['hex'])}"


@rules.describe("AirMissionPerformed")
def _performed(event, state):
    return f"{_mission(event.data)} mission performed"


@rules.describe("AirUnitReturned")
def _returned(event, state):
    return f"{name(state, event.data['unit'])} returns to base at {tuple(event.data['hex'])}"


@rules.describe("AirUnitDestroyed")
def _destroyed(event, state):
    return f"{name(state, event.data['unit'])} is destroyed: {event.data['reason']}"


@rules.describe("AirUnitRebased")
def _rebased(event, state):
    d = event.data
    return f"{name(state, d['unit'])} rebases from {tuple(d['from_hex'])} to {tuple(d['to_hex'])}"


@rules.describe("AAFirePlotted")
def _aa_plotted(event, state):
    d = event.data
    return f"{name(state, d['unit'])} plots {d['shots']} anti-aircraft shots at {tuple(d['hex'])} ({d['factors']} factors)"


@rules.describe("AAFireRolled")
def _aa_rolled(event, state):
    d = event.data
    kept, rolled = d["cell"].split("/")
    how = f"{'highest' if int(kept) > 0 else 'lowest'} {abs(int(kept))} of {rolled}"
    return (f"Anti-aircraft fire at {tuple(d['hex'])}: {d['factors']} factors on {len(d['bombers'])} bombers, "
            f"{how} dice {d['dice']} = {d['points']} points: destroy {d['destroy']}, abort {d['abort']}, "
            f"{d['reduce']} factors do not press the attack")


@rules.describe("AADamageApplied")
def _aa_applied(event, state):
    d = event.data
    what = {"destroy": "is destroyed", "abort": "aborts",
            "reduce": f"loses {d['amount']} attack factors"}[d["effect"]]
    return f"Anti-aircraft fire: {name(state, d['unit'])} {what}"


@rules.describe("AirCargoDelivered")
def _cargo(event, state):
    d = event.data
    what = {"landed": f"lands at {tuple(d['hex'])}", "aborted": "stays at its base, disorganized (its transport aborted)",
            "destroyed": "is destroyed with its transport", "reorganized": f"is organized by air at {tuple(d['hex'])}"}
    return f"{name(state, d['unit'])} {what[d['outcome']]}"


@rules.describe("StrategicBombardmentRolled")
def _strategic(event, state):
    d = event.data
    return (f"Strategic bombardment of {tuple(d['hex'])}: {d['factors']} strategic factors, die {d['die']} "
            f"(modified {d['modified']}): {d['points']} points{', ' + '*' * d['asterisks'] if d['asterisks'] else ''}")
