"""Bad input to `wif serve` (issue #15, "Done when": the bad inputs): a command for a power the
player does not hold, a forged signature, a replayed message, a command for a finished game,
a malformed frame, a client that never answers.  Each is refused with its reason, nothing of
it is stored, and the server goes on serving the game (the restart: test_server_restart.py)."""

from __future__ import annotations

import json
import threading

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from app.net import protocol
from app.net.client import NetClient, NetError, play_seat
from conftest import start_server, stop_server
from test_server import seated


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for this module's tests (each plays its own game): a server's start is most
    of a test's time."""
    started = start_server(tmp_path_factory.mktemp("server"))
    try:
        yield started
    finally:
        stop_server(started["proc"])


def raw_login(ws, player: str, key: Ed25519PrivateKey) -> dict:
    """Answers the server's challenge by hand; returns the hello frame sent."""
    challenge = json.loads(ws.recv(timeout=5))
    message = protocol.challenge_message(bytes.fromhex(challenge["nonce"]), challenge["server"])
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    hello = {"player": player, "key": public, "signature": key.sign(message).hex()}
    ws.send(json.dumps(hello))
    assert json.loads(ws.recv(timeout=5))["ok"] is True
    return hello


def mover_and_finish(alice: NetClient, bob: NetClient, game: str = "g1"):
    """The player the game waits for, and the FinishStep its choices offer."""
    mover = alice if alice.request("status", game=game)["my_turn"] else bob
    _, found = mover.choices(game)
    decision = next(d for d in found if d.pending)
    return mover, decision.find("FinishStep")[0].base()


def refusal(out: dict) -> str:
    assert out["accepted"] is False, out
    return out["reason"]


def test_a_command_for_a_power_the_player_does_not_hold_is_refused(server):
    alice, bob = seated(server, "power")
    with alice, bob:
        before = alice.request("status", game="power")["seq"]
        for client, foreign in ((alice, "ussr"), (bob, "germany")):
            out = client.submit("power", {"type": "FinishStep", "actor": foreign})
            assert out["accepted"] is False
            assert f"player {client.player!r} does not control {foreign}" in out["reason"]
        assert alice.request("status", game="power")["seq"] == before


def test_a_forged_or_replayed_command_signature_is_refused_and_nothing_stored(server, monkeypatch):
    alice, bob = seated(server, "forged")
    with alice, bob:
        mover, finish = mover_and_finish(alice, bob, "forged")
        signed: list[str] = []
        honest_sign = NetClient._sign

        def keep(self, msg, game):  # signs honestly and keeps what it sent
            original_send = self.ws.send
            self.ws.send = lambda text: (signed.append(json.loads(text)["signature"]), original_send(text))[1]
            try:
                honest_sign(self, msg, game)
            finally:
                self.ws.send = original_send
        monkeypatch.setattr(NetClient, "_sign", keep)
        assert mover.submit("forged", finish)["accepted"] is True
        mover, finish = mover_and_finish(alice, bob, "forged")
        seq = mover.request("status", game="forged")["seq"]

        forger = Ed25519PrivateKey.generate()
        monkeypatch.setattr(NetClient, "_sign", lambda self, msg, game: self.ws.send(json.dumps(
            {"op": "signature", "signature": forger.sign(bytes.fromhex(msg["message"])).hex()})))
        assert refusal(mover.submit("forged", finish)) == f"{mover.player}'s signature does not match the key this game recorded"
        # the signature of the earlier command, sent again for this one (a replayed message)
        monkeypatch.setattr(NetClient, "_sign", lambda self, msg, game: self.ws.send(json.dumps(
            {"op": "signature", "signature": signed[-1]})))
        assert refusal(mover.submit("forged", finish)) == f"{mover.player}'s signature does not match the key this game recorded"
        monkeypatch.setattr(NetClient, "_sign", lambda self, msg, game: self.ws.send(json.dumps(
            {"op": "signature", "signature": "not hex"})))
        assert refusal(mover.submit("forged", finish)).startswith(f"{mover.player}'s signature is not hexadecimal")
        assert mover.request("status", game="forged")["seq"] == seq  # nothing of them stored
        monkeypatch.setattr(NetClient, "_sign", honest_sign)
        assert mover.submit("forged", finish)["accepted"] is True


def test_a_replayed_challenge_answer_is_refused(server):
    key = Ed25519PrivateKey.generate()
    with connect(server["url"], open_timeout=5) as ws:
        hello = raw_login(ws, "alice", key)
    with connect(server["url"], open_timeout=5) as ws:  # a listener replays it on a connection of its own
        json.loads(ws.recv(timeout=5))
        ws.send(json.dumps(hello))
        answer = json.loads(ws.recv(timeout=5))
    assert answer["ok"] is False and "does not match the key" in answer["error"]


def test_malformed_frames_are_answered_with_the_reason_and_the_connection_reads_on(server):
    alice, bob = seated(server, "bad")
    with alice, bob:
        seq = alice.request("status", game="bad")["seq"]
        with connect(server["url"], open_timeout=5) as ws:
            raw_login(ws, "mallory", Ed25519PrivateKey.generate())
            for frame, reason in (("{not json", "not JSON"), (b"\x00\x01", "a binary frame"),
                                  ("[1, 2]", "a JSON list, not an object")):
                ws.send(frame)
                answer = json.loads(ws.recv(timeout=5))
                assert answer["ok"] is False and answer["error"].startswith("malformed frame") and reason in answer["error"]
            for request, reason in (({"op": "fly"}, "unknown request 'fly'"),
                                    ({"op": "create", "game": "g2"}, "create: the request has no 'seats'"),
                                    ({"op": "chat", "game": "bad", "since": "x"}, "invalid literal"),
                                    ({"op": "join", "game": "nowhere"}, "no game 'nowhere' on this server")):
                ws.send(json.dumps({"id": 7, **request}))
                answer = json.loads(ws.recv(timeout=5))
                assert answer == {"id": 7, "ok": False, "error": answer["error"]} and reason in answer["error"], answer
            ws.send(json.dumps({"op": "list", "id": 8}))  # still served
            answer = json.loads(ws.recv(timeout=5))
            assert answer["ok"] is True and "bad" in [g["game"] for g in answer["games"]]
        with connect(server["url"], open_timeout=5) as ws:  # a frame far larger than any request: that connection closes
            raw_login(ws, "mallory", Ed25519PrivateKey.generate())
            ws.send("x" * (2 * 1024 * 1024))
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big
        # a player's own malformed requests: named, nothing stored
        for fields, reason in (({"op": "submit", "game": "bad"}, "submit: the request has no 'command'"),
                               ({"op": "submit", "game": "bad", "command": "FinishStep"}, "command: a JSON object"),
                               ({"op": "submit", "game": "bad", "command": {"type": "Teleport", "actor": "germany"}},
                                "Teleport"),
                               ({"op": "expand", "game": "bad", "seq": seq, "path": [99, 0]}, "expand: list index"),
                               ({"op": "expand", "game": "bad", "seq": seq}, "expand: the request has no 'path'")):
            op = fields.pop("op")
            try:
                out = alice.request(op, **fields)
            except NetError as exc:
                assert reason in str(exc)
            else:
                assert out["accepted"] is False and reason in out["reason"], out
        assert alice.request("status", game="bad")["seq"] == seq


def test_a_client_that_never_answers_is_let_go_and_its_command_not_stored(tmp_path):
    started = start_server(tmp_path, "--client-timeout", "1")
    try:
        url = started["url"]
        with connect(url, open_timeout=5) as ws:  # never answers the challenge
            json.loads(ws.recv(timeout=5))
            answer = json.loads(ws.recv(timeout=10))
            assert answer["ok"] is False and "no answer to the challenge in 1 s" in answer["error"]
        alice, bob = seated(started)
        with alice, bob:
            mover, finish = mover_and_finish(alice, bob)
            other = bob if mover is alice else alice
            seq = mover.request("status", game="g1")["seq"]
            mover.ws.send(json.dumps({"op": "submit", "id": 50, "game": "g1", "command": finish}))
            assert json.loads(mover.ws.recv(timeout=10))["op"] == "sign"  # ... and never signs
            answer = json.loads(mover.ws.recv(timeout=10))
            assert answer["id"] == 50 and refusal(answer) == f"{mover.player} did not sign the command in 1 s"
            assert other.request("status", game="g1")["seq"] == seq  # nothing stored; the game still answers
            assert mover.submit("g1", finish)["accepted"] is True
    finally:
        stop_server(started["proc"])


def test_a_command_for_a_finished_game_is_refused(server, tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "players"))
    url, seats = server["url"], {"alice": ["red"], "bob": ["blue", "green"]}
    with NetClient(url, "alice") as alice:
        alice.create("s1", "skirmish", seats, seed=1)
        alice.join("s1")
    results: dict = {}

    def seat(player):
        with NetClient(url, player) as client:
            results[player] = play_seat(client, "s1", "random", seed=5, seconds=120)

    threads = [threading.Thread(target=seat, args=(p,)) for p in seats]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=180)
    assert all(status["finished"] for _, status in results.values()), results
    with NetClient(url, "alice") as alice:
        status = alice.join("s1")
        assert status["finished"] is True
        _, found = alice.choices("s1")
        assert not [d for d in found if d.pending]
        out = alice.submit("s1", {"type": "FinishStep", "actor": "red"})
        assert out["accepted"] is False and out["reason"] == "the game is over"
        assert alice.request("status", game="s1")["seq"] == status["seq"]


def test_a_server_that_never_answers_is_named_by_the_client(monkeypatch):
    import socket

    from app.net import client as client_module

    monkeypatch.setattr(client_module, "CONNECT_TIMEOUT", 0.5)
    with socket.socket() as listener:  # accepts the connection and says nothing
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        url = f"ws://127.0.0.1:{listener.getsockname()[1]}/ws"
        with pytest.raises(NetError, match=f"cannot reach the server at {url}"):
            NetClient(url, "alice")


def test_a_server_that_sends_no_challenge_or_is_not_a_game_server_is_named_by_the_client(server, monkeypatch):
    from websockets.sync.server import serve

    from app.net import client as client_module

    monkeypatch.setattr(client_module, "CONNECT_TIMEOUT", 0.5)
    with serve(lambda ws: ws.recv(), "127.0.0.1", 0) as silent:  # a WebSocket server that says nothing
        threading.Thread(target=silent.serve_forever, daemon=True).start()
        url = f"ws://127.0.0.1:{silent.socket.getsockname()[1]}/ws"
        with pytest.raises(NetError, match=f"the server at {url} did not complete the challenge in 0.5 s"):
            NetClient(url, "alice")
        silent.shutdown()
    wrong = server["url"].replace("/ws", "/nowhere")  # the game server, at a path it does not serve
    with pytest.raises(NetError, match=f"cannot reach the server at {wrong}"):
        NetClient(wrong, "alice")
