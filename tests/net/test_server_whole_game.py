"""Done-when of issue #15: two `wif bot --server` clients play Barbarossa to its end through a
`wif serve` subprocess, with the server's own dice; alice's bot is killed (SIGKILL: no goodbye)
in the middle of an impulse, while the game waits for her, and a new one resumes from her
receipt; the server's save then passes `wif verify`, and the same commands with the same dice
played as a local game give the same events and the same final state."""

from __future__ import annotations

import json
import os
import subprocess
import time

import pytest

from app.net.client import NetClient, receipt_file
from conftest import replayed_locally

GAME_TIMEOUT = 900  # seconds; a whole game takes about a minute of CPU


def in_an_impulse_waiting_for(url: str, player: str, bot: subprocess.Popen) -> dict:
    """Watches the lobby (as a spectator would) until the game is in an impulse and waits for
    ``player``; returns the lobby's line of the game then."""
    deadline = time.monotonic() + GAME_TIMEOUT
    with NetClient(url, "carol") as carol:
        while time.monotonic() < deadline:
            game = next(g for g in carol.list_games() if g["game"] == "war")
            if game.get("finished"):
                pytest.fail("the game ended before an impulse waited for alice")
            if game.get("impulse", 0) >= 1 and "impulse." in (game.get("step") or "") \
                    and player in game.get("waiting_for", []):
                return game
            assert bot.poll() is None, bot.communicate()[0]
            time.sleep(0.1)
    pytest.fail("no impulse waited for alice")


@pytest.mark.whole_game
def test_two_bots_play_barbarossa_to_its_end_through_the_server(server, tmp_path):
    url = server["url"]
    env = {**os.environ, "WIF_CONFIG_DIR": str(tmp_path / "players-config")}
    os.environ["WIF_CONFIG_DIR"], saved = env["WIF_CONFIG_DIR"], os.environ["WIF_CONFIG_DIR"]
    try:
        with NetClient(url, "alice") as alice:
            alice.create("war", "barbarossa", {"alice": ["germany"], "bob": ["ussr"]})  # no seed: the server's dice
            alice.join("war")

        def bot(player: str, *extra: str) -> subprocess.Popen:
            return subprocess.Popen(server["wif"]("bot", "war", "--server", url, "--as", player, "--seed", "3",
                                                "--seconds", str(GAME_TIMEOUT), *extra),
                                    cwd=server["root"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

        bob = bot("bob")
        first = bot("alice")
        try:
            killed_at = in_an_impulse_waiting_for(url, "alice", first)
            first.kill()  # mid-impulse, perhaps mid-command: the server must keep nothing half done
            first.wait(timeout=30)
            stopped_at = json.loads(receipt_file(url, "war", "alice").read_text())
            with NetClient(url, "alice") as peek:
                status = peek.join("war")  # the receipt her killed bot kept: the server's log extends it
                assert status["turn"] == killed_at["turn"] and status["impulse"] >= 1 and not status["finished"]
            second = bot("alice")  # reconnects: the server checks the receipt, the bot resumes
            out2, _ = second.communicate(timeout=GAME_TIMEOUT)
            assert second.returncode == 0, out2
            assert "the game is over" in out2
            bob_out, _ = bob.communicate(timeout=60)
            assert bob.returncode == 0, bob_out
            assert "the game is over" in bob_out
        finally:
            for proc in (bob, first, locals().get("second")):
                if proc is not None and proc.poll() is None:
                    proc.kill()
                    proc.wait(timeout=10)
        after = json.loads(receipt_file(url, "war", "alice").read_text())
        assert after["seq"] > stopped_at["seq"]
        server["proc"].terminate()
        server["proc"].wait(timeout=10)
        save = server["games"] / "war.wif"
        verified = subprocess.run(server["wif"]("verify", str(save)), cwd=server["root"], env=server["env"],
                                  capture_output=True, text=True, timeout=GAME_TIMEOUT)
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert "OK" in verified.stdout or "ok" in verified.stdout.lower()
        served_events, local_events, served_state, local_state = replayed_locally(save, tmp_path / "local.wif")
        assert any(event[1] == "DiceRolled" for event in served_events)
        assert local_events == served_events
        assert local_state == served_state and local_state["kernel"]["sequence"]["finished"]
    finally:
        os.environ["WIF_CONFIG_DIR"] = saved
