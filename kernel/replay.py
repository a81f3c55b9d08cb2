"""Replay: walk a game's history event by event, with bookmarks, without changing it.

A ``Replay`` holds a position (the seq of the last event applied) and the state there.
Stepping forward folds one event; stepping back or jumping rebuilds from the nearest
snapshot (``Game.state_at``), so memory stays flat however long the game.  Bookmarks are
derived from the events that start steps: every ``StepStarted`` is a step bookmark, and
its level and the game clock tell phase, impulse and turn starts.
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass

from .engine import apply_event, upcast
from .errors import EventDataError, ReducerError, WifError
from .events import EventRecord
from .game import Game
from .state import GameState

BOOKMARK_KINDS = ("step", "phase", "impulse", "turn")


@dataclass(frozen=True)
class Bookmark:
    seq: int  # the first event of the step/phase/impulse/turn
    kind: str
    step: str
    title: str
    turn: int
    impulse: int


class Replay:
    """A read-only cursor over a game's events."""

    def __init__(self, game: Game):
        self.game = game
        self.last = game.store.last()[0]
        self.position = self.last
        self.state: GameState = game.state
        self.skipped: list[int] = []  # events that could not be shown (plugin missing)
        self._ahead = None
        self._ahead_from = 0
        self.bookmarks: dict[str, list[Bookmark]] = {kind: [] for kind in BOOKMARK_KINDS}
        self._index_bookmarks()

    # ------------------------------------------------------------ bookmarks
    def _index_bookmarks(self) -> None:
        rows = self.game.store.conn.execute(
            "SELECT seq, turn, impulse, step, data FROM events WHERE type = 'StepStarted' ORDER BY seq"
        )
        for seq, t, i, step, data in rows:
            try:
                d = json.loads(data)
            except (TypeError, ValueError, RecursionError):
                continue  # no bookmark there; stepping onto that event names it (EventDataError)
            level = d.get("level", "step")
            title = d.get("title") or step
            self.bookmarks["step"].append(Bookmark(seq, "step", step, title, t, i))
            if level in ("phase", "stage"):
                self.bookmarks["phase"].append(Bookmark(seq, "phase", step, title, t, i))
            if d.get("counter") in ("impulse", "turn"):
                self.bookmarks[d["counter"]].append(Bookmark(seq, d["counter"], step, title, t, i))

    def next_bookmark(self, kind: str) -> Bookmark | None:
        marks = self.bookmarks[kind]
        i = bisect.bisect_right([m.seq for m in marks], self.position)
        return marks[i] if i < len(marks) else None

    def previous_bookmark(self, kind: str) -> Bookmark | None:
        marks = self.bookmarks[kind]
        i = bisect.bisect_left([m.seq for m in marks], self.position)
        return marks[i - 1] if i > 0 else None

    def jump_bookmark(self, kind: str, forward: bool = True) -> Bookmark | None:
        mark = self.next_bookmark(kind) if forward else self.previous_bookmark(kind)
        if mark is not None:
            self.seek(mark.seq)
        return mark

    def turn_start(self, turn: int) -> int | None:
        for mark in self.bookmarks["turn"]:
            if mark.turn == turn:
                return mark.seq
        return None

    # ------------------------------------------------------------ moving
    def seek(self, seq: int) -> GameState:
        """Put the cursor after event ``seq`` (0 = before the first event)."""
        if not 0 <= seq <= self.last:
            raise WifError(f"no event {seq} in this game (it has events 1..{self.last})")
        if seq == self.position + 1:
            return self.forward()
        self.state = self._state_at(seq)
        self.position = seq
        return self.state

    def forward(self, count: int = 1) -> GameState:
        # One open cursor serves consecutive steps, so playing through costs one query.
        if self._ahead is None or self._ahead_from != self.position + 1:
            self._ahead = self._records(self.position + 1)
        for _ in range(min(count, self.last - self.position)):
            rec = next(self._ahead)
            self._apply(rec)
            self.position = rec.seq
        self._ahead_from = self.position + 1
        return self.state

    def back(self, count: int = 1) -> GameState:
        return self.seek(max(0, self.position - count))

    def event(self, seq: int | None = None) -> EventRecord | None:
        seq = self.position if seq is None else seq
        for rec in self._records(seq, seq):
            try:
                return upcast(self.game.host, rec)
            except EventDataError:
                return rec
        return None

    def _state_at(self, seq: int) -> GameState:
        try:
            return self.game.state_at(seq)
        except (EventDataError, ReducerError):
            # a plugin is missing or broken: fold what can be shown, event by event
            state = GameState.empty(self.game.host.state_models)
            for rec in self._records(1, seq):
                self._apply(rec, state)
            return state

    def _records(self, from_seq: int, to_seq: int | None = None):
        """The stored events; one whose data is not JSON comes as an event of no known type
        with empty data (shown as not shown, counted in ``skipped``), not as an error that
        would end the replay."""
        for seq, type_, v, actor, turn, impulse, step, cmd, data, hash_ in self.game.store.rows(from_seq, to_seq):
            try:
                data = json.loads(data)
            except (TypeError, ValueError, RecursionError):
                type_, data = f"{type_} (data not JSON)", {}
            yield EventRecord(seq, type_, v, actor, turn, impulse, step, cmd, data, hash_)

    def _apply(self, rec: EventRecord, state: GameState | None = None) -> None:
        state = state if state is not None else self.state
        try:
            upcast(self.game.host, rec)
            apply_event(self.game.host, state, rec)
        except (EventDataError, ReducerError):
            if rec.seq not in self.skipped:
                self.skipped.append(rec.seq)
            state.kernel.seq = rec.seq

    # ------------------------------------------------------------ words
    def describe(self, rec: EventRecord, state_before: GameState | None = None) -> str:
        if rec.type not in self.game.host.events:
            return f"{rec.type} (not shown: no installed plugin knows this event)"
        return self.game.describe(rec, state_before or self.state)

    def touched_hexes(self, rec: EventRecord, state_before: GameState | None = None) -> list[tuple[int, int]]:
        hexes: list[tuple[int, int]] = []
        for found in self.game.host.pm.hook.event_hexes(event=rec, state=state_before or self.state):
            for h in found or []:
                hexes.append((int(h[0]), int(h[1])))
        return hexes


def open_replay(path, plugin_dirs=None) -> Replay:
    """Open any save for replay: read-only, tolerant of missing or changed plugins."""
    game = Game.open(path, read_only=True, plugin_dirs=plugin_dirs)
    return Replay(game)
