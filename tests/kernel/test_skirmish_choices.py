"""The skirmish scenario's decisions: MoveCounter, Attack and Retreat offered from the same
checks their handlers make, so a bot that picks only among choices never has a command refused."""

import random

import pytest

from kernel.game import Game
from plugins.scenarios.skirmish import board, neighbours


@pytest.fixture
def game(tmp_path):
    g = Game.new("skirmish", tmp_path / "s.wif", seed=11, options={"turns": 4, "impulses": 4})
    yield g
    g.close()


def _check_position(game, rng):
    # Every command is built before any is tried: a dry run puts back a copy of the state, and
    # lazy branches built afterwards would read the one it changed.
    choices = game.choices().commands()
    cmds = [cmd for c in choices for cmd in c.commands(limit=100) + [c.sample(rng) for _ in range(5)]]
    for cmd in cmds:
        out = game.dry_run(cmd)
        assert out.accepted, (cmd, out.reason)
    return {c.type for c in choices}


def toward_the_centre(field, options):
    """A bot's pick: move to the hex nearest the middle of the board (so the sides meet)."""
    if field.kind == "hex":
        return min(options, key=lambda o: abs(o.value[0] - 4.5) + abs(o.value[1] - 3.5))
    return None


def test_every_offered_command_is_accepted_over_a_whole_random_game(game):
    rng = random.Random(3)
    seen: set[str] = set()
    for _ in range(400):
        if game.state.kernel.sequence.finished:
            break
        seen |= _check_position(game, rng)
        cmds = game.choices().commands()
        attacks = [c for c in cmds if c.type == "Attack"]
        rules = [c for c in cmds if c.type != "FinishStep"]
        pick = attacks[0] if attacks else rng.choice(rules) if rules and rng.random() < 0.8 else rng.choice(cmds)
        cmd = pick.sample(rng, toward_the_centre)
        assert game.submit(cmd).accepted
    assert game.state.kernel.sequence.finished
    assert {"MoveCounter", "Attack", "FinishStep"} <= seen


def test_move_counter_offers_own_counters_and_only_free_adjacent_hexes(game):
    power = game.state.kernel.sequence.pending[0]
    [move] = [c for c in game.choices().commands() if c.type == "MoveCounter"]
    counters = board(game.state).counters
    offered = {o.value for o in move.fields[0].all_options()}
    assert offered == {cid for cid, c in counters.items() if c.power == power}
    occupied = {c.hex for c in counters.values()}
    for option in move.fields[0].all_options():
        hexes = {tuple(o.value) for f in option.next_fields() for o in f.all_options()}
        assert hexes == set(neighbours(*counters[option.value].hex)) - occupied


def test_retreat_offers_the_beaten_counter_and_its_free_adjacent_hexes(game):
    rng = random.Random(1)
    for _ in range(2000):
        if board(game.state).retreating or game.state.kernel.sequence.finished:
            break
        cmds = game.choices().commands()
        attacks = [c for c in cmds if c.type == "Attack"]
        moves = [c for c in cmds if c.type == "MoveCounter"]
        pick = attacks[0] if attacks else (rng.choice(moves) if moves and rng.random() < 0.9 else cmds[-1])
        assert game.submit(pick.sample(rng, toward_the_centre)).accepted
    cid = board(game.state).retreating
    assert cid, "no attack ended in a retreat"
    [retreat] = [c for c in game.choices().commands() if c.type == "Retreat"]
    assert [o.value for o in retreat.fields[0].all_options()] == [cid]
    counter = board(game.state).counters[cid]
    occupied = {c.hex for c in board(game.state).counters.values()}
    hexes = {tuple(o.value) for f in retreat.fields[0].all_options()[0].next_fields() for o in f.all_options()}
    assert hexes == set(neighbours(*counter.hex)) - occupied
    for cmd in list(retreat.commands()):
        assert game.dry_run(cmd).accepted


def test_attack_preview_gives_the_strength_difference_and_chances(game):
    rng = random.Random(2)
    for _ in range(500):
        attacks = [c for c in game.choices().commands() if c.type == "Attack"]
        if attacks:
            cmd = attacks[0].sample(rng)
            told = game.preview(cmd)
            assert told["legal"] and told["table"] and abs(sum(told["chances"].values()) - 1) < 1e-9
            return
        cmds = game.choices().commands()
        moves = [c for c in cmds if c.type == "MoveCounter"]
        pick = rng.choice(moves) if moves and rng.random() < 0.9 else cmds[-1]
        assert game.submit(pick.sample(rng, toward_the_centre)).accepted
    pytest.fail("no attack was ever offered")
