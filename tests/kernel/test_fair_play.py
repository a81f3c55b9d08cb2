"""Fair play (issue 13 items 1-2, docs/FAIRPLAY.md): each cheat the issue lists now fails,
with its reason naming the table and seq.  Games are real skirmish games; the config dir is
the test run's own (tests/conftest.py sets WIF_CONFIG_DIR)."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3

import pytest

from kernel import keys as keyring
from kernel import receipts
from kernel.errors import SaveFileError, WifError
from kernel.events import GENESIS_HASH, EventRecord, canonical_json, chain_hash, command_digest, command_link
from kernel.events import meta_message, signed_message
from kernel.fairplay import Identity, signed_head
from kernel.game import Game
from kernel.store import EventStore
from kernel.verify import verify
from tools.bench_kernel import _commands


def played(save, commands: int = 60, seed: int | None = None, **new) -> Game:
    game = Game.new("skirmish", save, seed=seed, **new)
    source = _commands(game, random.Random(3))
    for _ in range(commands):
        cmd = next(source, None)
        if cmd is None:
            break
        assert game.submit(cmd).accepted
    return game


def rows(save) -> list[tuple]:
    with sqlite3.connect(save) as conn:
        return conn.execute("SELECT * FROM events ORDER BY seq").fetchall()


def unlocked(save) -> sqlite3.Connection:
    """The save as a cheater sees it: sqlite with the append-only triggers dropped."""
    conn = sqlite3.connect(save, isolation_level=None)
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger' AND name LIKE '%_no_%'").fetchall():
        conn.execute(f"DROP TRIGGER {name}")
    return conn


def rewrite(save, edit, resign_as: str | None = None) -> None:
    """Change event data with ``edit(seq, type, data) -> data``, then re-chain everything as
    the kernel would (command links included); ``resign_as``: a player who holds his key
    re-signs every command and the meta as well (the strongest cheat)."""
    conn = unlocked(save)
    started = json.loads(conn.execute("SELECT data FROM events WHERE seq=1").fetchone()[0])
    ident = Identity.from_game_started(started)
    commands = {r[0]: list(r) for r in EventStore(save, conn).commands()}  # the JSON as signed
    signer = keyring.signer(resign_as) if resign_as else None
    prev, head_before = GENESIS_HASH, GENESIS_HASH
    for seq, type_, v, actor, turn, impulse, step, cmd, data, _ in conn.execute("SELECT * FROM events ORDER BY seq").fetchall():
        if seq in commands:
            head_before = prev
            first, last, player, command_json, _sig = commands[seq]
            prev = command_link(prev, command_digest(ident.game_id, first, player, command_json))
        new = canonical_json(edit(seq, type_, json.loads(data)))
        rec = EventRecord(seq, type_, v, actor, turn, impulse, step, cmd, None)
        prev = chain_hash(prev, rec.header_json(), new)
        conn.execute("UPDATE events SET data=?, hash=? WHERE seq=?", (new, prev, seq))
        owner = commands.get(cmd)
        if signer and owner and owner[1] == seq:
            owner[4] = signer.sign(signed_message(ident.game_id, owner[0], owner[1], owner[2], owner[3],
                                                  signed_head(ident, head_before), signed_head(ident, prev)))
            conn.execute("UPDATE command_log SET signature=? WHERE first_seq=?", (owner[4], owner[0]))
    set_meta(conn, "head", [seq, prev.hex()], resign_as, ident)
    conn.close()


def set_meta(conn, key, value, resign_as=None, ident=None) -> None:
    conn.execute("UPDATE meta SET value=? WHERE key=?", (canonical_json(value), key))
    if resign_as:
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        sig = keyring.signer(resign_as).sign(meta_message(ident.game_id, meta))
        conn.execute("UPDATE meta SET value=? WHERE key='meta_signature'",
                     (canonical_json({"player": resign_as, "signature": sig.hex()}),))


def first_dice(save) -> tuple[int, dict]:
    return next((r[0], json.loads(r[8])) for r in rows(save) if r[1] == "DiceRolled")


def fails(save, *words, **kw):
    report = verify(save, **kw)
    assert not report.ok, "verify passed a cheated save"
    text = " | ".join(report.problems)
    for w in words:
        assert w in text, f"{w!r} not in: {text}"
    return report


# ---------------------------------------------------------------- dice nobody can foresee
def test_a_fair_game_keeps_no_seed_anywhere_and_no_secret_in_the_save(save):
    game = played(save)
    meta = game.store.all_meta()
    assert "seed" not in meta and meta["dice"] == "host"
    started = game.history(1, 1)[0].data
    assert started["seed"] is None and started["dice"] == "host" and len(started["dice_commitment"]) == 64
    assert game.state.kernel.seed == 0
    game.close()
    secret = keyring.host_secret()
    blob = save.read_bytes() + (save.with_name(save.name + "-wal").read_bytes() if save.with_name(save.name + "-wal").exists() else b"")
    assert secret not in blob and secret.hex().encode() not in blob
    assert verify(save).fairness.startswith("fair dice, re-derived")


def test_the_same_moves_in_two_fair_games_roll_other_dice(tmp_path):
    # 40 skirmish commands roll two d10: two games agree by chance once in 100, five games
    # all agree once in 10^8
    games = [played(tmp_path / f"{n}.wif", 40) for n in range(5)]
    dice = lambda g: tuple(tuple(r.data["results"]) for r in g.history() if r.type == "DiceRolled")
    assert all(dice(g) for g in games) and len({dice(g) for g in games}) > 1
    for g in games:
        g.close()


def test_a_seeded_game_says_it_is_not_fair(save):
    played(save, 10, seed=5).close()
    report = verify(save)
    assert report.ok and report.fairness == "seeded (not fair)"


def test_a_dry_run_does_not_show_the_dice_the_real_command_rolls(save):
    game = Game.new("skirmish", save)
    seen = set()
    for _ in range(30):
        cmd = {"type": "FinishStep", "actor": game.state.kernel.acting_power()}
        dry = [r.data["results"] for r in game.dry_run(cmd).events if r.type == "DiceRolled"]
        real = [r.data["results"] for r in game.submit(cmd).events if r.type == "DiceRolled"]
        if dry and real:
            seen.add(dry == real)
    game.close()
    assert False in seen  # the dry run's dice are its own


def test_a_host_dice_game_elsewhere_cannot_roll_and_verify_checks_the_recorded_dice(save, tmp_path, monkeypatch):
    played(save, 20).close()
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(keyring.config_dir() / "keys", elsewhere / "keys")  # same player, not the same host
    monkeypatch.setenv("WIF_CONFIG_DIR", str(elsewhere))
    report = verify(save)
    assert report.ok and report.fairness.endswith("(the host key is not on this machine)")
    game = Game.open(save)
    refused = []
    while not refused and not game.state.kernel.sequence.finished:  # on to the next turn's initiative roll
        out = game.submit({"type": "FinishStep", "actor": game.state.kernel.acting_power()})
        refused += [] if out.accepted else [out.reason]
    assert refused and "the host key of the machine that started it" in refused[0]
    game.close()


# ---------------------------------------------------------------- a log nobody can rewrite
def test_a_die_changed_and_rechained_fails_on_the_signature(save):
    played(save).close()
    seq, data = first_dice(save)
    rewrite(save, lambda s, t, d: {**d, "results": [d["faces"] + 1 - r for r in d["results"]]} if s == seq else d)
    fails(save, "table commands, seq", "does not match the command and its events")


def test_a_die_changed_and_resigned_by_the_player_fails_when_redecided(save):
    played(save).close()
    seq, data = first_dice(save)
    changed = [data["faces"] + 1 - r for r in data["results"]]
    rewrite(save, lambda s, t, d: {**d, "results": changed} if s == seq else d, resign_as="solo")
    report = fails(save, f"table events, seq {seq}: the log has DiceRolled", "again gives DiceRolled")
    assert report.first_bad_seq == seq


def test_a_rewritten_victory_fails(save):
    game = played(save, 10, seed=2)
    while not game.state.kernel.sequence.finished:
        assert game.submit({"type": "FinishStep", "actor": game.state.kernel.acting_power()}).accepted
    game.close()
    last = rows(save)[-1]
    assert last[1] == "SequenceFinished"
    rewrite(save, lambda s, t, d: {**d, "reason": "east wins outright"} if s == last[0] else d, resign_as="solo")
    fails(save, f"table events, seq {last[0]}: the log has SequenceFinished")


def test_a_move_appended_and_rechained_fails(save):
    played(save).close()
    *_, (seq, type_, v, actor, turn, impulse, step, cmd, data, h) = rows(save)
    rec = EventRecord(seq + 1, "CounterMoved", 1, "red", turn, impulse, step, seq + 1, None)
    moved = canonical_json({"counter": "r1", "to": [5, 5]})
    conn = unlocked(save)
    conn.execute("INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?,?)",
                 (seq + 1, "CounterMoved", 1, "red", turn, impulse, step, seq + 1, moved, chain_hash(h, rec.header_json(), moved)))
    conn.close()
    fails(save, f"table events, seq {seq + 1}: no signed command made this CounterMoved event")


def test_a_command_signed_by_someone_else_fails(save):
    played(save).close()
    mallory = keyring.signer("mallory", create=True)
    conn = unlocked(save)
    first = conn.execute("SELECT MAX(first_seq) FROM command_log").fetchone()[0]
    conn.execute("INSERT OR IGNORE INTO names (name) VALUES ('mallory')")
    conn.execute("UPDATE command_log SET player=(SELECT id FROM names WHERE name='mallory'), signature=? "
                 "WHERE first_seq=?", (mallory.sign(b"x"), first))
    conn.close()
    assert fails(save, f"seq {first}").first_bad_seq == first


@pytest.mark.parametrize("cut", [1, 4000])
def test_events_deleted_from_the_end_fail(save, cut):
    played(save, 200).close()
    last = rows(save)[-1][0]
    cut = min(cut, last - 2)
    conn = unlocked(save)
    conn.execute("DELETE FROM events WHERE seq > ?", (last - cut,))
    conn.close()
    fails(save, f"the log ends at seq {last - cut}")


def test_whole_commands_deleted_from_the_end_with_the_head_fixed_fail_on_the_meta(save):
    played(save, 100).close()
    conn = unlocked(save)
    first = conn.execute("SELECT MAX(first_seq) FROM command_log").fetchone()[0]
    conn.execute("DELETE FROM events WHERE seq >= ?", (first,))
    conn.execute("DELETE FROM command_log WHERE first_seq >= ?", (first,))
    h = conn.execute("SELECT hash FROM events WHERE seq=?", (first - 1,)).fetchone()[0]
    set_meta(conn, "head", [first - 1, h.hex()])
    conn.close()
    fails(save, "table meta: its signature does not match")


@pytest.mark.parametrize("key, value", [("seed", 7), ("dev_modified", True),
                                        ("plugin_history", [{"plugin": "skirmish", "from": "x", "to": "y"}])])
def test_meta_edited_fails(save, key, value):
    played(save, 20).close()
    conn = unlocked(save)
    conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, canonical_json(value)))
    conn.close()
    fails(save, "table meta")


def test_an_edited_snapshot_is_ignored_with_a_warning_and_fails_verify(tmp_path):
    save = tmp_path / "game.wif"
    game = Game.new("skirmish", save, snapshot_every=20)
    source = _commands(game, random.Random(3))
    for _ in range(80):
        assert game.submit(next(source)).accepted
    truth = game.state.to_json()
    game.close()
    conn = unlocked(save)
    seq, blob = conn.execute("SELECT seq, state FROM snapshots ORDER BY seq DESC LIMIT 1").fetchone()
    import zlib

    state = json.loads(zlib.decompress(blob))
    state["kernel"]["turn"] = 99
    conn.execute("UPDATE snapshots SET state=? WHERE seq=?", (zlib.compress(canonical_json(state).encode()), seq))
    conn.close()
    game = Game.open(save)
    assert game.state.to_json() == truth
    assert any(f"table snapshots, seq {seq}: its signature does not match" in w for w in game.store.warnings)
    game.close()
    fails(save, f"table snapshots, seq {seq}")


# ---------------------------------------------------------------- keys and receipts
def test_a_player_without_his_key_here_cannot_move(save):
    other = keyring.signer("bob-elsewhere", create=True).public_hex
    game = Game.new("skirmish", save, players={"alice": ["red"], "bobpbem": ["blue", "green"]},
                    player_keys={"bobpbem": other})
    outcomes = []
    for _ in range(20):
        k = game.state.kernel
        actor = k.acting_power()
        outcomes.append((k.controllers[actor], game.submit({"type": "FinishStep", "actor": actor}, player=None)))
        if not outcomes[-1][1].accepted:
            break
    player, last = outcomes[-1]
    assert player == "bobpbem" and not last.accepted
    assert "player 'bobpbem' has no key on this machine" in last.reason
    game.close()


def test_receipts_catch_an_older_copy_of_the_save(save, tmp_path):
    game = played(save, 30)
    old_copy = tmp_path / "old.wif"
    game.close()
    shutil.copy(save, old_copy)
    game = Game.open(save, player="solo")
    source = _commands(game, random.Random(9))
    for _ in range(10):
        assert game.submit(next(source)).accepted
    seen = game.store.last()[0]
    game.close()
    shutil.copy(old_copy, save)  # the opponent sends back an older save: events cut from the end
    with pytest.raises(SaveFileError, match=f"player 'solo' saw this game up to seq {seen}"):
        Game.open(save, player="solo")
    fails(save, f"saw this game up to seq {seen}", as_player="solo")
    assert verify(save).ok  # without a receipt the older copy is a consistent game


def test_receipts_catch_a_rewritten_history(save):
    game = played(save, 30)
    seq = game.store.last()[0]
    game.close()
    rewrite(save, lambda s, t, d: {**d, "changed": True} if s == seq else d, resign_as="solo")
    with pytest.raises(SaveFileError, match=f"saw another event at seq {seq}"):
        Game.open(save, player="solo")


def test_verify_as_a_player_needs_that_players_key(save):
    played(save, 5).close()
    fails(save, "player 'nobody' has no key on this machine", as_player="nobody")
    keyring.signer("carol", create=True)
    fails(save, "player 'carol': this game does not record your key", as_player="carol")
    assert verify(save, as_player="solo").ok


def test_a_clean_game_verifies_with_every_command_signed_and_redecided(save):
    game = played(save, 120)
    n = len(list(game.store.commands()))
    game.close()
    report = verify(save)
    assert report.ok, report.problems
    assert report.commands == n == report.redecided + 0 and report.signed


def test_receipt_file_is_in_the_config_dir_not_the_save(save):
    game = played(save, 5)
    game_id, (seq, head) = game.identity.game_id, game.store.last()
    game.close()  # receipts are written at most every 2 s, and when the game closes
    assert receipts.read(game_id, "solo") == (seq, head.hex())
    assert str(keyring.config_dir()) in str(receipts.receipt_path(game_id, "solo"))


# ---------------------------------------------------------------- looking ahead in a copy
def test_a_copy_played_ahead_cannot_come_back_and_roll_the_same_places(save, tmp_path):
    game = played(save, 10)
    game.close()
    ahead = tmp_path / "ahead.wif"
    shutil.copy(save, ahead)
    look = Game.open(ahead)
    while not any(r.type == "DiceRolled" for r in look.submit({"type": "FinishStep", "actor": look.state.kernel.acting_power()}).events):
        pass  # on to a roll: the cheater now knows it
    look.close()
    back = Game.open(save)
    assert back.read_only and "this machine rolled that game's dice further" in back.problems[-1]
    assert not back.submit({"type": "FinishStep", "actor": back.state.kernel.acting_power()}).accepted
    back.close()


def test_a_fork_rolls_its_own_dice_and_says_so(save, tmp_path):
    game = played(save, 10, options={"turns": 20})
    at = game.state.kernel.seq
    fork = game.fork(at, tmp_path / "fork.wif")
    def to_a_roll(g):
        for _ in range(200):
            out = g.submit({"type": "FinishStep", "actor": g.state.kernel.acting_power()})
            assert out.accepted, out.reason
            rolled = [r for r in out.events if r.type == "DiceRolled"]
            if len(rolled) >= 2:  # the next turn's two initiative dice
                return [(r.seq, r.data["results"]) for r in rolled]
        raise AssertionError("no roll in 200 commands")
    rolls_a, rolls_b = [], []
    for _ in range(4):
        rolls_a += to_a_roll(game)
        rolls_b += to_a_roll(fork)
    assert [s for s, _ in rolls_a] == [s for s, _ in rolls_b]
    assert rolls_a != rolls_b  # same places, other dice (8 d10 all the same by chance: 1 in 10^8)
    fork.close(); game.close()
    report = verify(tmp_path / "fork.wif")
    assert report.ok, report.problems
    assert report.fairness.startswith(f"fair dice up to the fork at seq {at}")
    assert verify(save).ok


def test_a_fork_where_no_player_of_the_game_has_his_key_is_refused_with_the_reason(save, tmp_path, monkeypatch):
    played(save, 10).close()
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "a-stranger"))  # no key of this game here
    game = Game.open(save)
    with pytest.raises(WifError, match="none of its players has a key on this machine"):
        game.fork(game.state.kernel.seq, tmp_path / "fork.wif")
    game.close()
    assert not (tmp_path / "fork.wif").exists()
