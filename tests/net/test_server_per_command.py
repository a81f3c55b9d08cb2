"""docs/NETWORK.md "Receipts and reconnecting", and what the server writes per command: a
remote player's receipt is the client's (an HMAC tag the server checks on join), so the
server's own disk keeps only the server player's receipt; and a reply is sent as built
(compact JSON, no key sorting: no signature is made over it); and the server's GIL switch
interval."""

from __future__ import annotations

import json
from pathlib import Path

from app.net.client import NetClient
from app.net.rooms import SERVER_PLAYER, ServerReceipts
from kernel import receipts

from conftest import stop_server
from test_server import seated


def test_the_server_keeps_its_own_receipt_only(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path))
    keeper = ServerReceipts("abc123")
    keeper.saw("alice", 5, b"\x01" * 32)
    keeper.saw(SERVER_PLAYER, 6, b"\x02" * 32)
    keeper.flush()
    assert receipts.read("abc123", "alice") is None
    assert receipts.read("abc123", SERVER_PLAYER) == (6, "02" * 32)


def test_a_server_game_writes_no_receipt_of_its_remote_players(server):
    alice, bob = seated(server)
    with alice, bob:
        mover = alice if alice.request("status", game="g1")["my_turn"] else bob
        decision = [d for d in mover.choices("g1")[1] if d.pending][0]
        assert mover.submit("g1", decision.find("FinishStep")[0].base())["accepted"] is True
        # the client kept its own receipt, as before
        assert mover.request("join", game="g1", receipt=mover.request("status", game="g1")["receipt"])["started"]
    stop_server(server["proc"])  # the game is closed: whatever it keeps is flushed now
    kept = sorted(p.name for p in (Path(server["env"]["WIF_CONFIG_DIR"]) / "receipts").rglob("*.json"))
    assert "alice.json" not in kept and "bob.json" not in kept
    assert f"{SERVER_PLAYER}.json" in kept


def test_a_reply_comes_as_built_not_sorted(server):
    with NetClient(server["url"], "alice") as alice:
        alice.create("g1", "barbarossa", {"alice": ["germany"], "bob": ["ussr"]})
        alice.ws.send(json.dumps({"op": "list", "id": 7}))
        raw = alice.ws.recv(timeout=10)
    assert raw.startswith('{"id":7,"ok":true,"games":[{"game":"g1","scenario":"barbarossa"'), raw[:120]


def test_serve_shortens_the_gil_switch_interval(tmp_path, monkeypatch):
    """app/net/server.py SWITCH_INTERVAL: the event loop's frames wait less for the GIL while a
    game's long command computes on its worker."""
    import sys

    import uvicorn

    from app.net import server

    ran = []
    monkeypatch.setenv("WIF_SERVE_WARM", "0")
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: ran.append(options))
    before = sys.getswitchinterval()
    try:
        server.serve("127.0.0.1", 0, tmp_path / "games")
        assert sys.getswitchinterval() == server.SWITCH_INTERVAL < before
    finally:
        sys.setswitchinterval(before)
    assert ran and ran[0]["host"] == "127.0.0.1"
