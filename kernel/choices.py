"""Decisions: what a decider may submit now, field by field.

``Game.choices(player)`` answers "what may this player do now" for every front end (the
window, the CLI, bots, tests).  A plugin answers for each of its command types with a
*choices function* registered through ``register_choices`` (or ``register_commands(...,
choices=fn)``): ``fn(state, actor, step_id)`` returns ``None`` when the command is not legal
for ``actor`` now, or the list of ``Field``s the command needs, each with its legal values.

A field's options may depend on an earlier field's value (a move's destinations on the unit
moved): such fields hang under the option they depend on (``Option.then``).  Options and
``then`` may be given as a callable so that deep trees (every unit's every destination) are
built only when somebody looks.

The contract, held by a property test: a command built from any offered path through the
tree is accepted when submitted.  A field of kind ``units`` offers a subset: any choice of
``min``..``max`` distinct options is accepted.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Literal

Kind = Literal["unit", "units", "hex", "option", "bool", "number", "text"]
MAX_ENUMERATED = 20000  # a front end that wants every full command stops after this many


@dataclass
class Option:
    """One legal value of a field, with what a player reads and the fields that follow it."""

    value: Any
    label: str = ""
    then: list["Field"] | Callable[[], list["Field"]] = field(default_factory=list)

    def next_fields(self) -> list["Field"]:
        if callable(self.then):
            self.then = list(self.then())
        return self.then

    def as_dict(self, depth: int = 8) -> dict:
        out: dict[str, Any] = {"value": _jsonable(self.value)}
        if self.label:
            out["label"] = self.label
        if depth > 0:
            nxt = [f.as_dict(depth - 1) for f in self.next_fields()]
            if nxt:
                out["then"] = nxt
        return out


@dataclass
class Field:
    """One field of a command and its legal values.

    kind ``unit``/``hex``/``option``/``bool``: one of ``options``; ``units``: a subset of
    ``options`` of ``min``..``max`` members (``max`` None: all of them); ``number``: an
    integer in ``min``..``max``."""

    name: str
    kind: Kind
    options: list[Option] | Callable[[], list[Option]] = field(default_factory=list)
    min: int | None = None
    max: int | None = None
    label: str = ""

    def all_options(self) -> list[Option]:
        if callable(self.options):
            self.options = [o if isinstance(o, Option) else Option(o) for o in self.options()]
        return self.options

    def is_empty(self) -> bool:
        if self.kind == "number":
            return self.min is not None and self.max is not None and self.min > self.max
        if self.kind == "text":
            return False
        if self.kind == "units":
            return len(self.all_options()) < (self.min or 0)
        return not self.all_options()

    def values(self) -> list[Any]:
        return [o.value for o in self.all_options()]

    def as_dict(self, depth: int = 8) -> dict:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.label:
            out["label"] = self.label
        if self.kind in ("number", "units"):
            out["min"], out["max"] = self.min, self.max
        if self.kind not in ("number", "text"):
            out["options"] = [o.as_dict(depth) for o in self.all_options()]
        return out


def one_of(name: str, kind: Kind, values: Iterable[Any], label: Callable[[Any], str] | None = None,
           then: Callable[[Any], list[Field]] | None = None) -> Field:
    """A field whose options are ``values``; ``then(value)`` gives the fields that follow each."""
    def build() -> list[Option]:
        return [Option(v, label(v) if label else "", (lambda v=v: then(v)) if then else []) for v in values]
    return Field(name, kind, build)


def yes_no(name: str, label: str = "") -> Field:
    return Field(name, "bool", [Option(True, "yes"), Option(False, "no")], label=label)


@dataclass
class CommandChoice:
    """One command type the decider may submit now, and how to fill it in."""

    type: str
    actor: str
    fields: list[Field] = field(default_factory=list)
    source: Literal["rules", "schema"] = "rules"  # "schema": no choices function, fields unchecked
    plugin: str = ""

    def as_dict(self, depth: int = 8) -> dict:
        return {"type": self.type, "actor": self.actor, "source": self.source,
                "fields": [f.as_dict(depth) for f in self.fields]}

    def base(self) -> dict:
        return {"type": self.type, "actor": self.actor}

    def sample(self, rng: random.Random, pick: Callable[[Field, list[Option]], Any] | None = None) -> dict | None:
        """A command built by choosing among the offered values at random (or by ``pick``)."""
        cmd = self.base()
        return cmd if _fill(cmd, self.fields, rng, pick) else None

    def commands(self, limit: int = MAX_ENUMERATED) -> list[dict]:
        """Every full command (subsets of ``units`` fields: all of them offered, and each single
        one), up to ``limit``."""
        out: list[dict] = []
        _enumerate(self.base(), list(self.fields), out, limit)
        return out


def _fill(cmd: dict, fields: list[Field], rng: random.Random, pick) -> bool:
    """Fill ``fields`` into ``cmd``; False when every option of some field leads nowhere (a
    lazily built branch turned out empty), so the caller tries another option."""
    for f in fields:
        if f.kind == "text":
            continue
        if f.kind == "number":
            lo, hi = f.min or 0, f.max if f.max is not None else (f.min or 0)
            if lo > hi:
                return False
            cmd[f.name] = pick(f, []) if pick else rng.randint(lo, hi)
            continue
        options = f.all_options()
        if f.kind == "units":
            chosen = pick(f, options) if pick else None
            if chosen is None:
                hi = len(options) if f.max is None else min(f.max, len(options))
                lo = f.min or 0
                if lo > hi:
                    return False
                chosen = [o.value for o in rng.sample(options, rng.randint(lo, hi))]
            cmd[f.name] = [_jsonable(v) for v in chosen]
            continue
        left = list(options)
        while True:
            if not left:
                return False
            option = pick(f, left) if pick else None
            if option is None:
                option = rng.choice(left)
            trial = dict(cmd)
            trial[f.name] = _jsonable(option.value)
            if _fill(trial, option.next_fields(), rng, pick):
                cmd.clear()
                cmd.update(trial)
                break
            left.remove(option)
    return True


def _enumerate(cmd: dict, fields: list[Field], out: list[dict], limit: int) -> None:
    if len(out) >= limit:
        return
    if not fields:
        out.append(dict(cmd))
        return
    f, rest = fields[0], fields[1:]
    if f.kind == "text":
        return _enumerate(cmd, rest, out, limit)
    if f.kind == "number":
        lo, hi = f.min or 0, f.max if f.max is not None else (f.min or 0)
        for n in range(lo, hi + 1):
            _enumerate({**cmd, f.name: n}, rest, out, limit)
        return
    if f.kind == "units":
        options = f.all_options()
        values = [o.value for o in options]
        hi = len(values) if f.max is None else min(f.max, len(values))
        subsets = [values[:hi]] if hi >= (f.min or 0) else []
        if (f.min or 0) <= 1 <= hi:
            subsets += [[v] for v in values if [v] != values[:hi]]
        if (f.min or 0) == 0 and [] not in subsets:
            subsets.append([])
        for s in subsets:
            _enumerate({**cmd, f.name: list(s)}, rest, out, limit)
        return
    for o in f.all_options():
        _enumerate({**cmd, f.name: _jsonable(o.value)}, o.next_fields() + rest, out, limit)


@dataclass
class Decision:
    """A decider the game waits for (a power or a side), and what it may submit."""

    decider: str
    step: str
    title: str
    commands: list[CommandChoice] = field(default_factory=list)
    pending: bool = True  # False: commands allowed at any time, the game does not wait for them

    def as_dict(self, depth: int = 8) -> dict:
        return {"decider": self.decider, "step": self.step, "title": self.title, "pending": self.pending,
                "commands": [c.as_dict(depth) for c in self.commands]}

    def find(self, type_: str) -> list[CommandChoice]:
        return [c for c in self.commands if c.type == type_]


@dataclass
class Choices:
    """Everything ``player`` may decide now (empty when the game waits for somebody else)."""

    player: str | None
    decisions: list[Decision] = field(default_factory=list)
    schema_only: list[str] = field(default_factory=list)  # command types with no choices function
    finished: bool = False
    waiting: str = ""  # what the game waits for outside the rules (a PBEM roll's nonce, kernel/pbem_dice.py)

    def as_dict(self, depth: int = 8) -> dict:
        return {"player": self.player, "finished": self.finished, "schema_only": self.schema_only,
                "decisions": [d.as_dict(depth) for d in self.decisions],
                **({"waiting": self.waiting} if self.waiting else {})}

    def commands(self) -> list[CommandChoice]:
        return [c for d in self.decisions for c in d.commands]

    def types(self) -> list[str]:
        return sorted({c.type for c in self.commands()})


def prune(fields: list[Field]) -> list[Field] | None:
    """The fields with every option that leads nowhere removed; None if a field is left empty.

    Branches still given as callables are left alone (building them is what laziness avoids);
    ``CommandChoice.sample`` steps back from one that turns out empty."""
    out = []
    for f in fields:
        if f.kind in ("unit", "hex", "option", "bool") and not callable(f.options):
            kept = []
            for o in f.options:
                if isinstance(o.then, list) and o.then:
                    pruned = prune(o.then)
                    if pruned is None:
                        continue
                    o.then = pruned
                kept.append(o)
            f.options = kept
        if f.is_empty():
            return None
        out.append(f)
    return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    return value


def schema_fields(model) -> list[Field]:
    """Fields read from a command model's schema, for a command with no choices function:
    their kinds are a guess and their values unchecked."""
    out = []
    for name, info in model.model_fields.items():
        if name == "actor":
            continue
        ann = str(info.annotation)
        kind: Kind = "bool" if "bool" in ann else "number" if ann in ("<class 'int'>", "int") else "text"
        f = Field(name, kind, [Option(True), Option(False)] if kind == "bool" else [])
        out.append(f)
    return out
