"""WebSocket compression (permessage-deflate) is off unless `wif serve --compress` offers it:
the frames are small and compressing each on the event loop cost the server more CPU a command
than it saved (BENCHMARKS.md, "Network (#15)")."""

from __future__ import annotations

import os
import socket
import subprocess
import time

from websockets.sync.client import connect

from conftest import ROOT, free_port, wif_command


def negotiated(url: str) -> str | None:
    """The extensions the server agreed to when a client offers permessage-deflate."""
    with connect(url, open_timeout=10) as ws:  # websockets offers permessage-deflate by default
        ws.recv(timeout=10)  # the challenge: the server is serving
        return ws.response.headers.get("Sec-WebSocket-Extensions")


def test_wif_serve_leaves_compression_off(server):
    assert negotiated(server["url"]) is None


def test_wif_serve_compress_offers_permessage_deflate(tmp_path):
    port = free_port()
    env = {**os.environ, "WIF_CONFIG_DIR": str(tmp_path / "config")}
    proc = subprocess.Popen(wif_command("serve", "--port", str(port), "--games", str(tmp_path / "games"), "--compress"),
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "wif serve --compress did not start"
                time.sleep(0.1)
        assert "permessage-deflate" in (negotiated(f"ws://127.0.0.1:{port}/ws") or "")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
