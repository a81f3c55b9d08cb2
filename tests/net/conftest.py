"""A `wif serve` subprocess on a free loopback port, with its own config dir (the server's
key and dice secret), always stopped by the fixture's finalizer."""

from __future__ import annotations

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
