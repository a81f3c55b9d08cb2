"""A server restart mid-game (issue #15, "Done when": the bad inputs): `wif serve` is killed
(SIGKILL, no clean shutdown) while a player's command waits for its signature; a new process
on the same games folder and port reopens the game from its save, both clients come back with
their receipts, nothing stored is lost, the unsigned command left nothing, play goes on with no
refusal, the save verifies, and a local game of the same commands and dice is the same game."""

from __future__ import annotations

import json

from app.bots import Bot
from app.net.client import NetClient, bot_game
from conftest import replayed_locally, start_server, stop_server
from test_server import SEATS


def play(clients: dict[str, NetClient], bots: dict[str, Bot], commands: int) -> None:
    """``commands`` accepted commands, each by the player the game waits for (a random bot)."""
    done = 0
    while done < commands:
        status = clients["alice"].request("status", game="g1")
        player = "alice" if status["my_turn"] else "bob"
        client = clients[player]
        status = client.request("status", game="g1")
        _, found = client.choices("g1")
        decision = next(d for d in found if d.pending)
        out = client.submit("g1", bots[player].choose(bot_game(status), decision, player))
        assert out["accepted"], out["reason"]
        done += 1


def test_a_server_killed_mid_command_restarts_and_the_clients_resume(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "players"))
    first = start_server(tmp_path)
    url, port = first["url"], first["port"]
    bots = {"alice": Bot("random", 1), "bob": Bot("random", 2)}
    try:
        clients = {p: NetClient(url, p) for p in SEATS}
        clients["alice"].create("g1", "barbarossa", SEATS)  # the server's own dice
        for client in clients.values():
            client.join("g1")
        clients["alice"].join("g1")
        play(clients, bots, 6)
        clients["bob"].request("chat", game="g1", text="before the crash")
        status = clients["alice"].request("status", game="g1")
        mover = clients["alice" if status["my_turn"] else "bob"]
        _, found = mover.choices("g1")
        command = bots[mover.player].choose(bot_game(status), next(d for d in found if d.pending), mover.player)
        mover.ws.send(json.dumps({"op": "submit", "id": 99, "game": "g1", "command": command}))
        assert json.loads(mover.ws.recv(timeout=30))["op"] == "sign"  # the command is being decided ...
        stop_server(first["proc"], kill=True)  # ... when the server dies
        for client in clients.values():
            client.close()
    finally:
        stop_server(first["proc"], kill=True)

    again = start_server(tmp_path, port=port)
    try:
        clients = {p: NetClient(url, p) for p in SEATS}
        for player, client in clients.items():
            back = client.join("g1")  # with the receipt it kept: the server's log must extend it
            assert back["seq"] == status["seq"], "an event stored before the crash was lost, or the unsigned kept"
        assert clients["alice"].request("chat", game="g1")["messages"][-1]["text"] == "before the crash"
        assert clients[mover.player].submit("g1", command)["accepted"]  # decided again, signed this time
        play(clients, bots, 6)
        for client in clients.values():
            client.close()
    finally:
        stop_server(again["proc"])
    from app.cli import main

    assert main(["verify", str(again["games"] / "g1.wif")]) == 0  # here: the dice checked against the log
    served_events, local_events, served_state, local_state = replayed_locally(again["games"] / "g1.wif",
                                                                             tmp_path / "local.wif")
    assert local_events == served_events  # the same commands and dice give the same game
    assert local_state == served_state
