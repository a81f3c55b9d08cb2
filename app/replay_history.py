"""The replay viewer's history panel: which events it lists (filters by power and kind, read
once per filter), their words (described once each, from a scratch state of the viewer's own)
and scrolling.  A mixin of ``ReplayWindow`` (app/replay_view.py)."""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

import pygame_gui
from pygame_gui.elements import UIDropDownMenu

from kernel.engine import upcast
from kernel.errors import EventDataError
from kernel.events import EventRecord

from .replay_text import printable
from .wording import in_words, moves_told_twice

ALL_KINDS = "all kinds"  # the kind drop-down's first entry: no filter
ROW_H = 18
# Row texts are kept per seq; bounded so memory stays flat while playing through a long game.
DESCRIPTION_CACHE_SIZE = 5000
# Folding this many events onto the scratch state is cheaper than reading a snapshot.
FOLD_GAP = 200
COMMAND_MARGIN = 40  # events read either side of the rows shown: the rest of their commands' events
FILTERS_KEPT = 8  # the seqs of the last filters chosen, so switching back costs no scan


@dataclass
class HistoryRow:
    seq: int
    when: str
    text: str
    dice: list[int]
    skipped: bool


class ReplayHistory:
    def _filter_choices(self) -> tuple[list[str], list[str]]:
        conn = self.game.store.conn
        actors = {a for (a,) in conn.execute("SELECT DISTINCT actor FROM events")}
        kernel = self.replay.state.kernel
        powers = [p for p in kernel.powers() if p in actors or kernel.side_of(p) in actors]
        powers += sorted(a for a in actors if a not in powers and a not in kernel.sides)
        kinds = sorted(t for (t,) in conn.execute("SELECT DISTINCT type FROM events"))
        return powers, kinds

    def _kind_menu(self) -> UIDropDownMenu:
        """The kind filter: a pygame_gui drop-down over the history's filter bar."""
        gui = self.window.gui
        rect = dict(self.filter_buttons())["kind"]
        menu = UIDropDownMenu([ALL_KINDS] + self.kinds, ALL_KINDS, rect, gui.manager,
                              expansion_height_limit=max(80, self.history_rect.bottom - rect.bottom - 4))
        gui.on(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, menu, self.set_kind_filter)
        return menu

    def set_kind_filter(self, kind: str | None) -> None:
        """The kind drop-down's choice (None or "all kinds": every kind)."""
        self.filter_kind = None if kind in (None, ALL_KINDS) else kind
        self.history_top = None
        self._rows_cache = None

    def toggle_kind_menu(self) -> None:
        state = self.kind_menu.current_state
        state.target_state = "expanded" if state is self.kind_menu.menu_states["closed"] else "closed"
        state.should_transition = True

    def cycle_filter(self, which: str, step: int = 1) -> None:
        choices = [None] + (self.powers if which == "power" else self.kinds)
        current = self.filter_power if which == "power" else self.filter_kind
        chosen = choices[(choices.index(current) + step) % len(choices)]
        if which == "power":
            self.filter_power = chosen
        else:
            self.filter_kind = chosen
        self.history_top = None
        self._rows_cache = None

    def _where(self) -> tuple[str, list]:
        clauses, params = [], []
        if self.filter_power:
            who = [self.filter_power]
            side = self.replay.state.kernel.side_of(self.filter_power)
            if side:
                who.append(side)
            clauses.append(f"actor IN ({', '.join('?' * len(who))})")
            params += who
        if self.filter_kind:
            clauses.append("type = ?")
            params.append(self.filter_kind)
        return "".join(f" AND {c}" for c in clauses), params

    def _listed(self):
        """The seqs the history lists, ascending: every event (seqs have no gaps), or those
        the filter lets through, read once per filter (a rare kind would otherwise make every
        step scan the whole table)."""
        where, params = self._where()
        if not where:
            return range(1, self.replay.last + 1)
        key = (where, tuple(params))
        found = self._filtered.get(key)
        if found is None:
            rows = self.game.store.conn.execute(f"SELECT seq FROM events WHERE 1{where} ORDER BY seq", params)
            found = self._filtered[key] = array("q", (s for (s,) in rows))
            if len(self._filtered) > FILTERS_KEPT:
                del self._filtered[next(iter(self._filtered))]
        return found

    def _seqs(self, op: str, seq: int, order: str, limit: int) -> list[int]:
        listed = self._listed()
        if order == "ASC":
            i = bisect_left(listed, seq) if op == ">=" else bisect_right(listed, seq)
            return list(listed[i:i + limit])
        j = bisect_right(listed, seq) if op == "<=" else bisect_left(listed, seq)
        return list(listed[max(0, j - limit):j])[::-1]

    def visible_count(self) -> int:
        return max(1, self.history_list_rect().h // ROW_H)

    def history_seqs(self) -> list[int]:
        """The seqs the panel lists: around the cursor, or from ``history_top`` when scrolled."""
        n = self.visible_count()
        if self.history_top is not None:
            return self._seqs(">=", self.history_top, "ASC", n)
        before = list(reversed(self._seqs("<=", self.position, "DESC", max(1, n // 2))))
        after = self._seqs(">", self.position, "ASC", n - len(before))
        if len(after) < n - len(before):  # near the end: show more of the past
            before = list(reversed(self._seqs("<=", self.position, "DESC", n - len(after))))
        return before + after

    def history_rows(self) -> list[HistoryRow]:
        key = (self.position, self.filter_power, self.filter_kind, self.history_top, self.visible_count())
        if self._rows_cache is not None and self._rows_cache[0] == key:
            return self._rows_cache[1]
        rows = []
        seqs = self.history_seqs()
        told_twice = self._moves_told_twice(seqs) if self.filter_kind != "UnitMoved" else set()
        for seq in seqs:
            described = self.described(seq) if seq not in told_twice else None
            if described is None:
                continue
            rec, text = described
            when = f"T{rec.turn}.{rec.impulse}" if rec.turn else "setup"
            dice = list(rec.data.get("results") or []) if rec.type == "DiceRolled" else []
            rows.append(HistoryRow(seq, when, text, dice, seq in self.replay.skipped))
        self._rows_cache = (key, rows)
        return rows

    def _moves_told_twice(self, seqs: list[int]) -> set[int]:
        """The kernel's "moves to" rows the rules' own line of the same command tells (the Play
        form's log tells a move once, so does the history): the commands' events round the rows."""
        if not seqs:
            return set()
        return moves_told_twice(self.game.store.records(max(1, min(seqs) - COMMAND_MARGIN), max(seqs) + COMMAND_MARGIN))

    def described(self, seq: int) -> tuple[EventRecord, str] | None:
        """Event ``seq`` and its words, with names as they were just before it happened.

        Each seq is described once: from a scratch state of the viewer's own (the cursor's
        state is never touched) folded forward through the rows in order, so the row that
        scrolls in while stepping costs one event's fold; a row far behind or ahead of the
        scratch state starts again from the nearest snapshot (unless that snapshot is further
        back than the scratch state)."""
        found = self._described.get(seq)
        if found is not None:
            self._described.move_to_end(seq)
            return found
        replay = self.replay
        gap = seq - 1 - self._scratch_at
        if self._scratch is None or gap < 0 or (gap > FOLD_GAP and gap > seq - 1 - self._snapshot_before(seq - 1)):
            self._scratch = replay._state_at(seq - 1)
            self._scratch_at = seq - 1
        for rec in self.game.store.records(self._scratch_at + 1, seq):
            if rec.seq == seq:
                try:
                    upcast(self.game.host, rec)
                except EventDataError:
                    pass  # describe says it cannot be shown
                try:
                    text = replay.describe(rec, self._scratch)
                except Exception as exc:  # a changed plugin may not understand an old event
                    text = f"{rec.type} (cannot be described: {exc})"
                found = self._described[seq] = (rec, printable(in_words(self.game, text)))
            replay._apply(rec, self._scratch)
            self._scratch_at = rec.seq
        while len(self._described) > DESCRIPTION_CACHE_SIZE:
            self._described.popitem(last=False)
        return found

    def _snapshot_before(self, seq: int) -> int:
        """The seq of the snapshot ``state_at(seq)`` would start from (0: the start)."""
        row = self.game.store.conn.execute("SELECT max(seq) FROM snapshots WHERE seq <= ? AND plugins_hash = ?",
                                           (seq, self.game.plugins_hash)).fetchone()
        return row[0] or 0

    def scroll_history(self, rows: int) -> None:
        seqs = self.history_seqs()
        if not seqs:
            return
        top = seqs[0]
        if rows > 0:
            found = self._seqs(">", top, "ASC", rows)
            self.history_top = found[-1] if found else top
        else:
            found = self._seqs("<", top, "DESC", -rows)
            self.history_top = found[-1] if found else top
