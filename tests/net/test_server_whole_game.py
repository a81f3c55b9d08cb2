"""Done-when of issue #15: two `wif bot --server` clients play Barbarossa to its end through a
`wif serve` subprocess; one stops mid-game and comes back from its receipt; the server's
save then passes `wif verify`."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from app.net.client import NetClient, receipt_file

GAME_TIMEOUT = 900  # seconds; a whole game takes about a minute of CPU


@pytest.mark.whole_game
def test_two_bots_play_barbarossa_to_its_end_through_the_server(server, tmp_path):
    url = server["url"]
    env = {**os.environ, "WIF_CONFIG_DIR": str(tmp_path / "players-config")}
    os.environ["WIF_CONFIG_DIR"], saved = env["WIF_CONFIG_DIR"], os.environ["WIF_CONFIG_DIR"]
    try:
        with NetClient(url, "alice") as alice:
            alice.create("war", "barbarossa", {"alice": ["germany"], "bob": ["ussr"]})
            alice.join("war")

        def bot(player: str, *extra: str) -> subprocess.Popen:
            return subprocess.Popen(server["wif"]("bot", "war", "--server", url, "--as", player, "--seed", "3",
                                                "--seconds", str(GAME_TIMEOUT), *extra),
                                    cwd=server["root"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

        bob = bot("bob")
        try:
            first = bot("alice", "--commands", "60")  # stops (and disconnects) in the middle of the game
            out, _ = first.communicate(timeout=GAME_TIMEOUT)
            assert first.returncode == 0, out
            assert "the game is over" not in out
            stopped_at = json.loads(receipt_file(url, "war", "alice").read_text())
            with NetClient(url, "alice") as peek:
                status = peek.join("war")
                assert status["turn"] >= 1 and not status["finished"]  # mid-game, past the set-up
            second = bot("alice")  # reconnects: the server checks the receipt, the bot resumes
            out2, _ = second.communicate(timeout=GAME_TIMEOUT)
            assert second.returncode == 0, out2
            assert "the game is over" in out2
            bob_out, _ = bob.communicate(timeout=60)
            assert bob.returncode == 0, bob_out
            assert "the game is over" in bob_out
        finally:
            for proc in (bob, locals().get("first"), locals().get("second")):
                if proc is not None and proc.poll() is None:
                    proc.kill()
                    proc.wait(timeout=10)
        after = json.loads(receipt_file(url, "war", "alice").read_text())
        assert after["seq"] > stopped_at["seq"]
    finally:
        os.environ["WIF_CONFIG_DIR"] = saved
    server["proc"].terminate()
    server["proc"].wait(timeout=10)
    save = server["games"] / "war.wif"
    verified = subprocess.run(server["wif"]("verify", str(save)), cwd=server["root"], env=server["env"],
                              capture_output=True, text=True, timeout=GAME_TIMEOUT)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "OK" in verified.stdout or "ok" in verified.stdout.lower()
