"""PBEM dice (docs/FAIRPLAY.md "The dice", kernel/pbem_dice.py): a Barbarossa game played by
two machines through turn files, each roll declared, answered with the other player's nonce,
then rolled; and the cheats: foreseeing a die, rolling again, a false reveal, a reused nonce, a
second declaration, a file of another game or replayed, a die that does not re-derive."""

from __future__ import annotations

import json
import shutil
import sqlite3
from types import SimpleNamespace

import pytest

from app.bots import Bot, Tally, play_pending
from app.pbem import TurnRefused, _body_message, export_turn, import_turn
from kernel import keys as keyring
from kernel import pbem_dice
from kernel.dice import JointDice, commit, joint_key
from kernel.errors import SaveFileError, WifError
from kernel.game import Game
from kernel.verify import verify

SIDES = {"alice": "axis", "bob": "allies"}


class Table:
    """Two players' machines (a config dir each) and their copies of one PBEM game."""

    def __init__(self, tmp_path, monkeypatch):
        self.tmp, self.monkeypatch = tmp_path, monkeypatch
        self.saves = {p: tmp_path / f"{p}.wif" for p in SIDES}
        self.bots = {"alice": Bot("random", 1), "bob": Bot("random", 2)}
        self.tally = Tally()
        self.files = 0
        self.sitting = ""

    def use(self, player: str) -> None:
        self.monkeypatch.setenv("WIF_CONFIG_DIR", str(self.tmp / f"{player}-config"))
        self.sitting = player

    def start(self, name: str = "alice.wif") -> None:
        self.use("bob")
        bob_key = keyring.public_key_hex("bob", create=True)
        self.use("alice")
        Game.new("barbarossa", self.tmp / name, players={"alice": ["germany"], "bob": ["ussr"]},
                 player_keys={"bob": bob_key}, pbem=True).close()
        if name == "alice.wif":
            shutil.copyfile(self.saves["alice"], self.saves["bob"])  # the first e-mail: the new game

    def play(self, player: str) -> str:
        """``player`` plays until the game waits for the other; what it waits for, if a roll."""
        self.use(player)
        with Game.open(self.saves[player], player=player) as game:
            while self.tally.decisions < 3000 and play_pending(game, {SIDES[player]: self.bots[player]}, self.tally):
                pass
            assert not self.tally.refused, self.tally.refused[:3]
            return game.choices(player).waiting

    def send(self, sender: str) -> dict | None:
        """``sender``'s turn file; None when he has nothing to send (the other player moves)."""
        self.use(sender)
        try:
            return export_turn(self.saves[sender], sender)
        except WifError as exc:
            if "has no new commands" not in str(exc):
                raise
            return None

    def receive(self, receiver: str, turn: dict):
        self.use(receiver)
        self.files += 1
        return import_turn(self.saves[receiver], turn, receiver)

    def round(self, player: str) -> dict | None:
        """``player`` plays, sends his turn file, the other imports it."""
        self.play(player)
        turn = self.send(player)
        if turn is not None:
            self.receive(other(player), turn)
        return turn

    def until_declared(self, player: str = "bob", rolls: int = 1) -> tuple[str, dict]:
        """Play rounds until a roll is declared for the ``rolls``-th time: (roller, his file)."""
        seen = 0
        while self.files < 60:
            waiting = self.play(player)
            turn = self.send(player)
            if turn is None:
                player = other(player)
                continue
            if turn["turn"]["declared"] is not None:
                seen += 1
                if seen == rolls:
                    assert waiting.startswith(f"waiting for {other(player)}'s dice nonce for {player}'s")
                    return player, turn
            self.receive(other(player), turn)
            player = other(player)
        raise AssertionError("no roll declared in 60 turn files")


def other(player: str) -> str:
    return "bob" if player == "alice" else "alice"


@pytest.fixture
def table(tmp_path, monkeypatch):
    t = Table(tmp_path, monkeypatch)
    t.start()
    return t


def event_rows(save):
    with sqlite3.connect(save) as conn:
        return conn.execute("SELECT seq, type, data, hash FROM events ORDER BY seq").fetchall()


def resign(table: Table, turn: dict, player: str) -> dict:
    """A cheating sender signs his altered file again (he holds his own key)."""
    table.use(player)
    turn["signature"] = keyring.signer(player).sign(_body_message(turn["turn"])).hex()
    return turn


# ---------------------------------------------------------------- a game through turn files
def test_two_machines_play_barbarossa_by_turn_files_and_every_die_re_derives(table):
    player, rolls = "bob", 0
    while table.files < 14 or rolls < 2:
        turn = table.round(player)
        rolls += turn is not None and turn["turn"]["nonce"] is not None
        player = other(player)
        assert table.files < 40, "fewer than two rolls in 40 turn files"
    # the same log on both machines, except that a file answering a roll with its nonce lets the
    # receiver roll and play on through the automatic steps, which the sender's copy runs when
    # the next file comes (the last file was such one about half the time, by the dice)
    shorter, longer = sorted((event_rows(table.saves[name]) for name in SIDES), key=len)
    assert shorter == longer[:len(shorter)] and len(shorter) > 100
    for name in SIDES:
        table.use(name)
        report = verify(table.saves[name], as_player=name)
        assert report.ok, report.problems
        assert report.fairness.startswith("fair PBEM dice, each re-derived")
        with Game.open(table.saves[name]) as game:
            rolled = {r.cmd for r in game.history() if r.type == "DiceRolled"}
            records = pbem_dice.records(game.store)
            assert rolled and rolled <= {s for s, r in records.items() if "secret" in r and "nonce" in r}


def test_the_roller_cannot_foresee_his_die_and_the_game_says_whom_it_waits_for(table, capsys):
    from app.cli import main

    roller, turn = table.until_declared()
    granter = other(roller)
    rec = turn["turn"]["declared"]
    table.use(roller)
    before = event_rows(table.saves[roller])
    with Game.open(table.saves[roller], player=roller) as game:
        assert pbem_dice.pending(game)["commitment"] == rec["commitment"]
        assert "nonce" not in rec and "secret" not in rec  # the file carries only his commitment
        again = game.submit(json.loads(rec["command"]), player=roller)  # asking again rolls nothing
        assert again.accepted and not again.events and again.reason.startswith(f"waiting for {granter}'s dice nonce")
        other_cmd = {"type": "FinishStep", "actor": json.loads(rec["command"])["actor"]}
        if other_cmd != json.loads(rec["command"]):
            refused = game.submit(other_cmd, player=roller)
            assert not refused.accepted and "nothing else is decided before it" in refused.reason
    assert event_rows(table.saves[roller]) == before
    assert main(["choices", str(table.saves[roller])]) == 0
    assert f"The game is waiting for {granter}'s dice nonce for {roller}'s" in capsys.readouterr().out
    assert main(["pbem", "status", str(table.saves[roller])]) == 0
    assert f"send {granter} the turn file" in capsys.readouterr().out
    assert main(["submit", str(table.saves[roller]), rec["command"], "--as", roller]) == 0
    assert f"declared: the game is waiting for {granter}'s dice nonce" in capsys.readouterr().err

    table.receive(granter, turn)
    nonce_file = table.send(granter)
    nonce = nonce_file["turn"]["nonce"]["nonce"]
    assert table.send(granter)["turn"]["nonce"]["nonce"] == nonce  # one declaration, one nonce
    done = table.receive(roller, nonce_file)
    assert done.rolled == [f"{pbem_dice.command_type(rec)} at seq {rec['seq']}"]
    with Game.open(table.saves[roller]) as game:
        revealed = pbem_dice.records(game.store)[rec["seq"]]
    # all the roller held before the nonce (his secret) with any guess of it is not the die's key
    secret = bytes.fromhex(revealed["secret"])
    assert joint_key(secret, b"\x00" * 32, game.identity.game_id, rec["seq"]) != \
        joint_key(secret, bytes.fromhex(nonce), game.identity.game_id, rec["seq"])


def test_rolling_again_gives_the_same_die_or_is_refused(table):
    roller, turn = table.until_declared()
    granter = other(roller)
    table.use(roller)
    backup = table.tmp / "backup.wif"
    shutil.copyfile(table.saves[roller], backup)  # the roller keeps a copy from before the roll
    table.receive(granter, turn)
    nonce_file = table.send(granter)
    table.receive(roller, nonce_file)
    rolled = event_rows(table.saves[roller])

    # discard the rolled save and import the nonce again: his own receipt refuses the older
    # copy; with the receipt deleted too, the same die
    shutil.copyfile(backup, table.saves[roller])
    with pytest.raises(SaveFileError, match=f"player '{roller}' saw this game up to seq"):
        table.receive(roller, nonce_file)
    shutil.rmtree(table.tmp / f"{roller}-config" / "receipts")
    table.receive(roller, nonce_file)
    assert event_rows(table.saves[roller]) == rolled
    with pytest.raises(TurnRefused, match="replayed or old turn file"):
        table.receive(roller, nonce_file)

    # discard it and declare another command at the same place (a client changed to do so): the
    # other player refuses it
    shutil.copyfile(backup, table.saves[roller])
    shutil.rmtree(table.tmp / f"{roller}-config" / "receipts")
    table.use(roller)
    with Game.open(table.saves[roller], player=roller) as game:
        rec = dict(pbem_dice.pending(game))
        command = json.loads(rec["command"])
        rec["command"] = json.dumps({**command, "type": "FinishStep"} if command["type"] != "FinishStep"
                                    else {**command, "note": "again"}, sort_keys=True)
        rec["declared_sig"] = keyring.signer(roller).sign(pbem_dice.declaration_message(game.identity.game_id, rec)).hex()
        recs = pbem_dice.records(game.store)
        recs[rec["seq"]] = rec
        pbem_dice.save_records(game.store, recs)
    with pytest.raises(TurnRefused, match=f"seq {rec['seq']}: {roller} declared another roll here before"):
        table.receive(granter, table.send(roller))


def test_a_false_reveal_a_reused_nonce_and_a_false_nonce_are_refused_with_the_seq(table):
    roller, turn = table.until_declared()
    granter = other(roller)
    seq = turn["turn"]["declared"]["seq"]
    table.receive(granter, turn)
    table.receive(roller, table.send(granter))
    first_nonce = None
    table.use(roller)
    with Game.open(table.saves[roller]) as game:
        first_nonce = pbem_dice.records(game.store)[seq]["nonce"]
    rolled = table.send(roller)  # the rolled command, its secret revealed
    assert rolled["turn"]["rolls"][0]["seq"] == seq

    false_reveal = json.loads(json.dumps(rolled))
    false_reveal["turn"]["rolls"][0]["secret"] = "11" * 32
    with pytest.raises(TurnRefused, match=f"seq {seq}: the revealed roll secret does not match {roller}'s commitment"):
        table.receive(granter, resign(table, false_reveal, roller))
    false_nonce = json.loads(json.dumps(rolled))
    false_nonce["turn"]["rolls"][0]["nonce"] = "22" * 32
    with pytest.raises(TurnRefused, match=f"seq {seq}: the dice nonce is not the one {granter} gave"):
        table.receive(granter, resign(table, false_nonce, roller))
    table.receive(granter, rolled)

    # the next roll: whoever declares it, a nonce used before is refused
    roller2, turn2 = table.until_declared(roller)
    granter2 = other(roller2)
    table.receive(granter2, turn2)
    nonce_file = table.send(granter2)
    reused = json.loads(json.dumps(nonce_file))
    reused["turn"]["nonce"]["nonce"] = first_nonce
    with pytest.raises(TurnRefused, match=f"seq {turn2['turn']['declared']['seq']}: the dice nonce was used before, "
                                          f"at seq {seq}"):
        table.receive(roller2, resign(table, reused, granter2))
    table.receive(roller2, nonce_file)


def test_a_file_of_another_game_and_a_replayed_declaration_are_refused(table):
    roller, turn = table.until_declared()
    granter = other(roller)
    table.receive(granter, turn)
    with pytest.raises(TurnRefused, match="replayed or old turn file: it brings nothing"):
        table.receive(granter, turn)
    table.start("another.wif")
    table.use(granter)
    with pytest.raises(TurnRefused, match="the turn file is of game .*, this save is game"):
        import_turn(table.tmp / "another.wif", turn, granter)


def test_verify_re_derives_every_die_and_names_the_seq_of_one_that_differs(table):
    roller, turn = table.until_declared()
    granter = other(roller)
    seq = turn["turn"]["declared"]["seq"]
    table.receive(granter, turn)
    table.receive(roller, table.send(granter))
    table.receive(granter, table.send(roller))
    # both players agree to sign a record whose secret opens another commitment: every signature
    # holds, only the dice differ from the log
    table.use(granter)
    with Game.open(table.saves[granter], player=granter) as game:
        game_id = game.identity.game_id
        rec = dict(pbem_dice.records(game.store)[seq])
        rolled = [r for r in game.history() if r.type == "DiceRolled" and r.cmd == seq][0]
    for attempt in range(1, 50):  # a secret whose first die differs from the one the log has
        secret = bytes([attempt]) * 32
        die = JointDice(secret, bytes.fromhex(rec["nonce"]), game_id, seq,
                        SimpleNamespace(kernel=SimpleNamespace(seq=rolled.seq - 1)))
        if die.draw(rolled.data["purpose"], rolled.data["faces"], len(rolled.data["results"])) != rolled.data["results"]:
            break
    rec["secret"] = secret.hex()
    rec["commitment"] = commit(secret, game_id, seq)
    table.use(roller)
    rec["declared_sig"] = keyring.signer(roller).sign(pbem_dice.declaration_message(game_id, rec)).hex()
    table.use(granter)
    rec["grant_sig"] = keyring.signer(granter).sign(pbem_dice.grant_message(game_id, rec)).hex()
    with Game.open(table.saves[granter], player=granter) as game:
        recs = pbem_dice.records(game.store)
        recs[seq] = rec
        pbem_dice.save_records(game.store, recs)
    report = verify(table.saves[granter])
    assert not report.ok
    assert report.first_bad_seq == rolled.seq, report.problems
    assert f"seq {rolled.seq}: the log has DiceRolled" in report.problems[0]


# ---------------------------------------------------------------- the commands
def test_wif_pbem_key_and_new_start_a_joint_game_and_bad_input_is_named(tmp_path, monkeypatch, capsys):
    from app.cli import main

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "bob-config"))
    assert main(["pbem", "key", "--as", "bob"]) == 0
    bob_key = capsys.readouterr().out.strip()
    assert len(bytes.fromhex(bob_key)) == 32
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "alice-config"))
    save = tmp_path / "game.wif"
    seats = ["--seat", "alice=germany", "--seat", "bob=ussr"]
    assert main(["pbem", "new", "barbarossa", "--save", str(save), *seats, "--key", "bob=zz"]) == 1
    assert "--key 'bob=zz': not a public key" in capsys.readouterr().err
    assert main(["pbem", "new", "barbarossa", "--save", str(save), *seats, "--key", f"bob={bob_key}"]) == 0
    assert "new PBEM game of barbarossa" in capsys.readouterr().out
    with Game.open(save) as game:
        assert game.identity.dice == pbem_dice.JOINT and game.identity.keys["bob"] == bob_key
    assert main(["pbem", "status", str(save)]) == 0
    assert "waiting for ussr to decide (fair (PBEM)" in capsys.readouterr().out
    with pytest.raises(WifError, match="a PBEM game's dice come from both players .*: it cannot be seeded"):
        Game.new("barbarossa", tmp_path / "seeded.wif", seed=3, pbem=True,
                 players={"alice": ["germany"], "bob": ["ussr"]}, player_keys={"bob": bob_key})
    with pytest.raises(WifError, match="a PBEM game is played by two players; 1 are given"):
        Game.new("barbarossa", tmp_path / "solo.wif", pbem=True)
