"""Naval Interception's events (seeds "Naval Interception", Ships in Flames 3.3: a moving group
stops in each sea area it enters while the other side may try to intercept it) and their
reducers, the only writers of ``state["naval"].moving``."""

from __future__ import annotations

from kernel.events import EventData

from .state import PendingMove, naval, rules


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


# ---------------------------------------------------------------- reducers
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


# The three below record a step of the interception of the move under way; a lab game's
# RigEvent may record one with no move under way (kernel/lab.py), which then changes nothing.
@rules.reducer("InterceptionDeclined")
def _declined_interception(state, event):
    if naval(state).moving is not None:
        naval(state).moving.declined = True


@rules.reducer("InterceptionSearched")
def _searched_interception(state, event):
    m = naval(state).moving
    if m is not None:
        m.roll, m.success = event.data["roll"], event.data["success"]


@rules.reducer("InterceptStopOrFight")
def _stop_or_fight(state, event):
    if naval(state).moving is not None:
        naval(state).moving.choice = "fight" if event.data["fight"] else "stop"


@rules.reducer("NavalMoveFinished")
def _move_finished(state, event):
    naval(state).moving = None
