"""Answers worked out once a position: a rules function whose answer depends on the state alone
(a choices function asks the same of every unit it offers) keeps it until the state moves on.

A position is a state object at an event seq: every change of state is an event, so a new seq
is a new position; a dry run or a rebuilt state is a new object.  The state is held strongly,
so its id cannot be reused while remembered.  One memo per thread: a server decides each game
on the game's own thread (app/net/server.py), so games never read each other's answers.
Answers are shared: a caller must not change what it gets (return frozensets and tuples)."""

from __future__ import annotations

import threading
from typing import Any, Callable, Hashable

_memo = threading.local()


def per_position(state, key: Hashable, compute: Callable[[], Any]) -> Any:
    """``compute()``'s answer for this position under ``key``, worked out once."""
    memo = getattr(_memo, "memo", None)
    if memo is None or memo[0] is not state or memo[1] != state.kernel.seq:
        memo = _memo.memo = (state, state.kernel.seq, {})
    table = memo[2]
    if key not in table:
        table[key] = compute()
    return table[key]
