"""The land combat events and their reducers (the only writers of ``state["combat"]``).

Ground support is the air plugin's way in: it emits ``GroundSupportAdded(combat, side,
factors)`` when a ground support mission is performed; the factors add up."""

from __future__ import annotations

from kernel.events import EventData
from plugins.rules import core

from .state import Combat, cs, rules, stamp


@rules.event
class AttackDeclared(EventData):
    combat: str
    hex: tuple[int, int]
    power: str
    units: list[str]
    forced: str = ""


@rules.event
class AttackCancelled(EventData):
    combat: str
    reason: str


@rules.event
class NotionalDecided(EventData):
    combat: str
    power: str
    include: bool


@rules.event
class HQSupportDeclared(EventData):
    combat: str
    side: str  # "attacker" / "defender"
    hq: str


@rules.event
class HQSupportRolled(EventData):
    combat: str
    side: str
    hq: str
    roll: int
    needed: int
    success: bool


@rules.event
class GroundSupportAdded(EventData):
    """Emitted by the air plugin when a ground support mission is performed."""

    combat: str
    side: str  # "attacker" / "defender"
    factors: float


@rules.event
class LandCombatSelected(EventData):
    combat: str | None
    depth: int
    chooser: str | None = None  # which side chooses the table ("attacker"/"defender")
    snow_eligible: bool | None = None  # the attacker may gain from its snow units


@rules.event
class SnowUnitsDecided(EventData):
    combat: str
    use: bool


@rules.event
class LandCombatTableChosen(EventData):
    combat: str
    table: str
    side: str  # which side chose


@rules.event
class LandCombatResolved(EventData):
    combat: str
    hex: tuple[int, int]
    place: str
    table: str
    attack: int
    defence: int
    base_odds: str | None
    shifts: dict[str, int]
    odds: str
    drm: dict[str, int]
    roll: int | None
    modified: int | None
    result: str
    losses: dict[str, int]  # side -> land units to destroy
    crt: str = "1d10"  # the results table read: "1d10", or another an optional rule gives ("2d10")


@rules.event
class ShatterConverted(EventData):
    combat: str
    convert: bool


@rules.event
class LandLossesTaken(EventData):
    combat: str
    side: str
    units: list[str]


@rules.event
class LandCombatOutcome(EventData):
    combat: str
    retreating: list[str]
    shattered: list[str]
    destroyed: list[str]
    disorganized: list[str]
    advance: bool
    breakthrough: bool
    excess_to_pool: bool = False


@rules.event
class UnitRetreated(EventData):
    combat: str
    unit: str
    from_hex: tuple[int, int]
    to_hex: tuple[int, int] | None  # None: destroyed
    priority: int = 0
    done: bool = True  # False: it ended in a hex still to be attacked, or over-stacked, and keeps retreating
    reason: str = ""
    to_pool: bool = False  # with to_hex None: it survives in the production pool (Shatter)


@rules.event
class UnitAdvanced(EventData):
    combat: str
    unit: str
    to_hex: tuple[int, int]
    second: bool = False
    disorganized: bool = False


EVENTS = (AttackDeclared, AttackCancelled, NotionalDecided, HQSupportDeclared, HQSupportRolled,
          GroundSupportAdded, LandCombatSelected, SnowUnitsDecided, LandCombatTableChosen,
          LandCombatResolved, ShatterConverted, LandLossesTaken, LandCombatOutcome, UnitRetreated,
          UnitAdvanced)


# ---------------------------------------------------------------- reducers
def _combat(state, event) -> Combat:
    return cs(state).combats[event.data["combat"]]


@rules.reducer("AttackDeclared")
def _declared(state, event):
    s = cs(state)
    d = event.data
    if tuple(s.stamp) != stamp(state):  # a new impulse: last impulse's combats are over
        s.combats.clear()
        s.ground_support.clear()
        s.hq_used.clear()
        s.frames.clear()
        s.stamp = stamp(state)
    c = s.combats.get(d["combat"])
    if c is None or c.stage != "declared":
        c = s.combats[d["combat"]] = Combat(id=d["combat"], hex=tuple(d["hex"]))
    for u in d["units"]:
        if u not in c.attackers:
            c.attackers.append(u)
    if d["power"] not in c.powers:
        c.powers.append(d["power"])
    if d.get("forced"):
        c.forced = d["forced"]
        if d["forced"] == "paradrop":
            c.paradropped += [u for u in d["units"] if u not in c.paradropped]


@rules.reducer("AttackCancelled")
def _cancelled(state, event):
    _combat(state, event).stage = "cancelled"


@rules.reducer("NotionalDecided")
def _notional(state, event):
    _combat(state, event).notional = event.data["include"]


@rules.reducer("HQSupportDeclared")
def _hq_declared(state, event):
    c = _combat(state, event)
    c.hq.setdefault(event.data["side"], []).append(event.data["hq"])
    cs(state).hq_used.append(event.data["hq"])


@rules.reducer("HQSupportRolled")
def _hq_rolled(state, event):
    if event.data["success"]:
        c = _combat(state, event)
        c.hq_shift[event.data["side"]] = c.hq_shift.get(event.data["side"], 0) + 1


@rules.reducer("GroundSupportAdded")
def _ground_support(state, event):
    d = event.data
    entry = cs(state).ground_support.setdefault(d["combat"], {})
    entry[d["side"]] = entry.get(d["side"], 0.0) + d["factors"]


@rules.reducer("LandCombatSelected")
def _selected(state, event):
    d = event.data
    s = cs(state)
    s.frames[str(d["depth"])] = d["combat"]
    if d["combat"]:
        c = s.combats[d["combat"]]
        c.stage = "selected"
        c.chooser = d.get("chooser")
        c.snow_eligible = d.get("snow_eligible")


@rules.reducer("SnowUnitsDecided")
def _snow(state, event):
    _combat(state, event).snow_units = event.data["use"]


@rules.reducer("LandCombatTableChosen")
def _table(state, event):
    c = _combat(state, event)
    c.table = event.data["table"]
    c.stage = "typed"


@rules.reducer("LandCombatResolved")
def _resolved(state, event):
    c = _combat(state, event)
    c.stage = "rolled"
    c.result = dict(event.data)
    c.losses = dict(event.data["losses"])


@rules.reducer("ShatterConverted")
def _converted(state, event):
    _combat(state, event).converted = event.data["convert"]


@rules.reducer("LandLossesTaken")
def _losses(state, event):
    c = _combat(state, event)
    side = event.data["side"]
    c.losses[side] = max(0, c.losses.get(side, 0) - len(event.data["units"]))


@rules.reducer("LandCombatOutcome")
def _outcome(state, event):
    c = _combat(state, event)
    d = event.data
    c.stage = "applied"
    c.retreating = list(d["retreating"])
    c.advance = d["advance"]
    c.breakthrough = d["breakthrough"]
    c.excess_to_pool = d.get("excess_to_pool", False)


@rules.reducer("UnitRetreated")
def _retreated(state, event):
    c = _combat(state, event)
    d = event.data
    c.retreat_trail.setdefault(d["unit"], []).append(core.hex_key(d["from_hex"]))
    if d["done"] and d["unit"] in c.retreating:
        c.retreating.remove(d["unit"])


@rules.reducer("UnitAdvanced")
def _advanced(state, event):
    c = _combat(state, event)
    if event.data["second"]:
        c.second.append(event.data["unit"])
    else:
        c.advanced.append(event.data["unit"])
