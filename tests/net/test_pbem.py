"""Play by e-mail (issue #15, item 4): a signed turn file of one player's new commands is
appended to the other player's copy after its checks; a tampered or replayed file is refused
with the reason."""

from __future__ import annotations

import json
import shutil

import pytest

from app.bots import Bot, Tally, play_pending
from app.pbem import TurnRefused, _body_message, export_turn, import_turn
from kernel import keys as keyring
from kernel.game import Game


@pytest.fixture
def machines(tmp_path, monkeypatch):
    """Two players' machines (config dirs); ``use(name)`` sits at one of them."""
    def use(name: str):
        monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / f"{name}-config"))
    use("bob")
    bob_key = keyring.public_key_hex("bob", create=True)
    use("alice")
    keyring.public_key_hex("alice", create=True)
    alice_save, bob_save = tmp_path / "alice.wif", tmp_path / "bob.wif"
    Game.new("barbarossa", alice_save, seed=5, players={"alice": ["germany"], "bob": ["ussr"]},
             player_keys={"bob": bob_key}).close()
    shutil.copyfile(alice_save, bob_save)  # the first e-mail: the new game itself
    return use, alice_save, bob_save


def play_until_waiting(save, side: str) -> int:
    with Game.open(save) as game:
        tally = Tally()
        while tally.decisions < 400 and play_pending(game, {side: Bot("random", 3)}, tally):
            pass
        assert not tally.refused
        return tally.commands


def test_a_turn_file_is_appended_then_refused_when_replayed_or_tampered(machines, tmp_path):
    use, alice_save, bob_save = machines
    use("bob")
    assert play_until_waiting(bob_save, "allies") > 0
    turn = export_turn(bob_save, "bob")
    (tmp_path / "turn.json").write_text(json.dumps(turn))

    use("alice")
    tampered = json.loads(json.dumps(turn))
    first = tampered["turn"]["commands"][0]
    first["command"] = first["command"].replace('"ussr"', '"germany"', 1)
    with pytest.raises(TurnRefused, match="changed after bob signed it"):
        import_turn(alice_save, tampered, as_player="alice")
    appended = import_turn(alice_save, turn, as_player="alice")
    assert appended.commands == len(turn["turn"]["commands"])
    with Game.open(alice_save) as a, Game.open(bob_save) as b:
        assert a.store.last() == b.store.last()
    with pytest.raises(TurnRefused, match="replayed or old turn file"):
        import_turn(alice_save, turn, as_player="alice")


def test_a_turn_whose_command_bob_did_not_sign_is_refused(machines):
    use, alice_save, bob_save = machines
    use("bob")
    play_until_waiting(bob_save, "allies")
    turn = export_turn(bob_save, "bob")
    body = turn["turn"]
    body["commands"][0]["signature"] = "00" * 64  # re-signed as a whole, but one command's own signature is false
    turn["signature"] = keyring.signer("bob").sign(_body_message(body)).hex()
    use("alice")
    with pytest.raises(TurnRefused, match="does not verify"):
        import_turn(alice_save, turn, as_player="alice")
    with Game.open(alice_save) as a:
        assert a.store.last()[0] < body["commands"][-1]["last"]  # nothing was appended


def test_wif_pbem_export_and_import_from_the_command_line(machines, tmp_path, capsys):
    from app.cli import main

    use, alice_save, bob_save = machines
    use("bob")
    play_until_waiting(bob_save, "allies")
    turn_file = tmp_path / "bob-turn.json"
    assert main(["pbem", "export", str(bob_save), "--as", "bob", "--out", str(turn_file)]) == 0
    use("alice")
    assert main(["pbem", "import", str(alice_save), str(turn_file), "--as", "alice"]) == 0
    assert "appended and verified" in capsys.readouterr().out
    assert main(["pbem", "import", str(alice_save), str(turn_file), "--as", "alice"]) == 1
    assert "replayed or old turn file" in capsys.readouterr().err
