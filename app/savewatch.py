"""Noticing that another process appended to the window's save (a second window on the same
game, a script using ``wif submit``): once a second the window asks the save for its last
event (one indexed query), and when it is past what the window shows, folds the new events
(``Game.refresh``), lets the map drop what they changed, rebuilds the forms (they follow the
game's position) and says "the game moved on" in the status line and the top bar."""

from __future__ import annotations

import time

from .windowstyle import GOOD

CHECK_SECONDS = 1.0


class SaveWatch:
    def __init__(self, window, every: float = CHECK_SECONDS):
        self.window = window
        self.every = every
        self._next = time.monotonic() + every

    def tick(self, now: float | None = None) -> int:
        """Check the save if a second has passed; how many events another process added."""
        now = time.monotonic() if now is None else now
        if now < self._next:
            return 0
        self._next = now + self.every
        return self.check()

    def check(self) -> int:
        window = self.window
        game = window.game
        if game is None or getattr(game, "read_only", False):
            return 0
        before = game.state.kernel.seq
        if game.store.last()[0] <= before:
            return 0
        added = game.refresh()
        if not added:
            return 0
        records = list(game.store.records(before + 1))
        for listener in list(game.listeners):  # as after the window's own events: the map drops the
            listener(game, records)  # chunks and stacks they changed, a combat's result is shown
        news = getattr(game, "news_text", None)  # a server game words its own (app/net/remote.py)
        text = news(added) if news is not None else \
            f"the game moved on: {added} event{'s' if added != 1 else ''} added by another window or program"
        if window.play is not None:
            window.play.say(text, GOOD)
        window.say(text, GOOD)
        return added
