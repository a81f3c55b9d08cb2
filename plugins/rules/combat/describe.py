"""How the land combat events read in the log and the replay viewer, and the hexes each
touched (a combat's id is its defending hex key)."""

from __future__ import annotations

from plugins.rules import core

from . import odds as O
from .events import EVENTS
from .labels import names
from .state import rules
from plugins.rules.core.names import power_name


def _hx(h) -> str:
    return O.place_name(tuple(h))


def _at(d) -> str:
    return _hx(core.key_hex(d["combat"]))


@rules.hexes(*(m.__name__ for m in EVENTS))
def _touched(event, state):
    """The defending hex, and where a unit retreated or advanced from and to."""
    d = event.data
    if not d.get("combat"):
        return None
    try:
        hexes = [core.key_hex(d["combat"])]
    except ValueError:
        return None
    for name in ("from_hex", "to_hex"):
        if d.get(name) is not None:
            hexes.append(tuple(d[name]))
    return hexes


@rules.describe("AttackDeclared")
def _declared(event, state):
    d = event.data
    what = f" ({d['forced']})" if d.get("forced") else ""
    return f"{power_name(d['power'])} declares an attack{what} on {_hx(d['hex'])} with {', '.join(names(state, d['units']))}"


@rules.describe("AttackCancelled")
def _cancelled(event, state):
    return f"The attack on {_at(event.data)} is off: {event.data['reason']}"


@rules.describe("NotionalDecided")
def _notional(event, state):
    d = event.data
    return f"{power_name(d['power'])} {'includes' if d['include'] else 'ignores'} the notional unit at {_at(d)}"


@rules.describe("HQSupportDeclared")
def _hq_declared(event, state):
    d = event.data
    return f"{names(state, [d['hq']])[0]} announces {d['side']} HQ support at {_at(d)}"


@rules.describe("HQSupportRolled")
def _hq_rolled(event, state):
    d = event.data
    ok = "succeeds" if d["success"] else "fails"
    return f"HQ support by {names(state, [d['hq']])[0]} {ok} (roll {d['roll']}, needed {d['needed']} or less)"


@rules.describe("GroundSupportAdded")
def _ground_support(event, state):
    d = event.data
    return f"Ground support adds {d['factors']:g} factors to the {d['side']} at {_at(d)}"


@rules.describe("LandCombatSelected")
def _selected(event, state):
    d = event.data
    return f"Land combat at {_at(d)} is resolved next" if d["combat"] else None


@rules.describe("SnowUnitsDecided")
def _snow(event, state):
    return f"The attacker {'uses' if event.data['use'] else 'does not use'} its snow units' benefit"


@rules.describe("LandCombatTableChosen")
def _table(event, state):
    d = event.data
    return f"The {d['side']} side chooses the {d['table'].capitalize()} table at {_at(d)}"


@rules.describe("LandCombatResolved")
def _resolved(event, state):
    d = event.data
    table = d["table"].capitalize()
    if d["roll"] is None:
        return f"Land combat at {d['place']}, no defending factors, {table} → {d['result']} (automatic)"
    mod = f" (modified {d['modified']})" if d["modified"] != d["roll"] else ""
    return (f"Land combat at {d['place']}, {d['attack']} against {d['defence']}, {d['odds']} {table}, "
            f"roll {d['roll']}{mod} → {d['result']}")


@rules.describe("ShatterConverted")
def _converted(event, state):
    return "The attacker converts the result to a retreat" if event.data["convert"] else "The attacker keeps the result"


@rules.describe("LandLossesTaken")
def _losses(event, state):
    d = event.data
    return f"The {d['side']} loses {', '.join(names(state, d['units']))}"


@rules.describe("LandCombatOutcome")
def _outcome(event, state):
    d = event.data
    parts = []
    if d["shattered"]:
        parts.append("shattered to the production pool: " + ", ".join(names(state, d["shattered"])))
    if d["retreating"]:
        parts.append("to retreat: " + ", ".join(names(state, d["retreating"])))
    if d["disorganized"]:
        parts.append(f"{len(d['disorganized'])} unit(s) disorganized")
    if d["advance"]:
        parts.append("the attacker may advance" + (" (breakthrough)" if d["breakthrough"] else ""))
    return "Combat outcome: " + ("; ".join(parts) or "no further effect")


@rules.describe("UnitRetreated")
def _retreated(event, state):
    d = event.data
    name = names(state, [d["unit"]])[0]
    if d["to_hex"] is None:
        fate = "goes to the production pool" if d.get("to_pool") else "is destroyed"
        return f"{name} can't retreat and {fate} ({d['reason']})"
    return f"{name} retreats to {_hx(d['to_hex'])}" + (f" and {d['reason']}" if d["reason"] else "")


@rules.describe("UnitAdvanced")
def _advanced(event, state):
    d = event.data
    extra = " (disorganized)" if d["disorganized"] else ""
    return f"{names(state, [d['unit']])[0]} advances after combat into {_hx(d['to_hex'])}{extra}"
