"""Barbarossa played to its end through the `wif submit` command line, fixed seed.

The policy is the scripted game's (scripted.play_scripted, drawn from the choices); every command it makes
goes through `wif submit` (the CLI's code path, in-process so the test stays fast), and a
read-only view of the save follows along with `Game.refresh()`."""

import contextlib
import io
import json
from types import SimpleNamespace

from app.cli import main
from kernel.game import Game
from scripted import play_scripted


class CliPlayer:
    """Looks like a Game to the policy, but every decision is a `wif submit`."""

    def __init__(self, path):
        self.path = path
        self.reader = Game.open(path, read_only=True)
        self.commands = 0

    @property
    def state(self):
        return self.reader.state

    def legal_commands(self):
        return self.reader.legal_commands()

    def choices(self, player=None):
        return self.reader.choices(player)

    def submit(self, command, player="solo"):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["submit", str(self.path), json.dumps(command), "--as", player])
        self.commands += 1
        self.reader.refresh()
        if code == 0:
            return SimpleNamespace(accepted=True, events=json.loads(out.getvalue()), reason="")
        return SimpleNamespace(accepted=False, events=[], reason=err.getvalue().strip())


def test_barbarossa_scripted_through_wif_submit_to_the_victory_result(tmp_path, capsys):
    path = tmp_path / "cli.wif"
    assert main(["new", "barbarossa", "--save", str(path), "--seed", "1941"]) == 0
    player = CliPlayer(path)
    play_scripted(player)
    k = player.state.kernel
    assert k.sequence.finished and k.turn == 5
    final = player.state.to_json()
    result = player.state["barbarossa"].result
    assert result and sum(result["objectives"].values()) > 0
    player.reader.close()
    capsys.readouterr()
    # the event log replays to the same final state, and the save verifies
    with Game.open(path) as again:
        assert again.state.to_json() == final
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert "OK" in out
    # the victory result is in the log, in words
    assert main(["log", str(path), "--from", str(k.seq - 40)]) == 0
    assert "wins" in capsys.readouterr().out
