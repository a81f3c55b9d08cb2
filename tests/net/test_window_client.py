"""`wif play --server` (issue #15, "Play"): the normal game window on a server game.

A window client (alice, Germany) and a bot client (bob, USSR, app/net/client.py play_seat in
a thread) play the set-up and the first impulses of Barbarossa on a loopback `wif serve`.  The
window is the real program's scene (app/netplay.py NetGameScene over a RemoteGame) under
SDL_VIDEODRIVER=dummy; its moves are made by posted mouse and keyboard events only
(app/guidriver.py finds where to click).  Every command goes to the server; bob's moves reach
the window through its watcher connection and save watch, without any input."""

from __future__ import annotations

import os
import subprocess
import threading
import time

import pygame
import pytest

from app.guiclicks import post
from app.guidriver import GuiDriver
from app.net.client import NetClient, play_seat
from app.net.remote import RemoteGame
from app.netplay import NetGameScene
from app.scenes import SceneStack

pytestmark = pytest.mark.whole_game  # about a minute: -m "not whole_game" leaves it out

SEATS = {"alice": ["germany"], "bob": ["ussr"]}
IMPULSES = 2  # the window plays until the game reaches this impulse of turn 1
FRAMES = 20000  # at most; a frame that waits for the other side costs little
SECONDS = 600


def seat_players(url: str, game: str) -> None:
    with NetClient(url, "alice") as alice, NetClient(url, "bob") as bob:
        alice.create(game, "barbarossa", SEATS, seed=4)
        alice.join(game)
        bob.join(game)


def pump(scene) -> None:
    for event in pygame.event.get():
        scene.handle(event)
    scene.tick()
    scene.draw()


@pytest.fixture
def players_config(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "players-config"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    yield tmp_path / "players-config"
    pygame.quit()


def test_a_window_and_a_bot_play_barbarossa_impulses_on_a_server(server, players_config):
    url = server["url"]
    seat_players(url, "war")
    bot_out: dict = {}
    stop = threading.Event()

    def bob_plays():
        with NetClient(url, "bob") as bob:
            try:
                bot_out["result"] = play_seat(bob, "war", "random", seed=2, seconds=SECONDS, decisions=100000,
                                              until=lambda status: stop.is_set())
            except Exception as exc:  # shown by the assertion below
                bot_out["error"] = exc

    game = RemoteGame(url, "war", "alice")
    stack = SceneStack()
    scene = NetGameScene(game)
    stack.push(scene)
    window = scene.window
    bob = threading.Thread(target=bob_plays, daemon=True)
    bob.start()
    driver = GuiDriver(policy="random", seed=3)
    seen_moves_of_bob = 0
    waited_frames = 0
    clicks = 0
    deadline = time.monotonic() + SECONDS
    try:
        for _frame in range(FRAMES):
            k = game.state.kernel
            if k.turn > 1 or k.impulse > IMPULSES or time.monotonic() > deadline or "error" in bot_out:
                break
            before = k.seq
            if not pygame.event.peek() and window.play.form is not None:
                if window.play.hidden():  # bob's turn: the form says "Waiting for bob", the window waits
                    waited_frames += 1
                    if waited_frames == 3 and os.environ.get("WIF_NET_SCREENSHOT"):  # to look at
                        pygame.image.save(window.screen, os.environ["WIF_NET_SCREENSHOT"])
                else:
                    driver._check_swallowed(window)
                    action = driver.play(window)
                    if action is not None:  # as GuiDriver.__call__, which also waits for the other side
                        driver._last = action
                        clicks += 1
                        post(action)
            pump(scene)
            if game.state.kernel.seq > before and window.play.hidden():
                seen_moves_of_bob += 1
            time.sleep(0.002)
        k = game.state.kernel
        assert "error" not in bot_out, bot_out.get("error")
        assert k.turn > 1 or k.impulse > IMPULSES, f"stopped at turn {k.turn} impulse {k.impulse} {k.sequence.current}"
        assert sum(driver.figures.commands.values()) > 5 and clicks > 20
        assert waited_frames > 0 and seen_moves_of_bob > 0  # bob's moves came without any input
        with NetClient(url, "alice") as alice:  # the window shows what the server holds
            alice.join("war")
            status = alice.request("status", game="war")
        pump(scene)
        for _ in range(200):
            if game.state.kernel.seq >= status["seq"]:
                break
            time.sleep(0.02)
            pump(scene)
        assert game.state.kernel.seq >= status["seq"]
    finally:
        stop.set()
        stack.clear()
        bob.join(timeout=SECONDS)
    stop.set()
    verified = subprocess.run(server["wif"]("verify", str(server["games"] / "war.wif")), cwd=server["root"],
                              env=server["env"], capture_output=True, text=True, timeout=SECONDS)
    assert verified.returncode == 0, verified.stdout + verified.stderr
