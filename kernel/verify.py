"""Checking a save: hash chain, seq order, event data, plugin set, snapshots."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from .devsaves import changes_played_before
from .engine import upcast
from .errors import EventDataError, PluginError, ReducerError, WifError
from .events import GENESIS_HASH, EventRecord, chain_hash
from .game import Game, _compare_plugin_sets
from .plugins import discover
from .state import GameState
from .store import EventStore


@dataclass
class VerifyReport:
    path: Path
    events: int = 0
    snapshots_checked: int = 0
    problems: list[str] = field(default_factory=list)
    first_bad_seq: int | None = None
    lab: bool = False  # a lab game (its first event says so): situations built by the rig

    @property
    def ok(self) -> bool:
        return not self.problems

    def bad(self, seq: int | None, message: str) -> None:
        if seq is not None and self.first_bad_seq is None:
            self.first_bad_seq = seq
        self.problems.append(message)


def verify(path: str | Path, plugin_dirs: list[Path] | None = None) -> VerifyReport:
    path = Path(path)
    report = VerifyReport(path)
    store = EventStore.open(path, writable=False)
    try:
        # 1. The chain: every seq in order, every hash recomputed from the stored columns.
        prev = GENESIS_HASH
        expected = 1
        for seq, type_, v, actor, turn, impulse, step, cmd, data, hash_ in store.rows():
            if seq != expected:
                report.bad(expected, f"seq {expected}: missing (next stored event is seq {seq})")
                break
            rec = EventRecord(seq, type_, v, actor, turn, impulse, step, cmd, None)
            if chain_hash(prev, rec.header_json(), data) != hash_:
                report.bad(seq, f"seq {seq}: hash chain broken: the {type_} event was changed after it was written")
                break
            prev = hash_
            if seq == 1 and type_ == "GameStarted":
                report.lab = bool(json.loads(data).get("lab"))
            expected += 1
        report.events = expected - 1
        # 2. The plugin set the game recorded against what is installed.
        # (a hot-reloaded edit since undone is a version the game was played under: devsaves.py)
        recorded, available = store.meta("plugins") or {}, discover(plugin_dirs).plugins
        reverted = changes_played_before(recorded, available, store.meta("plugin_history") or [])
        problems = _compare_plugin_sets({k: v for k, v in recorded.items() if k not in reverted}, available)
        for p in problems:
            report.bad(None, f"plugins: {p}")
    finally:
        store.close()
    if report.problems:
        return report
    # 3. Every event's data against its model, and every snapshot against a fresh fold.
    try:
        game = Game.open(path, read_only=True, plugin_dirs=plugin_dirs)
    except (WifError, PluginError) as exc:
        report.bad(None, str(exc))
        return report
    try:
        host = game.host
        snaps = {seq: js for seq, h, js in game.store.snapshots() if h == game.plugins_hash}
        state = GameState.empty(host.state_models)
        from .engine import apply_event

        for rec in game.store.records():
            try:
                upcast(host, rec)
                host.events[rec.type].model.model_validate(rec.data)
                apply_event(host, state, rec)
            except ValidationError as exc:
                report.bad(rec.seq, f"seq {rec.seq}: {rec.type} data does not match its model: {exc.errors()[0]['msg']}")
                break
            except (EventDataError, ReducerError) as exc:
                report.bad(rec.seq, str(exc))
                break
            if rec.seq in snaps:
                report.snapshots_checked += 1
                if GameState.from_json(snaps[rec.seq], host.state_models).to_json() != state.to_json():
                    report.bad(rec.seq, f"snapshot at seq {rec.seq} differs from the state the events give")
                    break
    finally:
        game.close()
    return report
