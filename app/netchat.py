"""The chat of a server game in its window (issue #15, "chat per game"; seeds, NetPlay: the
players talk while they play): a small form with the last messages, a line to type in and
Send (Enter sends too).  The messages are the server's (``chat``, kept beside the game's
save); the form asks for new ones every CHECK_SECONDS on the window's own connection."""

from __future__ import annotations

import html
import time

import pygame
import pygame_gui
from pygame_gui.elements import UITextEntryLine

from kernel.errors import WifError

from .forms import FormWindow

CHECK_SECONDS = 2.0
SHOWN = 6  # messages in the form
WIDTH, HEIGHT = 330, 200


class ChatForm:
    def __init__(self, window, game):
        self.window, self.game, self.gui = window, game, window.gui
        self.messages: list[dict] = []
        self.status = ""
        self._next = 0.0
        sw, sh = self.gui.size
        self.form = FormWindow(self.gui, pygame.Rect(0, sh - HEIGHT, WIDTH, HEIGHT), f"Chat: {game.name}",
                               object_id="#chat")
        self.box = None
        self.entry = UITextEntryLine(pygame.Rect(4, HEIGHT - 72, WIDTH - 90, 30), self.gui.manager,
                                     container=self.form)
        self.gui.on(pygame_gui.UI_TEXT_ENTRY_FINISHED, self.entry, lambda _text=None: self.send())
        self.send_button = self.form.button((WIDTH - 82, HEIGHT - 72, 70, 30), "Send", self.send)
        self.show()

    def tick(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        if now >= self._next:
            self._next = now + CHECK_SECONDS
            self.fetch()

    def fetch(self, text: str | None = None) -> None:
        try:
            out = self.game.client.request("chat", game=self.game.name, since=len(self.messages),
                                           **({"text": text} if text is not None else {}))
        except WifError as exc:
            self.status = str(exc)
            self.show()
            return
        if out["messages"] or self.status:
            self.messages += out["messages"]
            self.status = ""
            self.show()

    def send(self) -> None:
        text = self.entry.get_text().strip()
        if not text:
            return
        self.entry.set_text("")
        self.fetch(text)

    def show(self) -> None:
        lines = [f"<b>{html.escape(m['player'])}</b>: {html.escape(m['text'])}" for m in self.messages[-SHOWN:]]
        if self.status:
            lines.append(html.escape(self.status))
        if self.box is not None:
            self.box.kill()
        self.box = self.form.text_box("<br>".join(lines) or "(no message yet)", (4, 4, WIDTH - 14, HEIGHT - 80))
