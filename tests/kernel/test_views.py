"""Views that hide what the rules hide (issue 13): a player's log and state carry no trace of
what they hide, neither the hashes of hidden events nor the game's secrets.

The hidden thing here is Air-to-air Combat: Arrange Units: "neither side sees how the other
side has arranged its units until both sides click on the 'Axis/Allies Ready' button"."""

from functools import partial
from itertools import permutations

from helpers import air_unit, ok, unit
from kernel.events import canonical_json, chain_hash, command_digest, command_link
from kernel.game import Game

TARGET = (203, 54)
GE_BASE, SU_BASE = (201, 51), (207, 53)
PLAYERS = {"alice": ["germany"], "bob": ["ussr"]}


def air_combat_arranging(save):
    """Lab: two German bombers escorted by two fighters met by two Soviet fighters; the game
    waits at Arrange Units, alice (Germany) against bob (USSR)."""
    land = partial(unit, combat=3, move=3)
    units = [air_unit("s1", "germany", "tac", GE_BASE, tactical=3, range_=8),
             air_unit("s2", "germany", "tac", GE_BASE, tactical=2, range_=8),
             air_unit("f1", "germany", "ftr", GE_BASE, air=5, range_=8),
             air_unit("f2", "germany", "ftr", GE_BASE, air=4, range_=8),
             land("r1", "ussr", TARGET),
             air_unit("i1", "ussr", "ftr", SU_BASE, air=3, range_=10),
             air_unit("i2", "ussr", "ftr", SU_BASE, air=2, range_=10)]
    options = {"units": units, "actions": {"germany": "air"}, "start_at": "turn.impulse.independent-air.ground-strike"}
    game = Game.new("lab", save, seed=3, options=options, extra_plugins=["air"], players=PLAYERS)
    ok(game, type="FinishStep", actor="ussr")
    for uid in ("s1", "s2"):
        ok(game, type="FlyMission", actor="germany", unit=uid, hex=list(TARGET))
    for uid in ("f1", "f2"):
        ok(game, type="FlyMission", actor="germany", unit=uid, hex=list(TARGET), role="escort")
    ok(game, type="FinishStep", actor="germany")
    for uid in ("i1", "i2"):
        ok(game, type="FlyIntercept", actor="ussr", unit=uid, hex=list(TARGET))
    ok(game, type="FinishStep", actor="ussr")
    assert game.state.kernel.sequence.current.endswith("arrange-units")
    return game


def guess_hidden_arrangement(view: list, candidates: list[dict]) -> list[dict]:
    """The attack of issue 13: a gap in bob's view is alice's AirLineArranged; try each
    possible arrangement as that event's data (and as her command, which a signed game links
    into the chain before its first event) and keep those whose hash makes the next shown
    event's hash."""
    by_seq = {r.seq: r for r in view}
    game_id = view[0].data.get("game_id", "")
    hits = []
    for rec in view:
        hidden = rec.seq + 1
        after = by_seq.get(hidden + 1)
        if hidden in by_seq or after is None:
            continue
        for data in candidates:
            command = {"type": "ArrangeAirLine", "actor": "germany", "fighters": data["fighters"],
                       "bombers": data["bombers"]}
            links = [rec.hash] + [command_link(rec.hash, command_digest(game_id, hidden, player, canonical_json(command)))
                                  for player in PLAYERS]
            probe = type(rec)(hidden, "AirLineArranged", 1, "germany", after.turn, after.impulse, after.step,
                              hidden, data)
            for prev in links:
                h = chain_hash(prev, probe.header_json(), canonical_json(data))
                if chain_hash(h, after.header_json(), canonical_json(after.data)) == after.hash:
                    hits.append(data)
    return hits


CANDIDATES = [{"side": "axis", "fighters": list(f), "bombers": list(b)}
              for f in permutations(["f1", "f2"]) for b in permutations(["s1", "s2"])]


def test_arrange_units_hidden_arrangement_cannot_be_recovered_from_the_view_hashes(save):
    game = air_combat_arranging(save)
    ok(game, type="ArrangeAirLine", actor="germany", fighters=["f2", "f1"], bombers=["s2", "s1"])
    secret = {"side": "axis", "fighters": ["f2", "f1"], "bombers": ["s2", "s1"]}
    # the attack works against the stored log (it is what the old view gave away) ...
    stored = game.history()
    hidden_seq = next(r.seq for r in stored if r.type == "AirLineArranged")
    without = [r for r in stored if r.seq != hidden_seq]
    assert guess_hidden_arrangement(without, CANDIDATES) == [secret]
    # ... and finds nothing in bob's view, which has its own chain
    bobs = game.history(player="bob")
    assert hidden_seq not in [r.seq for r in bobs] and not any(r.type == "AirLineArranged" for r in bobs)
    assert guess_hidden_arrangement(bobs, CANDIDATES) == []
    stored_hashes = {r.hash for r in stored}
    assert not stored_hashes & {r.hash for r in bobs}  # no stored hash at all: each chains on the hidden one
    # the view's chain is bob's to check: each hash from the one before and the event as shown
    prev = b"\x00" * 32
    for rec in bobs:
        prev = chain_hash(prev, rec.header_json(), canonical_json(rec.data))
        assert rec.hash == prev
    # alice sees her own arrangement
    assert secret in [r.data for r in game.history(player="alice") if r.type == "AirLineArranged"]


def test_a_view_starting_later_has_the_same_hashes_as_the_whole_view(save):
    game = air_combat_arranging(save)
    ok(game, type="ArrangeAirLine", actor="germany", fighters=["f2", "f1"], bombers=["s2", "s1"])
    whole = {r.seq: r.hash for r in game.history(player="bob")}
    later = game.history(from_seq=20, player="bob")
    assert later[0].seq >= 20 and all(whole[r.seq] == r.hash for r in later)


def test_views_carry_no_secret_of_the_game(save):
    game = air_combat_arranging(save)
    for player in PLAYERS:
        state = game.view(player)
        assert "seed" not in state["kernel"] and "dice_playback" not in state["kernel"]
        started = game.history(1, 1, player=player)[0]
        assert started.type == "GameStarted" and "seed" not in started.data
    assert game.view(None)["kernel"]["seed"] == 3  # the game itself (not a player) knows its seed


def test_wif_log_and_state_as_a_player_hide_the_arrangement_and_the_seed(save, capsys):
    from app.cli import main

    game = air_combat_arranging(save)
    ok(game, type="ArrangeAirLine", actor="germany", fighters=["f2", "f1"], bombers=["s2", "s1"])
    stored = {r.hash.hex() for r in game.history()}
    game.close()
    assert main(["log", str(save), "--json", "--as", "bob"]) == 0
    import json

    shown = json.loads(capsys.readouterr().out)
    assert shown and not any(e["type"] == "AirLineArranged" for e in shown)
    assert not stored & {e["hash"] for e in shown}
    assert "seed" not in shown[0]["data"]
    assert main(["state", str(save), "--json", "--as", "bob"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert "seed" not in state["kernel"] and "axis" not in state["sections"]["air"]["mission"]["combat"]["arranged"]


def test_wif_log_json_streams_the_same_text_as_one_json_list(save, capsys):
    import json

    from app.cli import main

    game = Game.new("skirmish", save, seed=1)
    whole = [r.as_dict() for r in game.history()]
    game.close()
    assert main(["log", str(save), "--json"]) == 0
    assert capsys.readouterr().out == json.dumps(whole, indent=2, ensure_ascii=False) + "\n"
    assert main(["log", str(save), "--json", "--from", "99999"]) == 0
    assert capsys.readouterr().out == "[]\n"


def test_wif_log_and_state_as_a_player_need_that_players_key(save, tmp_path, monkeypatch, capsys):
    from app.cli import main
    from kernel import keys

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    air_combat_arranging(save).close()  # hot seat: both players' keys made on this machine
    assert main(["log", str(save), "--as", "bob"]) == 0
    capsys.readouterr()
    assert main(["log", str(save), "--as", "mallory"]) == 1
    assert "'mallory' is not a player of this game (players: alice, bob)" in capsys.readouterr().err
    keys.key_path("bob").unlink()
    for command in ("log", "state"):
        assert main([command, str(save), "--as", "bob"]) == 1
        assert "showing the game as 'bob' needs bob's key, which is not on this machine" in capsys.readouterr().err
    keys.private_key("bob", create=True)  # another key of the same name is not bob's
    assert main(["state", str(save), "--as", "bob"]) == 1
    assert "the key of 'bob' on this machine is not the one this game recorded" in capsys.readouterr().err
    assert main(["log", str(save), "--as", "alice"]) == 0
