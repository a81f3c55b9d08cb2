"""Naval Combat's events (seeds "Naval Combat", "Naval Combat Included Units and Naval Combat
Type", "Surprise Points", "Naval Combat Results Table", "Naval Air-to-air Combat") and their
reducers, the only writers of ``state["naval"].combat``."""

from __future__ import annotations

from kernel.events import EventData

from .state import NavalCombat, naval, rules


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
    port: str = ""  # a port attack's port ("col,row"); "" in a naval combat
    target_side: str = ""  # select-target: the side whose next result's target the spender picks


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


class _PortCombat:
    """A port attack's surprise record seen as a combat's ``surprise`` / ``shifts`` /
    ``air_values`` / ``aa_shifts`` (the dicts are the record's own, so the reducer writes them)."""

    def __init__(self, record: dict) -> None:
        self.surprise, self.shifts = record["surprise"], record["shifts"]
        self.air_values, self.aa_shifts = record["air_values"], record["aa_shifts"]
        self.over = ""


@rules.reducer("SurpriseSpent")
def _surprise(state, event):
    d = event.data
    c = naval(state).combat
    if d.get("port"):
        # a port attack's combat (port_attack_surprise): the same benefits, kept by port
        c = _PortCombat(naval(state).port_surprise[d["port"]])
    c.surprise[d["side"]] = c.surprise.get(d["side"], 0) - d["points"]
    other = next(s for s in state.kernel.sides if s != d["side"])
    if d["benefit"] == "avoid-combat":
        c.over = f"{d['side']} spent surprise points to avoid combat"
    elif d["benefit"] == "own-column":
        c.shifts[d["side"]] = c.shifts.get(d["side"], 0) + 1
    elif d["benefit"] == "enemy-column":
        c.shifts[other] = c.shifts.get(other, 0) - 1
    elif d["benefit"] == "own-air-to-air":
        c.air_values[d["side"]] = c.air_values.get(d["side"], 0) + 1
    elif d["benefit"] == "enemy-air-to-air":
        c.air_values[other] = c.air_values.get(other, 0) - 1
    elif d["benefit"] == "own-aa-column":
        c.aa_shifts[d["side"]] = c.aa_shifts.get(d["side"], 0) + 1
    elif d["benefit"] == "enemy-aa-column":
        c.aa_shifts[other] = c.aa_shifts.get(other, 0) - 1
    elif d["benefit"] == "select-target":
        c.target_picks[d["target_side"]] = d["side"]


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
    c.target_picks.pop(d["target_side"], None)  # a target bought with surprise points is picked once
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
    c.fighters, c.air_stage, c.air_values, c.aa_shifts, c.kamikazes = [], "", {}, {}, []
    c.target_picks = {}
    if event.data["over"]:
        c.over = event.data["over"]


@rules.reducer("NavalCombatEnded")
def _combat_ended(state, event):
    naval(state).combat = None
