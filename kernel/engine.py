"""Deciding and folding: the command context, the sequence-of-play walker, the fold.

Everything that decides (handlers, automatic steps, loop checks, dice) runs inside a
``Context`` while a command is handled; each decision becomes an event, applied to state
at once so the next decision sees it.  Folding a stored event only calls its reducer.
"""

from __future__ import annotations

import json
import json.scanner
import random
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from . import builtin
from .errors import EventDataError, ReducerError, Rejected, WifError
from .events import EventData, EventRecord, canonical_json, chain_hash, command_link
from .lab import DiceSource, SeededDice, playback_source
from .sequence import StepSpec

if TYPE_CHECKING:
    from .plugins import PluginHost
    from .state import GameState

NO_RULE_YET = "no rule yet"
_ENGINE_EVENTS = {"StepStarted", "StepSkipped", "DigressionStarted", "DigressionEnded", "SequenceFinished", "ActiveSideSet"}


# ---------------------------------------------------------------- the tree, indexed
class SequenceIndex:
    """Full dotted ids -> spec, parent and flow order (``called`` subtrees left out)."""

    def __init__(self, root: StepSpec):
        self.root_id = root.id
        self.specs: dict[str, StepSpec] = {}
        self.parent: dict[str, str | None] = {}
        self.flow_children: dict[str, list[str]] = {}
        for full, spec in root.walk():
            self.specs[full] = spec
            self.flow_children[full] = [f"{full}.{c.id}" for c in spec.children if not c.called]
            for child in spec.children:
                self.parent[f"{full}.{child.id}"] = full
        self.parent[self.root_id] = None

    def resolve(self, step: str) -> str:
        """Accept a full id, or one without the root's id in front."""
        if step in self.specs:
            return step
        full = f"{self.root_id}.{step}"
        if full in self.specs:
            return full
        raise WifError(f"no step {step!r} in sequence {self.root_id!r}")

    def next_sibling(self, step: str) -> str | None:
        parent = self.parent.get(step)
        if parent is None:
            return None
        siblings = self.flow_children[parent]
        if step not in siblings:  # a called subtree has no flow siblings
            return None
        i = siblings.index(step)
        return siblings[i + 1] if i + 1 < len(siblings) else None

    def leaves(self) -> list[str]:
        return [s for s, spec in self.specs.items() if not spec.children]


# ---------------------------------------------------------------- applying events
def upcast(host: "PluginHost", rec: EventRecord) -> EventRecord:
    entry = host.events.get(rec.type)
    if entry is None:
        raise EventDataError(f"event seq {rec.seq}: unknown event type {rec.type!r} (no installed plugin registers it)",
                             rec.seq)
    while rec.version < entry.version:
        fn = host.upcasters.get((rec.type, rec.version))
        if fn is None:
            raise EventDataError(
                f"event seq {rec.seq}: {rec.type} is stored as version {rec.version}, the plugin "
                f"{entry.plugin!r} expects {entry.version} and has no upcaster from {rec.version}",
                rec.seq,
            )
        rec.data = fn(rec.data)
        rec.version += 1
    if rec.version > entry.version:
        raise EventDataError(
            f"event seq {rec.seq}: {rec.type} version {rec.version} is newer than plugin {entry.plugin!r} knows ({entry.version})",
            rec.seq,
        )
    return rec


def apply_event(host: "PluginHost", state: "GameState", rec: EventRecord) -> None:
    entry = host.reducers.get(rec.type)
    if entry is not None:
        fn, plugin = entry
        try:
            fn(state, rec)
        except Exception as exc:
            raise ReducerError(plugin, rec.seq, rec.type, exc) from exc
    elif rec.type not in host.events:
        raise EventDataError(f"event seq {rec.seq}: unknown event type {rec.type!r}", rec.seq)
    state.kernel.seq = rec.seq


def fold_rows(host: "PluginHost", state: "GameState", rows) -> int:
    """Fold raw store rows into ``state``; the replay hot path.  Returns events folded.

    Replay checks nothing a verified open must check (signatures, the chain: kernel/verify.py
    does); it trusts the rows as the store gives them and only folds.  What it still refuses:
    data that is not JSON, an event no plugin knows or of a version with no upcaster, a
    reducer that raises (each named by its seq).  Two costs are cut on purpose:
    - the stored data is canonical JSON (no surrounding spaces), so the C scanner decodes it
      directly, without ``json.loads``'s wrappers (two thirds of its time on small objects);
      anything the scanner does not take whole goes through ``json.loads`` for its verdict;
    - ``kernel.seq`` is written into the model's ``__dict__``: pydantic's ``__setattr__``
      (no validation is configured for it) cost as much as the decoding.
    """
    reducers = host.reducers
    events = host.events
    scan = _scan_json
    n = 0
    for seq, type_, v, actor, turn, impulse, step, cmd, text, hash_ in rows:
        try:
            data, end = scan(text, 0)
            if end != len(text):
                raise ValueError("extra data")
        except (StopIteration, ValueError, TypeError, RecursionError):
            data = _loads_or_name(text, seq)
        rec = EventRecord(seq, type_, v, actor, turn, impulse, step, cmd, data, hash_)
        entry = events.get(type_)
        if entry is None or entry.version != v:
            upcast(host, rec)
        red = reducers.get(type_)
        if red is not None:
            try:
                red[0](state, rec)
            except Exception as exc:
                raise ReducerError(red[1], seq, type_, exc) from exc
        state.kernel.__dict__["seq"] = seq
        n += 1
    return n


_scan_json = json.scanner.make_scanner(json.JSONDecoder())


def _loads_or_name(text, seq: int):
    """The data of an event the fast scanner did not take: ``json.loads`` decides, and an
    error names the seq."""
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError) as exc:
        raise EventDataError(f"table events, seq {seq}: the data is not JSON ({exc})", seq) from None


# ---------------------------------------------------------------- the context
class Context:
    """What a command handler or an automatic step sees while deciding."""

    def __init__(self, game, actor: str = "system", command_digest: bytes | None = None, dry_run: bool = False):
        self.game = game
        self.host: "PluginHost" = game.host
        self.state: "GameState" = game.state
        self.index: SequenceIndex | None = game.sequence_index
        self.actor = actor
        self.records: list[EventRecord] = []
        self.snapshots: list[tuple[int, str]] = []
        self.first_seq = self.state.kernel.seq + 1
        # The command is a link of the chain: its first event chains on (head, command digest),
        # so its events cannot be moved under another command (kernel/events.py).
        self._prev_hash = command_link(game._last_hash, command_digest) if command_digest else game._last_hash
        self.decided_after = game._last_hash  # the head this command is decided on (store.append checks it)
        self.command_digest = command_digest  # which command this is (a PBEM roll record names it, kernel/pbem_dice.py)
        # The only dice of the game, through roll(): the game's source (host key or seed,
        # Game.dice_source); a dry run rolls its own dice, never the real ones (they would
        # show what a real submit will roll).  Replay never gets here.
        self.rng = random.Random(f"dry-run:{self.first_seq}" if dry_run else f"{self.state.kernel.seed}:{self.first_seq}")
        self.dice: DiceSource = SeededDice(self.rng) if dry_run else game.dice_source(self)
        self._in_rule: list[str] = []  # automatic steps whose rule is running now

    # ------------------------------------------------------------ emitting
    def emit(self, data: EventData, actor: str | None = None) -> EventRecord:
        type_ = type(data).__name__
        if actor is None and type_ in _ENGINE_EVENTS:
            actor = "system"
        entry = self.host.events.get(type_)
        if entry is None or entry.model is not type(data):
            raise EventDataError(f"event type {type_} is not registered by any plugin of this game")
        # reduced as it will be stored and replayed: canonical JSON, its dicts in sorted order
        data_json = canonical_json(data.model_dump(mode="json"))
        payload = json.loads(data_json)
        k = self.state.kernel
        rec = EventRecord(k.seq + 1, type_, entry.version, actor or self.actor, 0, 0, "", self.first_seq, payload)
        apply_event(self.host, self.state, rec)
        rec.turn, rec.impulse, rec.step = k.turn, k.impulse, k.step
        rec.hash = chain_hash(self._prev_hash, rec.header_json(), data_json)
        self._prev_hash = rec.hash
        self.records.append(rec)
        if type_ == "StepStarted" and payload.get("snapshot"):
            self.snapshots.append((rec.seq, self.state.to_snapshot_json()))
        return rec

    def roll(self, purpose: str, faces: int = 10, count: int = 1) -> list[int]:
        """Roll ``count`` dice of ``faces`` sides; recorded as one DiceRolled event.

        The seam every die goes through: the ordinary source (``self.dice``), or in a lab
        game whose rig gave a list, that list played back (kernel/lab.py)."""
        source = playback_source(self.state, self.dice) or self.dice
        results = source.draw(purpose, faces, count)
        self.emit(builtin.DiceRolled(purpose=purpose, faces=faces, results=results))
        return results

    def set_active_side(self, side: str | None) -> None:
        self.emit(builtin.ActiveSideSet(side=side), actor="system")

    # ------------------------------------------------------------ deciders
    def decider_for(self, actor: str) -> str:
        """Which entry of the done set ``actor`` answers for (itself, or its side)."""
        seq = self.state.kernel.sequence
        if actor in seq.pending:
            return actor
        side = self.state.kernel.side_of(actor)
        if side in seq.pending:
            return side
        waiting = ", ".join(seq.pending) or "nobody"
        raise Rejected(f"{actor} has nothing to decide in this step (waiting for: {waiting})")

    def finish_decision(self, actor: str) -> None:
        """``actor`` (or its side) has decided everything in the current step: record it, and
        move on when nobody else is pending.  The one home of "decision finished"."""
        seq = self.state.kernel.sequence
        who = self.decider_for(actor)
        self.emit(builtin.DecisionFinished(step=seq.current or "", who=who))
        if not self.state.kernel.sequence.pending:
            self.advance()

    def _deciders(self, step: str, spec: StepSpec) -> list[str] | None:
        k = self.state.kernel
        kind = spec.decides
        sides = list(k.sides)
        active = k.active_side
        inactive = [s for s in sides if s != active]
        if kind == "each-power":
            return k.powers()
        if kind == "each-side":
            return sides
        if kind.startswith("rule:"):
            return self.host.pm.hook.resolve_deciders(state=self.state, step_id=step, spec=spec, kind=kind)
        if active is None:
            # Relative deciders need an active side; a scenario with one side makes it so.
            if len(sides) == 1:
                active, inactive = sides[0], []
            else:
                return None
        if kind == "active-side":
            return [active]
        if kind == "each-active-power":
            return list(k.sides.get(active, []))
        if kind == "inactive-side":
            return inactive
        if kind == "each-inactive-power":
            return [p for s in inactive for p in k.sides.get(s, [])]
        return None

    # ------------------------------------------------------------ walking the tree
    # The walk is a loop, not recursion: a whole game of automatic steps can pass in one
    # command.  Each internal move returns the next move, or None when the walk must wait.
    def _drive(self, move) -> None:
        while move is not None:
            fn, args = move
            move = fn(*args)

    def start(self, at: str | None = None) -> None:
        """Enter the first step of the game's sequence, or the step ``at``.

        Starting inside the tree enters the containers on the way down (so their counters
        and snapshots apply) without running their earlier children."""
        if at is None:
            return self._drive((self._enter, (self.index.root_id,)))
        target = self.index.resolve(at)
        chain = []
        step = self.index.parent.get(target)
        while step is not None:
            chain.append(step)
            step = self.index.parent.get(step)
        for container in reversed(chain):
            self._started(container, self.index.specs[container])
        self._drive((self._enter, (target,)))

    def enter(self, step: str) -> None:
        self._drive((self._enter, (self.index.resolve(step),)))

    def advance(self) -> None:
        """The current step is over: move on."""
        current = self.state.kernel.sequence.current
        if current is None:
            return self.start()
        self._drive(self._leaf_done(current))

    def _leaf_done(self, step: str):
        """Tell the rules a step ended; they may push a digression that runs first."""
        seq = self.state.kernel.sequence
        depth = len(seq.stack)
        spec = self.index.specs[step]
        if not spec.children:
            self.host.pm.hook.step_ended(ctx=self, step_id=step, spec=spec)
        if len(seq.stack) > depth or seq.finished:
            return None
        return (self._advance_from, (step,))

    def advance_from(self, step: str) -> None:
        self._drive((self._advance_from, (step,)))

    def push(self, step: str) -> None:
        """Interrupt the current step with a sub-machine or digression (they nest)."""
        full = self.index.resolve(step)
        seq = self.state.kernel.sequence
        self.emit(builtin.DigressionStarted(step=full, resume=seq.current, waiting=seq.waiting))
        self._drive((self._enter, (full,)))

    def finish_game(self, reason: str) -> None:
        self.emit(builtin.SequenceFinished(reason=reason))

    def _skip(self, step: str, spec: StepSpec, reason: str):
        self.emit(builtin.StepSkipped(step=step, title=spec.title, reason=reason))
        return (self._advance_from, (step,))

    def _started(self, step: str, spec: StepSpec, deciders=(), repeat: int = 0) -> None:
        self.emit(builtin.StepStarted(step=step, title=spec.title, level=spec.level, deciders=list(deciders),
                                      counter=spec.counter, repeat=repeat, snapshot=spec.snapshot))

    def _enter(self, step: str, repeat: int = 0):
        spec = self.index.specs[step]
        reason = self.host.pm.hook.skip_step(state=self.state, step_id=step, spec=spec)
        if reason:
            return self._skip(step, spec, str(reason))
        if spec.children:
            self._started(step, spec, repeat=repeat)
            children = self.index.flow_children[step]
            return (self._enter, (children[0],)) if children else (self._advance_from, (step,))
        if spec.decides == "system":
            rule = self.host.step_rules.get(step)
            if rule is None:
                return self._skip(step, spec, NO_RULE_YET)
            self._started(step, spec)
            depth = len(self.state.kernel.sequence.stack)
            actor, self.actor = self.actor, "system"  # an automatic step is nobody's decision
            self._in_rule.append(step)
            try:
                rule[0](self, step)
            finally:
                self._in_rule.pop()
                self.actor = actor
            if len(self.state.kernel.sequence.stack) > depth or self.state.kernel.sequence.finished:
                return None  # the rule pushed a digression that waits (or ended the game)
            return self._leaf_done(step)
        if not any(c in self.host.commands for c in spec.commands):
            return self._skip(step, spec, NO_RULE_YET)
        deciders = self._deciders(step, spec)
        if not deciders:
            reason = "nobody decides here now" if deciders == [] else f"no rule says who decides ({spec.decides})"
            return self._skip(step, spec, reason)
        self._started(step, spec, deciders=deciders)
        return None  # wait for the done set

    def _advance_from(self, step: str):
        seq = self.state.kernel.sequence
        if seq.stack and seq.stack[-1].step == step:
            return self._end_digression()
        nxt = self.index.next_sibling(step)
        if nxt is not None:
            return (self._enter, (nxt,))
        parent = self.index.parent.get(step)
        if parent is None:
            self.emit(builtin.SequenceFinished(reason="the sequence of play is complete"))
            return None
        spec = self.index.specs[parent]
        # A looping container repeats whether it is in the flow or a pushed sub-machine.
        if spec.repeat and self.host.pm.hook.repeat_step(ctx=self, step_id=parent, spec=spec):
            return (self._enter, (parent, seq.repeats.get(parent, 0) + 1))
        if seq.stack and seq.stack[-1].step == parent:
            return self._end_digression()
        return (self._advance_from, (parent,))

    def _end_digression(self):
        frame = self.state.kernel.sequence.stack[-1]
        self.emit(builtin.DigressionEnded(step=frame.step, resume=frame.resume))
        if frame.waiting or frame.resume is None or frame.resume in self._in_rule:
            return None  # back to a step that waits, or to the rule that pushed it
        return (self._advance_from, (frame.resume,))


def validate_command(host: "PluginHost", raw: dict[str, Any]):
    """Turn a command dict into its model, or raise Rejected with a readable reason."""
    if not isinstance(raw, dict) or "type" not in raw:
        raise Rejected('a command is a JSON object with a "type" (e.g. {"type": "FinishStep", "actor": "red"})')
    type_ = raw["type"]
    if not isinstance(type_, str):
        raise Rejected(f'a command\'s "type" is a name such as "FinishStep", not {type(type_).__name__}')
    entry = host.commands.get(type_)
    if entry is None:
        known = ", ".join(sorted(host.commands))
        raise Rejected(f"unknown command {type_!r}; this game knows: {known}")
    fields = {k: v for k, v in raw.items() if k != "type"}
    try:
        return entry, entry.model.model_validate(fields)
    except RecursionError:
        raise Rejected(f"{type_} is malformed: its fields are nested too deeply") from None
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or type_}: {e['msg']}" for e in exc.errors())
        raise Rejected(f"{type_} is malformed: {problems}") from None
