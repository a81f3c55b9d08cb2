"""`wif serve` (issue #15, items 1 and 3): challenge authentication, the server deciding every
command, per-player views and choices, receipts, and bots playing a seat."""

from __future__ import annotations

import json

import pytest
from websockets.sync.client import connect

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from app.net import protocol
from app.net.client import NetClient, NetError, play_seat, receipt_file

SEATS = {"alice": ["germany"], "bob": ["ussr"]}


def login(ws, player: str, key: Ed25519PrivateKey) -> None:
    challenge = json.loads(ws.recv(timeout=5))
    message = protocol.challenge_message(bytes.fromhex(challenge["nonce"]), challenge["server"])
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    ws.send(json.dumps({"player": player, "key": public, "signature": key.sign(message).hex()}))
    assert json.loads(ws.recv(timeout=5))["ok"] is True


def seated(server, game="g1"):
    alice, bob = NetClient(server["url"], "alice"), NetClient(server["url"], "bob")
    alice.create(game, "barbarossa", SEATS)
    assert alice.join(game)["started"] is False
    assert bob.join(game)["started"] is True
    alice.join(game)
    return alice, bob


def test_a_wrong_challenge_signature_is_refused(server):
    with connect(server["url"], open_timeout=5) as ws:
        json.loads(ws.recv(timeout=5))
        with NetClient(server["url"], "mallory") as honest:
            key = honest.signer.public_hex
        ws.send(json.dumps({"player": "mallory", "key": key, "signature": "00" * 64}))
        answer = json.loads(ws.recv(timeout=5))
    assert answer["ok"] is False and "does not match the key" in answer["error"]


def test_seats_views_and_refusals(server):
    alice, bob = seated(server)
    with alice, bob:
        with connect(server["url"], open_timeout=5) as ws:  # another key that calls itself alice
            login(ws, "alice", Ed25519PrivateKey.generate())
            ws.send(json.dumps({"op": "join", "id": 1, "game": "g1"}))
            answer = json.loads(ws.recv(timeout=5))
        assert answer["ok"] is False and "taken by another key" in answer["error"]
        view = alice.request("view", game="g1")["state"]
        assert "seed" not in view["kernel"] and "dice_playback" not in view["kernel"]
        status = alice.request("status", game="g1")
        mover, waiter = (alice, bob) if status["my_turn"] else (bob, alice)
        _, found = waiter.choices("g1")
        assert not [d for d in found if d.pending]
        out = waiter.submit("g1", {"type": "FinishStep", "actor": "ussr" if waiter is bob else "germany"})
        assert out["accepted"] is False and "nothing (more) to decide" in out["reason"]
        _, found = mover.choices("g1")
        decision = [d for d in found if d.pending][0]
        finish = decision.find("FinishStep")[0].base()
        before = mover.request("status", game="g1")["seq"]
        assert mover.submit("g1", finish)["accepted"] is True
        assert mover.request("status", game="g1")["seq"] > before


def test_a_receipt_the_server_does_not_extend_is_told(server):
    alice, bob = seated(server)
    with alice, bob:
        receipt = alice.request("status", game="g1")["receipt"]
        with pytest.raises(NetError, match="saves do not match"):
            alice.join("g1", receipt={"seq": receipt["seq"], "tag": "0" * 64})
        with pytest.raises(NetError, match="server's log ends at seq"):
            alice.join("g1", receipt={"seq": receipt["seq"] + 50, "tag": receipt["tag"]})
        assert alice.join("g1", receipt=receipt)["started"]


def test_a_client_that_drops_before_signing_leaves_nothing_stored(server):
    alice, bob = seated(server)
    with bob:
        status = alice.request("status", game="g1")
        player = alice if status["my_turn"] else bob
        _, found = player.choices("g1")
        decision = [d for d in found if d.pending][0]
        command = decision.find("FinishStep")[0].base()
        player.ws.send(json.dumps({"op": "submit", "id": 99, "game": "g1", "command": command}))
        assert json.loads(player.ws.recv(timeout=20))["op"] == "sign"
        player.close()  # gone without signing
        with NetClient(server["url"], player.player) as again:
            back = again.join("g1")
            assert back["seq"] == status["seq"]  # nothing of the unsigned command was kept
            assert again.submit("g1", command)["accepted"]
    alice.close()


def test_chat_and_a_spectator_without_a_seat(server):
    alice, bob = seated(server)
    with alice, bob:
        alice.request("chat", game="g1", text="good luck")
        out = bob.request("chat", game="g1", text="you too")
        assert [(m["player"], m["text"]) for m in out["messages"]] == [("alice", "good luck"), ("bob", "you too")]
        with pytest.raises(NetError, match="1 to 1000 characters"):
            bob.request("chat", game="g1", text="")
        with NetClient(server["url"], "carol") as carol:
            watched = carol.request("spectate", game="g1")  # what every side sees (tests/net/test_spectate.py)
            assert "save" not in watched and watched["finished"] is False
            with pytest.raises(NetError, match="'carol' has no seat in game g1"):
                carol.request("join", game="g1")


def test_the_lobby_lists_open_games_and_invitations_to_their_players_only(server, capsys):
    from app.cli import main

    url = server["url"]
    assert main(["net", "create", url, "open1", "--scenario", "barbarossa", "--seat", "alice=germany",
                 "--seat", "bob=ussr", "--as", "alice"]) == 0
    assert main(["net", "create", url, "private1", "--scenario", "barbarossa", "--seat", "alice=germany",
                 "--seat", "dave=ussr", "--invitation", "--as", "alice"]) == 0
    capsys.readouterr()
    assert main(["net", "list", url, "--as", "bob"]) == 0
    listed = capsys.readouterr().out
    assert "open1: barbarossa, open seats: alice, bob" in listed and "private1" not in listed
    assert main(["net", "list", url, "--as", "dave"]) == 0
    assert "private1" in capsys.readouterr().out
    assert main(["net", "chat", url, "open1", "--as", "bob", "--say", "hello"]) == 0
    assert "bob: hello" in capsys.readouterr().out
    assert main(["net", "join", url, "open1", "--as", "bob"]) == 0
    assert "bob seated in open1; waiting for seats alice" in capsys.readouterr().out
    assert main(["net", "join", url, "open1", "--as", "alice"]) == 0
    assert "alice seated in open1: seq " in capsys.readouterr().out
    assert main(["net", "list", url, "--as", "bob"]) == 0
    assert "open1: barbarossa, playing, turn 0 impulse 0, waiting for bob" in capsys.readouterr().out  # set-up: the USSR places first


def test_a_game_is_created_with_optional_rules_and_a_scenario_or_rule_the_server_lacks_is_named(server, capsys):
    from app.cli import main

    url = server["url"]
    with NetClient(url, "alice") as alice, NetClient(url, "bob") as bob:
        with pytest.raises(NetError, match="no scenario 'narnia' on this server; scenarios: .*barbarossa"):
            alice.create("g0", "narnia", SEATS)
        with pytest.raises(NetError, match="plugin 'no-such-rule' is not installed"):
            alice.create("g0", "barbarossa", SEATS, rules=["no-such-rule"])
        assert main(["net", "create", url, "g1", "--scenario", "barbarossa", "--seat", "alice=germany",
                     "--seat", "bob=ussr", "--rules", "blitz-bonus", "--as", "alice"]) == 0
        assert [g["game"] for g in alice.list_games()] == ["g1"]
        alice.join("g1")
        assert bob.join("g1")["started"] is True
        assert "blitz-bonus" in alice.request("info", game="g1")["plugin_set"]
