"""Game state: the kernel's own section plus one section per plugin that registers one.

State is only ever written by reducers.  It serializes to canonical JSON through pydantic
(never pickle) for snapshots, views and comparisons.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from .errors import WifError
from .events import canonical_json


class DigressionFrame(BaseModel):
    """Where to return when a pushed sub-machine or digression ends."""

    step: str  # full id of the pushed subtree
    resume: str | None  # the step that was interrupted
    waiting: bool  # the interrupted step was waiting for decisions: resume waiting
    pending: list[str] = Field(default_factory=list)
    done: list[str] = Field(default_factory=list)


class SequenceState(BaseModel):
    tree: str = ""
    current: str | None = None  # full id of the step the game is at
    waiting: bool = False  # the current step waits for decisions
    pending: list[str] = Field(default_factory=list)  # powers or sides still to decide
    done: list[str] = Field(default_factory=list)
    stack: list[DigressionFrame] = Field(default_factory=list)
    repeats: dict[str, int] = Field(default_factory=dict)
    finished: bool = False


class KernelState(BaseModel):
    scenario: str = ""
    seed: int = 0
    seq: int = 0
    turn: int = 0
    impulse: int = 0
    step: str = ""
    sides: dict[str, list[str]] = Field(default_factory=dict)  # side -> powers
    controllers: dict[str, str] = Field(default_factory=dict)  # power -> player
    active_side: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    sequence: SequenceState = Field(default_factory=SequenceState)
    dice_rolled: int = 0
    last_roll: dict[str, Any] | None = None
    lab: bool = False  # a lab game (GameStarted.lab): the rig may build any situation (kernel/lab.py)
    dice_playback: list[int] | None = None  # lab: the dice results still to be played back (RigDice)
    dice_then_ordinary: bool = False  # lab: when they are used up, the ordinary dice follow

    def side_of(self, power: str) -> str | None:
        for side, powers in self.sides.items():
            if power in powers:
                return side
        return None

    def powers(self) -> list[str]:
        return [p for powers in self.sides.values() for p in powers]

    def acting_power(self) -> str | None:
        """The power that answers for the first decider still pending (a side answers
        through its first power), or None when nobody is to decide."""
        for who in self.sequence.pending:
            if who in self.sides:
                return self.sides[who][0] if self.sides[who] else None
            return who
        return None


class GameState:
    """The whole state of one game: ``state.kernel`` and ``state[section]``."""

    __slots__ = ("kernel", "sections")

    def __init__(self, kernel: KernelState, sections: dict[str, BaseModel]):
        self.kernel = kernel
        self.sections = sections

    @classmethod
    def empty(cls, section_models: dict[str, type[BaseModel]]) -> "GameState":
        return cls(KernelState(), {name: model() for name, model in section_models.items()})

    def __getitem__(self, name: str) -> Any:
        return self.sections[name]

    def to_dict(self) -> dict:
        return {
            "kernel": self.kernel.model_dump(mode="json"),
            "sections": {name: section.model_dump(mode="json") for name, section in self.sections.items()},
        }

    def to_json(self) -> str:
        """The canonical form (sorted keys): for comparing two states."""
        return canonical_json(self.to_dict())

    def to_snapshot_json(self) -> str:
        """The state as a snapshot or a copy keeps it: every dict in its present order, which
        ``from_json`` gives back as it was.  With event data reduced in its stored (sorted)
        order (engine.Context.emit), a live game, a reopened one, a full replay and a dry run
        hold their dicts in the same order, so a rule that walks a dict decides the same in
        each (before, a snapshot's sorted keys could change what such a rule chose)."""
        # pydantic writes each model's JSON itself: the same text as json.dumps(self.to_dict(),
        # separators=(",", ":"), ensure_ascii=False) in a third of the time (a snapshot is taken
        # at every impulse's start; test_state_snapshot_text.py holds the two equal)
        sections = ",".join(f"{json.dumps(name, ensure_ascii=False)}:{section.model_dump_json()}"
                            for name, section in self.sections.items())
        return f'{{"kernel":{self.kernel.model_dump_json()},"sections":{{{sections}}}}}'

    @classmethod
    def from_json(cls, text: str | bytes, section_models: dict[str, type[BaseModel]]) -> "GameState":
        """A state from its JSON (a snapshot); SnapshotError names what is wrong with it."""
        try:
            raw = json.loads(text)
        except (TypeError, ValueError, RecursionError) as exc:
            raise SnapshotError(f"not JSON ({exc})") from None
        if not isinstance(raw, dict) or not isinstance(raw.get("kernel"), dict) \
                or not isinstance(raw.get("sections", {}), dict):
            raise SnapshotError('not a game state (an object with "kernel" and "sections")')
        sections = {}
        stored = raw.get("sections", {})
        try:
            for name, model in section_models.items():
                # A section a newer plugin added starts from its defaults.
                sections[name] = model.model_validate(stored[name]) if name in stored else model()
            name = "kernel"
            return cls(KernelState.model_validate(raw["kernel"]), sections)
        except ValidationError as exc:
            raise SnapshotError(f"section {name!r} does not match its model ({exc.errors()[0]['msg']})") from None


class SnapshotError(WifError):
    """A stored snapshot cannot be read back as a state."""


# ---------------------------------------------------------------- who writes what
KERNEL_SECTION = "kernel"  # state.kernel, written only by the kernel's own reducers


class SectionWriteError(WifError):
    """A reducer wrote a section of the state its plugin does not own."""


class _GuardedSections(Mapping):
    """``state.sections`` as a guarded reducer sees it."""

    def __init__(self, guarded: "_GuardedState"):
        self._guarded = guarded

    def __getitem__(self, name: str):
        return self._guarded[name]

    def __iter__(self):
        return iter(self._guarded._real.sections)

    def __len__(self) -> int:
        return len(self._guarded._real.sections)

    def __setitem__(self, name: str, value) -> None:
        self._guarded._replace(name, value)


class _GuardedState(GameState):
    """The state a guarded reducer gets: its own sections are the real ones; any other
    section it touches is a deep copy made on first access, compared with the real one after
    the reducer (``written``).  Reading costs a copy only of what is read; writing another
    plugin's section changes nothing of the game and is reported."""

    __slots__ = ("_real", "_owned", "_copies")

    def __init__(self, real: GameState, owned: set[str]):
        self._real, self._owned, self._copies = real, owned, {}

    @property
    def kernel(self) -> KernelState:
        return self[KERNEL_SECTION]

    @kernel.setter
    def kernel(self, value) -> None:
        self._replace(KERNEL_SECTION, value)

    @property
    def sections(self) -> Mapping:
        return _GuardedSections(self)

    def _real_section(self, name: str):
        return self._real.kernel if name == KERNEL_SECTION else self._real.sections[name]

    def __getitem__(self, name: str):
        real = self._real_section(name)
        if name in self._owned:
            return real
        copy = self._copies.get(name)
        if copy is None:
            copy = self._copies[name] = real.model_copy(deep=True)
        return copy

    def _replace(self, name: str, value) -> None:
        if name not in self._owned:
            self._copies[name] = value  # reported by written()
        elif name == KERNEL_SECTION:
            self._real.kernel = value
        else:
            self._real.sections[name] = value

    def to_dict(self) -> dict:
        return self._real.to_dict()

    def written(self) -> list[str]:
        return [name for name, copy in self._copies.items() if copy != self._real_section(name)]


def guard_sections(fn, plugin: str, owners: dict[str, str]):
    """``fn``, a reducer of ``plugin``, checked at fold: it may write only the sections its
    plugin registered (the kernel's section is the kernel's).  ``owners`` maps each section
    (``"kernel"`` included) to its plugin.  Any other section the reducer reads is a copy,
    compared with the real one afterwards (kernel/state.py _GuardedState), so the check costs
    a copy of what a reducer reads of other plugins' sections: the hot-reloaded plugin's
    reducers are guarded (kernel/hotreload.py), or every plugin's with WIF_CHECK_SECTIONS=1."""
    owned = {name for name, owner in owners.items() if owner == plugin}

    def reducer(state, event):
        guarded = _GuardedState(state, owned)
        fn(guarded, event)
        wrote = guarded.written()
        if wrote:
            whose = ", ".join(f"{name!r} (of {owners[name]!r})" for name in wrote)
            raise SectionWriteError(f"plugin {plugin!r}: the reducer for {event.type} wrote section {whose}; "
                                    f"a reducer writes only its own plugin's sections")

    reducer.__wrapped__ = fn
    return reducer
