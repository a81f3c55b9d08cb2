"""Network play from the window (issue #15, "A lobby"): Start New Game's mode "Over the
network" creates a game on a server by clicks, the Join form lists it with whose turn it is
and joins it, the normal window opens on it, and the game's chat form sends and shows
messages, all by posted mouse and keyboard events (SDL_VIDEODRIVER=dummy)."""

from __future__ import annotations

import time

import pygame
import pytest

from app import lobby, netchat
from app.guiclicks import Action, drop_down, post, visible_point
from app.net.client import NetClient
from app.netplay import NetGameScene
from app.newgame import MODES
from app.scenes import NewGameScene, SceneStack


@pytest.fixture
def program(server, tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "players"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setattr(lobby, "DEFAULT_URL", server["url"])
    monkeypatch.setattr(netchat, "CHECK_SECONDS", 0.1)
    pygame.display.init()
    pygame.font.init()
    stack = SceneStack()
    stack.push(NewGameScene("barbarossa", lambda scenario: tmp_path / f"{scenario}.wif"))
    yield stack
    stack.clear()
    pygame.quit()


def frames(stack, n: int = 3) -> None:
    for _ in range(n):
        for event in pygame.event.get():
            stack.top.handle(event)
        stack.top.tick()
        if stack.top is not None:
            stack.top.draw()


def click(stack, gui, element, what: str) -> None:
    pos = visible_point(gui, element)
    assert pos is not None, f"{what} cannot be clicked"
    post(Action("click", pos, what=what))
    frames(stack)


def type_text(stack, text: str) -> None:
    for ch in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
    frames(stack)


def test_create_join_and_chat_from_the_window(program, server):
    stack = program
    frames(stack)
    scene = stack.top
    form = scene.form
    for _ in range(10):  # a click opens the menu, the next picks the mode
        if form.mode == "network":
            break
        post(drop_down(form.gui, form.mode_menu, MODES["network"]))
        frames(stack)
    assert form.mode == "network"
    click(stack, form.gui, form.create_button, "Create on server")
    assert "created" in form.status and "Waiting for Player-2" in form.status, form.status
    game = form.net["game"]
    with NetClient(server["url"], "Player-2") as other:  # the other player, at another machine
        assert other.join(game)["started"] is True
        click(stack, form.gui, form.join_button, "Join or watch…")
        listed = form.lobby
        row = next(g for g in listed.games if g["game"] == game)
        assert lobby.game_line(row).startswith(f"{game} (barbarossa): turn ") and "waiting for" in lobby.game_line(row)
        click(stack, form.gui, listed.rows[game]["join"], f"Join {game}")
        for _ in range(20):
            if isinstance(stack.top, NetGameScene):
                break
            frames(stack, 1)
        top = stack.top
        assert isinstance(top, NetGameScene) and top.game.player == "Player-1" and top.game.name == game
        frames(stack, 5)
        chat = top.chat
        click(stack, top.window.gui, chat.entry, "the chat's line")
        type_text(stack, "good luck")
        said = other.request("chat", game=game)["messages"]
        assert [(m["player"], m["text"]) for m in said] == [("Player-1", "good luck")]
        other.request("chat", game=game, text="you too")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and len(chat.messages) < 2:
            time.sleep(0.1)
            frames(stack, 1)
        assert [m["text"] for m in chat.messages] == ["good luck", "you too"]
