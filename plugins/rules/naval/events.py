"""Naval events (facts in past tense) and their reducers, the only writers of ``state["naval"]``.

A unit's hex and ``where`` are the units plugin's (``UnitMoved``); these events say what
only naval rules need: which sea-box section a unit is in, what is aboard what, damage,
the impulse a unit last moved.
"""

from __future__ import annotations

from kernel.events import EventData

from .state import NavalCombat, PendingMove, SeaBox, naval, rules


@rules.event
class ShipsPlacedAtSea(EventData):
    """Units put in a sea-box section by a scenario's setup or a lab game (not a naval move)."""

    units: list[str]
    area: str
    section: int


@rules.event
class NavalGroupMoved(EventData):
    """One naval move (Naval Movement): ``units`` went from ``origin`` (a port's name, or
    "AREA:section") to ``area``/``section`` at sea, or to the port at ``port_hex``."""

    power: str
    units: list[str]
    origin: str
    path: list[str]  # the sea areas entered, in order
    area: str | None = None
    section: int | None = None
    port_hex: tuple[int, int] | None = None
    turn: int = 0
    impulse: int = 0
    counts_as_entry: bool = True  # the phasing side moved a non-SUB unit into the area and stopped


@rules.event
class AirUnitsFlewToSea(EventData):
    """Naval Air: air units went from their bases to a sea-box section (they stay there)."""

    power: str
    units: list[str]
    bases: dict[str, tuple[int, int]]
    area: str
    section: int
    turn: int
    impulse: int


@rules.event
class UnitsLoaded(EventData):
    """Cargo embarked on a transport, or carrier air units landed on a carrier."""

    ship: str
    units: list[str]


@rules.event
class UnitsUnloaded(EventData):
    ship: str
    units: list[str]


@rules.event
class NavalUnitDamaged(EventData):
    unit: str


@rules.event
class NavalUnitRepaired(EventData):
    unit: str


@rules.event
class NavalUnitLost(EventData):
    """The unit left play (destroyed, or to the repair pool): it is no longer at sea or aboard."""

    unit: str


@rules.event
class NavalRepairScheduled(EventData):
    unit: str
    turn: int  # the turn it returns as a reinforcement


@rules.event
class NavalCombatPhaseBegan(EventData):
    initiator: str  # the side that may initiate in this phase


@rules.event
class NavalCombatDeclined(EventData):
    initiator: str


@rules.event
class NavalCombatBegan(EventData):
    area: str
    initiator: str
    initiating_unit: str | None = None  # the non-phasing side's designated unit (disorganized)
    first_rolls: dict[str, int] = {}  # an interception combat: the interceptor's roll
    always_included: list[str] = []  # an interception combat: the moving group


@rules.event
class NavalMoveInterrupted(EventData):
    power: str
    units: list[str]
    origin: str
    to: str
    section: int | None = None
    path: list[str]
    index: int
    reduction: int = 0


@rules.event
class InterceptionAttempted(EventData):
    area: str
    side: str
    unit: str | None
    commit_subs: bool
    turn: int
    impulse: int


@rules.event
class InterceptionDeclined(EventData):
    pass


@rules.event
class InterceptionSearched(EventData):
    roll: int
    number: int
    success: bool


@rules.event
class InterceptStopOrFight(EventData):
    fight: bool
    section: int


@rules.event
class NavalMoveFinished(EventData):
    pass


@rules.event
class SubsCommitted(EventData):
    side: str
    commit: bool


@rules.event
class NavalSearchResolved(EventData):
    """Search Die Rolls: each side's unmodified roll, the units its own roll included, whether
    it found a section, and the surprise points of the side with more."""

    rolls: dict[str, int]
    included: dict[str, list[str]]
    found: dict[str, bool]
    surprise: dict[str, int]
    over: str = ""  # why the combat ended before any search (a side with no unit committed)


@rules.event
class NavalSectionsIncluded(EventData):
    """Select Included Sea Boxes: the enemy units the only side to find brought in."""

    side: str  # the side whose units are included
    units: list[str]


@rules.event
class SurpriseSpent(EventData):
    side: str
    benefit: str
    points: int


@rules.event
class NavalCombatTypeSet(EventData):
    kind: str


@rules.event
class PlaneRoleSet(EventData):
    """Naval Air-to-air Combat: ``unit`` flies as a fighter or a bomber this round."""

    unit: str
    role: str  # fighter, bomber


@rules.event
class NavalAirStageReached(EventData):
    """The naval air combat moved on: ``stage`` "aa-by-nis" / "aa-by-is" (that side's ships fired
    their anti-aircraft fire) or "done" (both attacks' results are due)."""

    stage: str


@rules.event
class NavalResultsDue(EventData):
    target_side: str
    results: list[str]
    column: int | None = None
    row: str = ""


@rules.event
class NavalResultApplied(EventData):
    target_side: str
    unit: str
    result: str  # the result inflicted
    roll: int | None = None  # the defence roll
    final: str  # what it became: x, d, a, half-a, none


@rules.event
class NavalSideAborted(EventData):
    side: str


@rules.event
class NavalRoundEnded(EventData):
    round: int
    over: str = ""


@rules.event
class NavalCombatEnded(EventData):
    area: str
    reason: str


# ---------------------------------------------------------------- reducers
@rules.reducer("ShipsPlacedAtSea")
def _placed(state, event):
    d = event.data
    for u in d["units"]:
        naval(state).at_sea[u] = SeaBox(area=d["area"], section=d["section"])


@rules.reducer("NavalGroupMoved")
def _moved(state, event):
    d = event.data
    n = naval(state)
    for u in d["units"]:
        if d["area"] is not None:
            n.at_sea[u] = SeaBox(area=d["area"], section=d["section"])
        else:
            n.at_sea.pop(u, None)
        n.moved[u] = [d["turn"], d["impulse"]]
    if d["area"] is not None and d["counts_as_entry"]:
        n.entered[d["area"]] = [d["turn"], d["impulse"]]


@rules.reducer("AirUnitsFlewToSea")
def _flew_to_sea(state, event):
    d = event.data
    n = naval(state)
    for u in d["units"]:
        n.at_sea[u] = SeaBox(area=d["area"], section=d["section"])
        n.moved[u] = [d["turn"], d["impulse"]]
        n.air_bases[u] = tuple(d["bases"][u])
    n.entered[d["area"]] = [d["turn"], d["impulse"]]  # the non-phasing side may initiate there


@rules.reducer("UnitsLoaded")
def _loaded(state, event):
    cargo = naval(state).aboard.setdefault(event.data["ship"], [])
    cargo.extend(u for u in event.data["units"] if u not in cargo)


@rules.reducer("UnitsUnloaded")
def _unloaded(state, event):
    n = naval(state)
    ship = event.data["ship"]
    left = [u for u in n.aboard.get(ship, []) if u not in event.data["units"]]
    if left:
        n.aboard[ship] = left
    else:
        n.aboard.pop(ship, None)


@rules.reducer("NavalUnitDamaged")
def _damaged(state, event):
    n = naval(state)
    if event.data["unit"] not in n.damaged:
        n.damaged.append(event.data["unit"])


@rules.reducer("NavalUnitRepaired")
def _repaired(state, event):
    n = naval(state)
    if event.data["unit"] in n.damaged:
        n.damaged.remove(event.data["unit"])
    n.repairs.pop(event.data["unit"], None)


@rules.reducer("NavalUnitLost")
def _lost(state, event):
    n = naval(state)
    u = event.data["unit"]
    n.at_sea.pop(u, None)
    n.aboard.pop(u, None)
    n.air_bases.pop(u, None)
    for ship in list(n.aboard):
        if u in n.aboard[ship]:
            n.aboard[ship].remove(u)
            if not n.aboard[ship]:
                del n.aboard[ship]


@rules.reducer("NavalRepairScheduled")
def _repair_scheduled(state, event):
    naval(state).repairs[event.data["unit"]] = event.data["turn"]


@rules.reducer("NavalCombatPhaseBegan")
def _phase_began(state, event):
    n = naval(state)
    n.phase_initiator, n.phase_declined = event.data["initiator"], False


@rules.reducer("NavalCombatDeclined")
def _declined(state, event):
    naval(state).phase_declined = True


@rules.reducer("NavalCombatBegan")
def _combat_began(state, event):
    n = naval(state)
    d = event.data
    n.combat = NavalCombat(area=d["area"], initiator=d["initiator"], first_rolls=d.get("first_rolls") or {},
                           always_included=d.get("always_included") or [])
    if d.get("always_included"):
        n.phase_initiator = None  # an interception combat belongs to no combat phase
        # Naval Combat Abort Queue: its queue numbers start at 1 + 1000 x the interception
        # combats of the impulse (this one included)
        now = [state.kernel.turn, state.kernel.impulse]
        count = n.interception_combats[2] + 1 if n.interception_combats[:2] == now else 1
        n.interception_combats = now + [count]
        n.combat.queue_base = 1 + 1000 * count
    else:
        n.fought[d["area"]] = [state.kernel.turn, state.kernel.impulse]


@rules.reducer("NavalMoveInterrupted")
def _interrupted(state, event):
    naval(state).moving = PendingMove.model_validate(event.data)


@rules.reducer("InterceptionAttempted")
def _attempted(state, event):
    n = naval(state)
    d = event.data
    n.moving.attempted, n.moving.attempt_side, n.moving.commit_subs = True, d["side"], d["commit_subs"]
    if d["unit"]:
        n.interceptors[f"{d['side']}:{d['area']}"] = [d["unit"], d["turn"], d["impulse"]]


@rules.reducer("InterceptionDeclined")
def _declined_interception(state, event):
    naval(state).moving.declined = True


@rules.reducer("InterceptionSearched")
def _searched_interception(state, event):
    m = naval(state).moving
    m.roll, m.success = event.data["roll"], event.data["success"]


@rules.reducer("InterceptStopOrFight")
def _stop_or_fight(state, event):
    naval(state).moving.choice = "fight" if event.data["fight"] else "stop"


@rules.reducer("NavalMoveFinished")
def _move_finished(state, event):
    naval(state).moving = None


@rules.reducer("SubsCommitted")
def _subs(state, event):
    naval(state).combat.subs[event.data["side"]] = event.data["commit"]


@rules.reducer("NavalSearchResolved")
def _searched(state, event):
    c = naval(state).combat
    d = event.data
    c.rolls, c.included, c.found, c.surprise = d["rolls"], d["included"], d["found"], d["surprise"]
    if d.get("over"):
        c.over = d["over"]
    elif not any(d["found"].values()):
        c.over = "both searches failed"


@rules.reducer("NavalSectionsIncluded")
def _sections(state, event):
    naval(state).combat.included[event.data["side"]] = list(event.data["units"])


@rules.reducer("SurpriseSpent")
def _surprise(state, event):
    c = naval(state).combat
    d = event.data
    c.surprise[d["side"]] = c.surprise.get(d["side"], 0) - d["points"]
    other = next(s for s in state.kernel.sides if s != d["side"])
    if d["benefit"] == "avoid-combat":
        c.over = f"{d['side']} spent surprise points to avoid combat"
    elif d["benefit"] == "own-column":
        c.shifts[d["side"]] = c.shifts.get(d["side"], 0) + 1
    elif d["benefit"] == "enemy-column":
        c.shifts[other] = c.shifts.get(other, 0) - 1


@rules.reducer("NavalCombatTypeSet")
def _kind(state, event):
    naval(state).combat.kind = event.data["kind"]


@rules.reducer("PlaneRoleSet")
def _plane_role(state, event):
    c = naval(state).combat
    unit = event.data["unit"]
    c.fighters = [u for u in c.fighters if u != unit] + ([unit] if event.data["role"] == "fighter" else [])


@rules.reducer("NavalAirStageReached")
def _air_stage(state, event):
    naval(state).combat.air_stage = event.data["stage"]


@rules.reducer("NavalResultsDue")
def _due(state, event):
    naval(state).combat.due[event.data["target_side"]] = list(event.data["results"])


@rules.reducer("NavalResultApplied")
def _applied(state, event):
    c = naval(state).combat
    d = event.data
    due = c.due.get(d["target_side"], [])
    if due:
        due.pop(0)
    c.applied[d["target_side"]] = c.applied.get(d["target_side"], 0) + 1
    unit = d["unit"]
    if d["final"] == "half-a":
        c.half_a[unit] = c.half_a.get(unit, 0) + 1
        if c.half_a[unit] >= 2 and unit not in c.aborting:
            c.aborting.append(unit)  # two half-A results in a round make an A
    elif d["final"] == "a" and unit not in c.aborting:
        c.aborting.append(unit)


@rules.reducer("NavalSideAborted")
def _side_aborted(state, event):
    c = naval(state).combat
    if event.data["side"] not in c.voluntary:
        c.voluntary.append(event.data["side"])


@rules.reducer("NavalRoundEnded")
def _round_ended(state, event):
    c = naval(state).combat
    # "All half-A results lapse at the end of each round"; SUB commitment is decided anew
    c.round = event.data["round"] + 1
    c.half_a, c.aborting, c.due, c.subs, c.shifts, c.surprise, c.applied = {}, [], {}, {}, {}, {}, {}
    c.included, c.found, c.rolls, c.kind, c.voluntary = {}, {}, {}, "", []
    c.fighters, c.air_stage = [], ""
    if event.data["over"]:
        c.over = event.data["over"]


@rules.reducer("NavalCombatEnded")
def _combat_ended(state, event):
    naval(state).combat = None
