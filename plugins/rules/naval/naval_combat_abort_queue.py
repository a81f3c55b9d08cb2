"""Naval Combat Abort Queue and the Naval Combat Abort Digression: aborting units wait in a
queue until the combat in the sea area is over, then move to a friendly port group by group.

Seeds: "Naval Combat Abort Queue" (L7898-8011): aborted units "are no longer part of any
combat in the sea area"; they "do not actually execute the abort (i.e., return to base) until
the combat in the sea area reaches quiescence"; queue numbers: a phase combat starts at 1,
an interception combat at "1 + (1000 * the number of naval interception combats in the
current phase)"; "All units on the same side that abort in the same naval combat round have
the same queue number.  Units on the other side would be given a different queue number ...
Units that abort voluntarily ... are also given a different queue number, but all of them
would have the same queue number"; processing: "Units aborting from the most recent combat
are processed first, from smallest to largest queue number within that series"; a group
must have "the same abort queue number", "the same major power", "the same section box",
and "submarines cannot be mixed with non-submarine units"; damaged units that reach port go
to the repair pool.  "Naval Combat Abort Digression" (L13142-13170): "if a combat result
precipitated an abort and then the player decides to voluntarily abort at the end of the
same round, the combat abort(s) is(are) merged into the voluntarily abort"; "If two or more
units move as a group, they are required to return to the same port"; the digression repeats
"until there are no longer any units in the Naval Abort Queue".

Authored: "the current phase" counts interception combats per impulse; damaged units are
put in the repair pool as their group reaches port (the seed does it when the queue is
empty; nothing happens in between but other groups' moves); an aborting unit that can reach
no friendly port is destroyed when it aborts (Ships in Flames 4: "A unit that must return
and can't ... is destroyed").  Not done: interception of aborting groups on their way.
"""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command, EventData
from plugins.rules.units import UnitFlipped, units

from .naval_air import fly_home
from .naval_movement import destination_label, origin_label, perform_move
from .naval_units import damaged, is_sub, label
from .return_to_base import reachable_ports
from .state import AbortEntry, naval, rules

RULE = "Naval Combat Abort Queue"
DIGRESSION = "wif.digressions.naval-combat-abort"
MOVE_STEP = f"{DIGRESSION}.move-aborting-units"
SERIES = 1000  # an interception combat's numbers start at 1 + 1000 x k


# ---------------------------------------------------------------- events
@rules.event
class UnitsQueuedForAbort(EventData):
    """Units left the naval combat for the abort queue with ``number``; ``key`` is the
    combat's "side:round:cause" the number was given for."""

    units: list[str]
    number: int
    key: str = ""


@rules.event
class AbortGroupMoved(EventData):
    """A group of the abort queue moved to the port ``to`` ("col,row")."""

    power: str
    units: list[str]
    to: str


@rules.reducer("UnitsQueuedForAbort")
def _queued(state, event):
    n = naval(state)
    d = event.data
    names = set(d["units"])
    n.abort_queue = [e for e in n.abort_queue if e.unit not in names]
    for uid in d["units"]:
        box = n.at_sea[uid]
        n.abort_queue.append(AbortEntry(unit=uid, number=d["number"], area=box.area, section=box.section))
    if n.combat is not None and d.get("key"):
        n.combat.queue_numbers[d["key"]] = d["number"]


@rules.reducer("AbortGroupMoved")
def _group_moved(state, event):
    n = naval(state)
    gone = set(event.data["units"])
    n.abort_queue = [e for e in n.abort_queue if e.unit not in gone]


# ---------------------------------------------------------------- queueing
def queued(state) -> set[str]:
    return {e.unit for e in naval(state).abort_queue}


def queue_number(state, side: str, cause: str) -> tuple[int, str]:
    """The number this side's aborts of this round take (``cause``: "result" for the chart's
    A results, "voluntary" for a side's abort, "damaged" for the damaged units at the end)."""
    c = naval(state).combat
    key = f"{side}:{c.round}:{cause}"
    if key in c.queue_numbers:
        return c.queue_numbers[key], key
    return c.queue_base + len(set(c.queue_numbers.values())), key


def queue_aborts(ctx, unit_ids: list[str], side: str, cause: str) -> None:
    """Units abort from the combat: disorganized, into the queue with their side's number for
    this round.  An aircraft at sea flies home at once (the queue is for naval units); a unit
    that can reach no friendly port is destroyed with what it carries."""
    from .naval_combat_results import destroy  # the results module queues its aborts here

    state = ctx.state
    all_units = units(state).units
    waiting = []
    for uid in unit_ids:
        u = all_units.get(uid)
        if u is None or u.where != "map" or uid not in naval(state).at_sea:
            continue
        if u.branch == "air":
            fly_home(ctx, uid)
            continue
        if u.face_up:
            ctx.emit(UnitFlipped(unit=uid, face_up=False))
        if not reachable_ports(state, all_units[uid]):
            destroy(ctx, uid)
            continue
        waiting.append(uid)
    if waiting:
        number, key = queue_number(state, side, cause)
        ctx.emit(UnitsQueuedForAbort(units=waiting, number=number, key=key))


def merge_into_voluntary(ctx, side: str, unit_ids: list[str]) -> None:
    """A side's voluntary abort takes in its units queued by results this round."""
    state = ctx.state
    c = naval(state).combat
    result_number = c.queue_numbers.get(f"{side}:{c.round}:result")
    already = [e.unit for e in naval(state).abort_queue if e.number == result_number]
    number, key = queue_number(state, side, "voluntary")
    fresh = [u for u in unit_ids if u not in already]
    queue_aborts(ctx, fresh, side, "voluntary")
    if already:
        ctx.emit(UnitsQueuedForAbort(units=already, number=number, key=key))


# ---------------------------------------------------------------- processing order
def first_entries(state) -> list[AbortEntry]:
    """The entries moving now: the most recent combat's series, its smallest number."""
    queue = naval(state).abort_queue
    if not queue:
        return []
    series = max((e.number - 1) // SERIES for e in queue)
    number = min(e.number for e in queue if (e.number - 1) // SERIES == series)
    return [e for e in queue if e.number == number]


def group_key(state, entry: AbortEntry) -> str:
    u = units(state).units[entry.unit]
    return f"{entry.number}/{u.power}/{entry.area}:{entry.section}/{'subs' if is_sub(u) else 'ships'}"


def groups(state, power: str) -> dict[str, list[str]]:
    """``power``'s units that may move now, by the group they may move in."""
    out: dict[str, list[str]] = {}
    for e in first_entries(state):
        if units(state).units[e.unit].power == power:
            out.setdefault(group_key(state, e), []).append(e.unit)
    return out


def owners(state) -> list[str]:
    """The powers choosing now (the form's enabled flags)."""
    return sorted({units(state).units[e.unit].power for e in first_entries(state)})


def why_not_abort_move(state, power: str, group: str, to: str, unit_ids: list[str]) -> str | None:
    if not naval(state).abort_queue:
        return f"{RULE}: no unit is waiting to abort"
    mine = groups(state, power)
    if group not in mine:
        return (f"{RULE}: {group!r} is not a group of {power} that moves now "
                f"({', '.join(mine) or 'none: another power chooses, or another queue number is first'})")
    if not unit_ids:
        return f"{RULE}: no unit named"
    if len(set(unit_ids)) != len(unit_ids):
        return f"{RULE}: a unit is named twice"
    for uid in unit_ids:
        if uid not in mine[group]:
            return (f"{RULE}: {uid!r} is not in group {group} (a group has one queue number, one major power, "
                    "one section box, and SUBs apart from other units)")
    for uid in unit_ids:
        if to not in reachable_ports(state, units(state).units[uid]):
            return (f"{RULE}: {label(state, uid)} cannot reach {destination_label(to)} (a friendly port within its "
                    "range and movement allowance; a group returns to one port)")
    return None


# ---------------------------------------------------------------- the command
class MoveAbortingNaval(Command):
    """Move a group of the abort queue to one friendly port."""

    group: str  # "number/power/AREA:section/subs|ships" (groups() lists them)
    to: str  # a port hex "col,row"
    units: list[str]


def abort_move_choices(state, actor, step_id):
    mine = groups(state, actor)
    if not mine:
        return None
    all_units = units(state).units
    options = []
    for key, members in sorted(mine.items()):
        def then(members=members):
            reach = {u: reachable_ports(state, all_units[u]) for u in members}
            ports = []  # nearest first for the first unit that reaches them (a bot's default)
            for r in reach.values():
                ports += [p for p in r if p not in ports]
            return [Field("to", "option", [
                Option(p, destination_label(p), [Field("units", "units", [
                    Option(u, label(state, u)) for u in members if p in reach[u]], min=1)])
                for p in ports])]
        number, _, box, _ = key.split("/")
        options.append(Option(key, f"queue {number}: {origin_label(box)}, {len(members)} unit(s)", then))
    return [Field("group", "option", options, label="the group that aborts now")]


def abort_move_preview(state, cmd: MoveAbortingNaval):
    problem = why_not_abort_move(state, cmd.actor, cmd.group, cmd.to, cmd.units)
    if problem:
        raise Rejected(problem)
    return {"to": destination_label(cmd.to),
            "to_repair_pool": [u for u in cmd.units if damaged(state, u)],
            "left_in_queue": len(naval(state).abort_queue) - len(cmd.units)}


@rules.command(MoveAbortingNaval, choices=abort_move_choices, preview=abort_move_preview)
def move_aborting_naval(ctx, cmd: MoveAbortingNaval) -> None:
    from .naval_combat_results import to_repair_pool

    state = ctx.state
    problem = why_not_abort_move(state, cmd.actor, cmd.group, cmd.to, cmd.units)
    if problem:
        raise Rejected(problem)
    origin = cmd.group.split("/")[2]
    ctx.emit(AbortGroupMoved(power=cmd.actor, units=list(cmd.units), to=cmd.to))
    perform_move(ctx, cmd.actor, origin, cmd.to, None, list(cmd.units))
    for uid in cmd.units:
        if damaged(ctx.state, uid):
            to_repair_pool(ctx, uid)
    if not groups(ctx.state, cmd.actor):
        ctx.finish_decision(cmd.actor)


# ---------------------------------------------------------------- the digression
def push_if_waiting(ctx) -> None:
    """At the end of a naval combat: the abort digression runs while units wait."""
    if naval(ctx.state).abort_queue:
        ctx.push("digressions.naval-combat-abort")


def skip(state, step_id: str) -> str | None:
    if step_id in (DIGRESSION, MOVE_STEP) and not naval(state).abort_queue:
        return f"{RULE}: no unit is waiting to abort"
    return None


def deciders(state, step_id: str, kind: str) -> list[str] | None:
    return owners(state) if step_id == MOVE_STEP else None


def finish_refusal(state, step_id: str, power: str) -> str | None:
    if step_id != MOVE_STEP:
        return None
    left = groups(state, power)
    if left:
        names = ", ".join(label(state, u) for members in left.values() for u in members)
        return f"{RULE}: move your aborting units to port first (MoveAbortingNaval): {names}"
    return None


def repeat(state, step_id: str) -> bool | None:
    return bool(naval(state).abort_queue) if step_id == DIGRESSION else None


def default_port(state, unit_id: str) -> str | None:
    """The port a unit's abort goes to when nobody chooses (a bot's default): the nearest."""
    ports = reachable_ports(state, units(state).units[unit_id])
    return ports[0] if ports else None

