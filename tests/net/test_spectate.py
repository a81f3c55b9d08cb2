"""Spectating a server game and the lobby of asynchronous play (issue #15, "A lobby"):
while the game runs a spectator sees only what every side may see (each player's view filter
applied: the skirmish's fog of war hides a counter's strength far from the enemy); once it is
over, the whole save, which the window opens in the replay viewer; the lobby says whose turn
it is."""

from __future__ import annotations

import threading

from app.net.client import NetClient, play_seat
from app.net.remote import RemoteGame
from kernel.game import Game

SEATS = {"alice": ["red"], "bob": ["blue", "green"]}


def strengths(state: dict) -> dict:
    return {cid: c["strength"] for cid, c in state["sections"]["skirmish.board"]["counters"].items()}


def play_to_the_end(url: str, game: str) -> None:
    results: dict = {}

    def seat(player):
        with NetClient(url, player) as client:
            results[player] = play_seat(client, game, "random", seed=5, seconds=120)

    threads = [threading.Thread(target=seat, args=(p,)) for p in SEATS]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=180)
    assert all(status["finished"] for _, status in results.values()), results


def test_a_spectator_sees_what_both_sides_see_then_everything_at_the_end(server, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "players"))
    url = server["url"]
    with NetClient(url, "alice") as alice, NetClient(url, "bob") as bob, NetClient(url, "carol") as carol:
        alice.create("s1", "skirmish", SEATS, seed=1)
        alice.join("s1")
        bob.join("s1")
        seen_by = {p: strengths(c.request("view", game="s1")["state"]) for p, c in (("alice", alice), ("bob", bob))}
        watched = carol.request("spectate", game="s1")
        assert "save" not in watched and not watched["finished"]
        public = strengths(watched["state"])
        hidden_from_someone = {cid for view in seen_by.values() for cid, s in view.items() if s is None}
        assert hidden_from_someone  # the fog of war hides some strength from each side
        assert {cid for cid, s in public.items() if s is None} == hidden_from_someone
        assert all(public[cid] == seen_by["alice"][cid] for cid in public if cid not in hidden_from_someone)

        from app.cli import main  # the lobby: whose turn it is
        capsys.readouterr()
        assert main(["net", "list", url, "--as", "carol"]) == 0
        listed = capsys.readouterr().out
        status = alice.request("status", game="s1")
        waiting = "alice" if status["my_turn"] else "bob"
        assert f"s1: skirmish, playing, turn {status['turn']} impulse {status['impulse']}, waiting for {waiting}" in listed

        spectator = RemoteGame(url, "s1", None, as_name="carol")  # the window's game of a spectator
        try:
            counters = spectator.state["skirmish.board"].counters  # the fog's None kept (app/net/remote.py loose)
            assert {cid: c.strength for cid, c in counters.items()} == public
            assert spectator.submit({"type": "FinishStep", "actor": "red"}).reason.startswith("a spectator decides nothing")
            assert spectator.choices("alice").decisions == []
        finally:
            spectator.close()

    play_to_the_end(url, "s1")
    with NetClient(url, "carol") as carol:
        over = carol.request("spectate", game="s1")
    assert over["finished"] and over["save"]
    from app.netplay import finished_save_path

    spectator = RemoteGame(url, "s1", None, as_name="carol")
    try:
        path = finished_save_path(spectator, tmp_path / "watched")
    finally:
        spectator.close()
    with Game.open(path, read_only=True) as whole:  # the replay viewer's save: every event, nothing hidden
        assert whole.state.kernel.sequence.finished and whole.state.kernel.seq == over["seq"]
        assert strengths(whole.state.to_dict()) == strengths(over["state"])
        assert None not in strengths(over["state"]).values()
