"""One line a player reads for each naval event (the Play form's log, ``wif log``), one
function per event type; the words of the Naval Combat Results form
(naval_combat_results_form.py) where it tells the same event."""

from __future__ import annotations

from plugins.rules.core.names import power_name

from .naval_combat_results_form import AIR_STAGES, KINDS, LETTERS, WORDS, names, side_name, unit_name
from .sea_box_section import area_name, port_at
from .state import rules

BENEFITS = {"avoid-combat": "avoid the combat", "choose-type": "choose the combat type",
            "own-column": "shift its column on the naval combat chart 1 to the right",
            "enemy-column": "shift the enemy's column on the naval combat chart 1 to the left",
            "own-aa-column": "shift its anti-aircraft fire 1 column up",
            "enemy-aa-column": "shift the enemy's anti-aircraft fire 1 column down",
            "own-air-to-air": "add 1 to its air-to-air combat value",
            "enemy-air-to-air": "take 1 from the enemy's air-to-air combat value",
            "select-target": "select the target of the next result"}


def describes(event_type: str):
    """``rules.describe``, the sentence starting with a capital ("the Axis ..." -> "The Axis ...")."""
    def deco(fn):
        def told(event, state):
            text = fn(event, state)
            return text[:1].upper() + text[1:]
        rules.describe(event_type)(told)
        return fn
    return deco


def _box(area: str | None, section: int | None) -> str:
    return f"{area_name(area)} (section {section})" if area else "?"


def _port(hex_) -> str:
    """A port by its name ("the port of Truk"), else by its hex."""
    found = port_at(tuple(hex_))
    name = getattr(found, "name", "") if found is not None else ""
    return f"the port of {name}" if name else f"the port at {tuple(hex_)}"


def _origin(origin: str) -> str:
    """A move's origin: a sea box "AREA:section" or a port's hex "col,row"."""
    if ":" in origin:
        area, section = origin.split(":")
        return _box(area, int(section))
    return _port(int(x) for x in origin.split(","))


# ---------------------------------------------------------------- naval units (events.py)
@describes("ShipsPlacedAtSea")
def _placed(event, state):
    d = event.data
    return f"{names(state, d['units'])} placed at sea in {_box(d['area'], d['section'])}"


@describes("NavalGroupMoved")
def _moved(event, state):
    d = event.data
    to = _box(d["area"], d["section"]) if d.get("area") else _port(d["port_hex"])
    via = f" through {', '.join(area_name(a) for a in d['path'])}" if d.get("path") else ""
    return f"{power_name(d['power'])} moves {names(state, d['units'])} from {_origin(d['origin'])}{via} to {to}"


@describes("AirUnitsFlewToSea")
def _flew_to_sea(event, state):
    d = event.data
    return f"{power_name(d['power'])} flies {names(state, d['units'])} to sea in {_box(d['area'], d['section'])}"


@describes("UnitsLoaded")
def _loaded(event, state):
    d = event.data
    return f"{names(state, d['units'])} board{'s' if len(d['units']) == 1 else ''} {unit_name(state, d['ship'])}"


@describes("UnitsUnloaded")
def _unloaded(event, state):
    d = event.data
    return f"{names(state, d['units'])} leave{'s' if len(d['units']) == 1 else ''} {unit_name(state, d['ship'])}"


@describes("NavalUnitDamaged")
def _damaged(event, state):
    return f"{unit_name(state, event.data['unit'])} is damaged"


@describes("NavalUnitRepaired")
def _repaired(event, state):
    return f"{unit_name(state, event.data['unit'])} is repaired"


@describes("NavalUnitLost")
def _lost(event, state):
    return f"{unit_name(state, event.data['unit'])} leaves the sea (destroyed, or to the repair pool)"


@describes("NavalRepairScheduled")
def _repair_scheduled(event, state):
    d = event.data
    return f"{unit_name(state, d['unit'])} goes to the repair pool: it returns on turn {d['turn']}"


# ---------------------------------------------------------------- Naval Interception
@describes("NavalMoveInterrupted")
def _interrupted(event, state):
    d = event.data
    return (f"{power_name(d['power'])}'s move of {names(state, d['units'])} stops in "
            f"{area_name(d['path'][d['index']]) if 0 <= d['index'] < len(d['path']) else d['to']}: the enemy may intercept")


@describes("InterceptionAttempted")
def _attempted(event, state):
    d = event.data
    who = f" with {unit_name(state, d['unit'])}" if d.get("unit") else ""
    subs = ", its submarines committed" if d["commit_subs"] else ""
    return f"{side_name(d['side'])} try to intercept in {area_name(d['area'])}{who}{subs}"


@describes("InterceptionDeclined")
def _declined_interception(event, state):
    return "No interception"


@describes("InterceptionSearched")
def _searched_interception(event, state):
    d = event.data
    return (f"Interception search: die {d['roll']} against {d['number']}: "
            f"{'the moving group is found' if d['success'] else 'not found'}")


@describes("InterceptStopOrFight")
def _stop_or_fight(event, state):
    d = event.data
    return ("The intercepted group fights" if d["fight"] else "The intercepted group stops") + \
        f" (section {d['section']})"


@describes("NavalMoveFinished")
def _move_finished(event, state):
    return "The naval move is over"


# ---------------------------------------------------------------- Naval Combat
@describes("NavalCombatPhaseBegan")
def _phase_began(event, state):
    return f"{side_name(event.data['initiator'])} may initiate naval combat"


@describes("NavalCombatDeclined")
def _combat_declined(event, state):
    return f"{side_name(event.data['initiator'])} initiate no (more) naval combat"


@describes("NavalCombatBegan")
def _combat_began(event, state):
    d = event.data
    by = f" ({unit_name(state, d['initiating_unit'])} initiates)" if d.get("initiating_unit") else ""
    return f"Naval combat in {area_name(d['area'])}, initiated by {side_name(d['initiator'])}{by}"


@describes("SubsCommitted")
def _subs(event, state):
    d = event.data
    return f"{side_name(d['side'])} {'commit' if d['commit'] else 'do not commit'} their submarines"


@describes("NavalSearchResolved")
def _search(event, state):
    d = event.data
    if d.get("over"):
        return f"Naval search: none ({d['over']})"
    said = "; ".join(f"{side_name(s)} rolled {r} ({'found' if d['found'].get(s) else 'did not find'})"
                     for s, r in d["rolls"].items())
    points = ", ".join(f"{side_name(s)} {p}" for s, p in d["surprise"].items() if p)
    return f"Naval search: {said}" + (f"; surprise points: {points}" if points else "")


@describes("NavalSectionsIncluded")
def _sections(event, state):
    d = event.data
    return f"{side_name(d['side'])} included too: {names(state, d['units'])}"


@describes("SurpriseSpent")
def _surprise(event, state):
    d = event.data
    return f"{side_name(d['side'])} spend {d['points']} surprise points to {BENEFITS.get(d['benefit'], d['benefit'])}"


@describes("NavalCombatTypeSet")
def _kind(event, state):
    return f"Naval combat type: {KINDS.get(event.data['kind'], event.data['kind'])}"


@describes("PlaneRoleSet")
def _plane_role(event, state):
    d = event.data
    return f"{unit_name(state, d['unit'])} flies as a {d['role']} this round"


@describes("NavalAirStageReached")
def _air_stage(event, state):
    return f"Naval air combat: {AIR_STAGES.get(event.data['stage'], event.data['stage'])}"


@describes("NavalResultsDue")
def _due(event, state):
    d = event.data
    results = ", ".join(LETTERS.get(r, r) for r in d["results"]) or "none"
    where = f" (column {d['column']}, row {d['row']})" if d.get("column") is not None else ""
    return f"Naval combat results due to {side_name(d['target_side'])}{where}: {results}"


@describes("NavalResultApplied")
def _applied(event, state):
    d = event.data
    roll = f", defence die {d['roll']}" if d.get("roll") is not None else ""
    return (f"{unit_name(state, d['unit'])} suffers {LETTERS.get(d['result'], d['result'])}{roll}: "
            f"{WORDS.get(d['final'], d['final'])}")


@describes("NavalSideAborted")
def _side_aborted(event, state):
    return f"{side_name(event.data['side'])} abort all their units from the combat"


@describes("NavalRoundEnded")
def _round_ended(event, state):
    d = event.data
    return f"Naval combat round {d['round']} ends" + (f": {d['over']}" if d.get("over") else "")


@describes("NavalCombatEnded")
def _combat_ended(event, state):
    d = event.data
    return f"The naval combat in {area_name(d['area'])} is over: {d['reason']}"


# ---------------------------------------------------------------- Naval Combat Abort Queue
@describes("UnitsQueuedForAbort")
def _queued(event, state):
    d = event.data
    return f"Abort queue number {d['number']}: {names(state, d['units'])}"


@describes("AbortGroupMoved")
def _abort_moved(event, state):
    d = event.data
    return f"{power_name(d['power'])} move aborting {names(state, d['units'])} to {_origin(d['to'])}"
