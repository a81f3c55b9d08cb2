"""`wif bot --server` with each bot policy (issue #15, "Play"): the greedy bot scores its
candidates by the server's previews and the player's view (app/net/remote.py), the random one
by the choices alone; both play a seat of Barbarossa through `wif serve` with no refusal."""

from __future__ import annotations

import subprocess
import threading

import pytest

from app.net.client import NetClient, play_seat

DECISIONS = 40


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_each_bot_policy_plays_a_seat_through_the_server(server, tmp_path, monkeypatch, policy):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "players"))
    url = server["url"]
    with NetClient(url, "alice") as alice, NetClient(url, "bob") as bob:
        alice.create("war", "barbarossa", {"alice": ["germany"], "bob": ["ussr"]}, seed=6)
        alice.join("war")
        bob.join("war")
    results: dict = {}
    alice_done = threading.Event()

    def seat(player: str, seat_policy: str) -> None:
        with NetClient(url, player) as client:
            try:
                # the opponent plays on until the policy under test has made its decisions: with a
                # limit of its own it could stop first and leave the game waiting for it
                limit = DECISIONS if player == "alice" else 10 ** 6
                results[player] = play_seat(client, "war", seat_policy, seed=3, decisions=limit, seconds=300,
                                            until=lambda status: player == "bob" and alice_done.is_set())
            except Exception as exc:
                results[player] = exc
            finally:
                if player == "alice":
                    alice_done.set()

    # the policy under test plays Germany; the USSR (who places first) is a random bot
    threads = [threading.Thread(target=seat, args=("bob", "random")), threading.Thread(target=seat, args=("alice", policy))]
    for t in threads:
        t.start()
    threads[1].join(timeout=600)
    threads[0].join(timeout=600)
    tally, status = results["alice"] if not isinstance(results["alice"], Exception) else pytest.fail(str(results["alice"]))
    assert not isinstance(results["bob"], Exception), results["bob"]
    assert tally.refused == []
    assert tally.decisions >= DECISIONS or status["finished"]
    assert tally.commands > 0


def test_an_unknown_policy_is_named(server, tmp_path):
    env = {**server["env"], "WIF_CONFIG_DIR": str(tmp_path / "players")}
    out = subprocess.run(server["wif"]("bot", "war", "--server", server["url"], "--as", "alice", "--policy", "clever"),
                         cwd=server["root"], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "clever" in out.stdout + out.stderr
