"""The window on a server game (issue #15, "Play"): what it says while the other side decides,
F9, and a submit that meets "the game moved on".  A real `wif serve` on loopback, alice's window
(app/netplay.py NetGameScene over a RemoteGame) driven by posted keys only; bob moves at his own
client.

- While bob decides, the Play form names him, his power and the step, and says the window
  follows the game by itself; when bob's moves arrive, the status line (the top bar's messages)
  says who moved, how many events, and who decides now in which step, or that it is alice's
  turn.  (One test with the next: a window on a server game takes seconds to open.)

- F9 opens the replay viewer on what alice may see: the events the server shows her, as shown
  (the view save of app/net/viewops.py), not the server's save: no snapshot, no command, no seed,
  no keys, no stored head.
- A command built on choices the game has since left (alice moved at another machine meanwhile)
  is refused by the server as out of date; the window folds the new position, rebuilds its forms
  and says so, and raises nothing."""

from __future__ import annotations

import os
import sqlite3
import time

import pygame
import pytest

from app.bots import Bot
from app.net.client import NetClient, bot_game
from app.net.remote import RemoteGame
from app.netplay import NetGameScene
from app.replay_view import ReplayWindow
from app.scenes import ReplayScene, SceneStack
from kernel.choices import Decision

SEATS = {"alice": ["germany"], "bob": ["ussr"]}
PLACING = "Placing Units on the Map"
NEWS_SECONDS = 30.0  # at most, for the window to hear of bob's move (loaded machines)


@pytest.fixture
def players_config(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "players-config"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    yield tmp_path / "players-config"
    pygame.quit()


def start_game(url: str, game: str) -> None:
    with NetClient(url, "alice") as alice, NetClient(url, "bob") as bob:
        alice.create(game, "barbarossa", SEATS, seed=4)
        alice.join(game)
        bob.join(game)


def press(stack: SceneStack, key: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    pump(stack)


def pump(stack: SceneStack) -> None:
    """One frame of the program's loop (app/scenes.py SceneStack.run): the top scene at each stage."""
    for event in pygame.event.get():
        stack.top.handle(event)
    stack.top.tick()
    stack.top.draw()


def open_window(url: str, game: str):
    remote = RemoteGame(url, game, "alice")
    stack = SceneStack()
    scene = NetGameScene(remote)
    stack.push(scene)
    return remote, stack, scene


def play_until_alice_decides(url: str, game: str) -> None:
    """Bob's bot plays until the game waits for alice (the set-up may start with the USSR)."""
    with NetClient(url, "bob") as bob:
        status = bob.join(game)
        bot = Bot("random", 2)
        for _ in range(200):
            if not status["my_turn"]:
                return
            _, found = bob.choices(game)
            decision = next(d for d in found if d.pending)
            status = bob.submit(game, bot.choose(bot_game(status), decision, "bob"))
        pytest.fail("bob kept the move for 200 commands")


def alice_moves_elsewhere(url: str, game: str) -> int:
    """Alice, at another machine, makes one move that is not the end of her step; the seq after it."""
    with NetClient(url, "alice") as alice:
        status = alice.join(game)
        _, found = alice.choices(game)
        decision = next(d for d in found if d.pending)
        moves = Decision(decision.decider, decision.step, decision.title,
                         [c for c in decision.commands if c.type != "FinishStep"], decision.pending)
        out = alice.submit(game, Bot("random", 5).choose(bot_game(status), moves, "alice"))
        assert out["accepted"], out["reason"]
        return out["seq"]


def pump_until_seq(stack: SceneStack, game: RemoteGame, seq: int) -> None:
    """Frames until the window's watcher and save watch have folded ``seq``."""
    deadline = time.monotonic() + NEWS_SECONDS
    while game.state.kernel.seq < seq and time.monotonic() < deadline:
        pump(stack)
        time.sleep(0.01)
    pump(stack)
    assert game.state.kernel.seq >= seq, f"the window did not hear of seq {seq} (at {game.state.kernel.seq})"


def waiting_box_text(play) -> str:
    texts = [getattr(e, "status_text", "") for e in play.body.get_container().elements]
    return next((t for t in texts if "at another machine" in t), "")


def bob_moves(bob: NetClient, finish: bool) -> int:
    """Bob places a unit (or ends his step); the seq after it."""
    status = bob.request("status", game="war")
    _, found = bob.choices("war")
    decision = next(d for d in found if d.pending)
    # a unit placed on a hex (one event); a ship set up at sea (16.1.1) would be two
    wanted = [c for c in decision.commands if c.type == ("FinishStep" if finish else "PlaceUnit")]
    command = Bot("random", 3).choose(bot_game(status), Decision(decision.decider, decision.step, decision.title,
                                                                 wanted, decision.pending), "bob")
    out = bob.submit("war", command)
    assert out["accepted"], out["reason"]
    return out["seq"]


def test_the_window_says_who_decides_then_a_submit_after_the_game_moved_on_shows_the_new_choices(
        server, players_config):
    url = server["url"]
    start_game(url, "war")
    game, stack, scene = open_window(url, "war")
    try:
        window = scene.window
        for _ in range(3):
            pump(stack)
        play = window.play
        assert play.hidden(), "the USSR sets up first: bob decides, alice's window shows no decision"
        text = waiting_box_text(play)
        assert text.startswith(f"bob (USSR) is deciding at another machine: {PLACING}."), text
        assert "This window shows their moves as the server stores them" in text
        with NetClient(url, "bob") as bob:
            bob.join("war")
            pump_until_seq(stack, game, bob_moves(bob, finish=False))
        news = window.messages[-1][0]
        assert news == (f"bob (USSR) moved (1 new event); now bob (USSR) is deciding: {PLACING} "
                        "(this window follows by itself)"), news
        assert any(news[:40] in line for line, _ in window.main_lines()), "the top bar shows it"
        assert play.hidden() and waiting_box_text(play)
        if os.environ.get("WIF_NET_SCREENSHOT"):  # to look at
            pygame.image.save(window.screen, os.environ["WIF_NET_SCREENSHOT"])
        play_until_alice_decides(url, "war")
        with NetClient(url, "alice") as alice:
            alice.join("war")
            pump_until_seq(stack, game, alice.request("status", game="war")["seq"])
        news = window.messages[-1][0]
        assert news.startswith("bob (USSR) moved (") and news.endswith(f"your turn, you (Germany): {PLACING}"), news
        for _ in range(5):
            pump(stack)
        assert not waiting_box_text(play), "alice's decisions are shown"
        assert not window.play.hidden(), "the window shows alice's decision"
        built_on = game.choices_seq
        assert built_on == game.state.kernel.seq
        moved_to = alice_moves_elsewhere(url, "war")
        assert moved_to > built_on
        press(stack, pygame.K_RETURN)  # End phase, on choices the game has left: refused, no traceback
        assert game.state.kernel.seq == moved_to, "the window folded the new position at once"
        assert "the game moved on while you chose" in window.play.status[0]
        for _ in range(3):
            pump(stack)
        assert game.choices_seq == moved_to, "the forms were rebuilt from the new choices"
        with NetClient(url, "alice") as alice:
            alice.join("war")
            assert alice.request("status", game="war")["seq"] == moved_to, "the stale End phase was not stored"
        press(stack, pygame.K_RETURN)  # on the new choices it is accepted
        assert game.state.kernel.seq > moved_to, (window.play.status, window.messages[-3:])
    finally:
        stack.clear()


def test_f9_on_a_server_game_replays_what_this_player_is_shown(server, players_config):
    url = server["url"]
    start_game(url, "war")
    play_until_alice_decides(url, "war")
    game, stack, scene = open_window(url, "war")
    try:
        pump(stack)
        press(stack, pygame.K_F9)
        assert isinstance(stack.top, ReplayScene), "F9 opened the replay viewer over the game window"
        viewer: ReplayWindow = stack.top.viewer
        with NetClient(url, "alice") as alice:
            alice.join("war")
            served = alice.request("update", game="war", since=0)
        shown = [r["seq"] for r in served["records"]]
        replayed = [row[0] for row in viewer.replay.game.store.rows(1)]
        assert replayed == shown and viewer.replay.last == shown[-1]
        assert viewer.replay.skipped == []
        path = stack.top.path
        with sqlite3.connect(path) as save:  # nothing the view hides, and no whole state or order
            assert save.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 0
            assert save.execute("SELECT count(*) FROM command_log").fetchone()[0] == 0
        meta = viewer.replay.game.store.all_meta()
        assert not {"seed", "keys", "head", "meta_signature"} & set(meta) and meta["view_of"] == "alice"
        press(stack, pygame.K_ESCAPE)  # the viewer closes: back on the game window
        for _ in range(3):
            pump(stack)
        assert stack.top is scene
    finally:
        stack.clear()


def test_a_spectator_has_no_replay_while_the_game_runs(server, players_config):
    url = server["url"]
    start_game(url, "war")
    spectator = RemoteGame(url, "war", None, as_name="carol", follow=False)
    try:
        with pytest.raises(Exception, match="still being played"):
            spectator.replay_save()
    finally:
        spectator.close()
