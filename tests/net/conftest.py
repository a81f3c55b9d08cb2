"""A `wif serve` subprocess on a free loopback port, with its own config dir (the server's
key and dice secret), always stopped by the fixture's finalizer."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 20.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wif_command(*args: str) -> list[str]:
    return [sys.executable, "-c", "import sys; from app.cli import main; sys.exit(main())", *args]


def start_server(tmp_path: Path, *extra: str, port: int | None = None) -> dict:
    """A `wif serve` on a loopback port, its games and config dir under ``tmp_path`` (the same
    ones again for a restart: pass the first one's ``port`` too, so the clients' receipts,
    kept per URL, still name it)."""
    port = port or free_port()
    # the rules' warm-up (app/net/warmup.py, 2-3 s of CPU) is left to the servers that
    # measure (tools/bench_net.py) and to test_server_warmup.py: these tests start many
    env = {**os.environ, "WIF_CONFIG_DIR": str(tmp_path / "server-config"), "WIF_SERVE_WARM": "0"}
    proc = subprocess.Popen(wif_command("serve", "--port", str(port), "--games", str(tmp_path / "games"), *extra),
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                stop_server(proc)
                out = proc.stdout.read().decode()
                pytest.fail(f"wif serve did not start on port {port}: {out}")
            time.sleep(0.1)
    return {"url": f"ws://127.0.0.1:{port}/ws", "port": port, "games": tmp_path / "games", "proc": proc, "env": env,
            "wif": wif_command, "root": ROOT}


def stop_server(proc: subprocess.Popen, kill: bool = False) -> None:
    if proc.poll() is None:
        proc.kill() if kill else proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


@pytest.fixture
def server(tmp_path):
    started = start_server(tmp_path)
    try:
        yield started
    finally:
        stop_server(started["proc"])


def replayed_locally(server_save: Path, local_save: Path) -> tuple[list, list, dict, dict]:
    """The server's game played again as a local game: its commands, in order, each by its
    player, with the dice the server's log recorded (RecordedDice: a roll the local game asks
    for at another place, or of another kind, fails).  Returns (server events, local events,
    server state, local state), the events after the first (GameStarted names its own game),
    for the caller to compare.  The players' keys must be in this process's config dir."""
    from kernel import keys as keyring
    from kernel.dice import RecordedDice
    from kernel.game import Game

    def events_of(game):
        return [(r.seq, r.type, r.actor, r.turn, r.impulse, r.step, r.data) for r in game.history(2)]

    with Game.open(server_save, read_only=True) as served:
        k = served.state.kernel
        players: dict[str, list[str]] = {player: [] for player in served.players()}
        for power, player in k.controllers.items():
            players.setdefault(player, []).append(power)
        recorded = {r.seq: r.data for r in served.history() if r.type == "DiceRolled"}
        commands = [(player, text) for _, _, player, text, _ in served.store.commands(2)]  # after NewGame
        scenario, plugin_set = k.scenario, served.plugin_set
        served_events, served_state = events_of(served), served.state.to_dict()
    for player in players:
        keyring.public_key_hex(player, create=True)
    with Game.new(scenario, local_save, players=players) as local:  # no optional rules: these tests add none
        assert local.plugin_set == plugin_set
        local.dice_source = lambda ctx: RecordedDice(recorded, ctx.state)
        for player, text in commands:
            out = local.submit(json.loads(text), player=player)
            assert out.accepted, f"the local game refused {text} of {player}: {out.reason}"
        return served_events, events_of(local), served_state, local.state.to_dict()
