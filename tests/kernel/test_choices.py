"""Decisions API: Game.choices / Game.preview / Game.dry_run and the choices tree, on the
kernel's skirmish scenario."""

import random

import pytest

from kernel.choices import CommandChoice, Field, Option, one_of, prune
from kernel.errors import WifError
from kernel.game import Game


@pytest.fixture
def duel(tmp_path):
    game = Game.new("skirmish", tmp_path / "duel.wif", seed=3,
                    players={"alice": ["red"], "bob": ["blue", "green"]})
    yield game
    game.close()


def _mover(game):
    k = game.state.kernel
    return k.sequence.pending[0], k.controllers[k.sequence.pending[0]]


def test_choices_for_the_decider_list_its_commands_and_finish_step(duel):
    power, player = _mover(duel)
    found = duel.choices(player)
    assert [d.decider for d in found.decisions] == [power]
    types = [c.type for c in found.decisions[0].commands]
    assert "FinishStep" in types and "MoveCounter" in types
    assert all(c.actor == power for c in found.decisions[0].commands)


def test_choices_for_a_player_who_decides_nothing_are_empty_not_an_error(duel):
    power, player = _mover(duel)
    other = "bob" if player == "alice" else "alice"
    found = duel.choices(other)
    assert found.decisions == [] and not found.finished


def test_choices_for_an_unknown_player_name_the_players(duel):
    with pytest.raises(WifError, match="'mallory' is not a player of this game.*alice, bob"):
        duel.choices("mallory")


def test_every_offered_command_is_accepted(duel):
    power, player = _mover(duel)
    rng = random.Random(5)
    for choice in duel.choices(player).commands():
        if choice.source != "rules":
            continue
        for cmd in choice.commands(limit=200) + [choice.sample(rng) for _ in range(20)]:
            out = duel.dry_run(cmd, player=player)
            assert out.accepted, (cmd, out.reason)


def test_dry_run_stores_nothing_and_leaves_the_state_as_it_was(duel):
    power, player = _mover(duel)
    before, seq = duel.state.to_json(), duel.store.last()[0]
    out = duel.dry_run({"type": "FinishStep", "actor": power}, player=player)
    assert out.accepted and out.events
    assert duel.state.to_json() == before and duel.store.last()[0] == seq
    assert not duel.dry_run({"type": "FinishStep", "actor": power}, player="nobody-here").accepted


def test_a_command_with_no_choices_function_falls_back_to_its_schema(duel):
    duel.host.choices.pop("MoveCounter", None)
    power, player = _mover(duel)
    found = duel.choices(player)
    move = found.decisions[0].find("MoveCounter")[0]
    assert move.source == "schema" and found.schema_only == ["MoveCounter"]
    assert {f.name for f in move.fields} == {"counter", "to"}


def test_a_choices_function_that_raises_is_named(duel):
    from kernel.plugins import ChoicesEntry

    def broken(state, actor, step):
        raise KeyError("oops")

    duel.host.choices["MoveCounter"] = ChoicesEntry(broken, None, "skirmish")
    power, player = _mover(duel)
    with pytest.raises(WifError, match="plugin .skirmish.: choices for MoveCounter raised .*KeyError"):
        duel.choices(player)


def test_preview_of_an_illegal_command_gives_the_reason_a_submit_would(duel):
    power, player = _mover(duel)
    other = "bob" if player == "alice" else "alice"
    told = duel.preview({"type": "FinishStep", "actor": power}, player=other)
    assert told["legal"] is False and "does not control" in told["reason"]
    assert duel.preview({"type": "FinishStep", "actor": power}, player=player) == {"legal": True}


def test_choices_after_the_game_is_over_say_so(duel):
    for _ in range(3000):
        k = duel.state.kernel
        if k.sequence.finished:
            break
        power = k.acting_power()
        assert duel.submit({"type": "FinishStep", "actor": power}, player=k.controllers[power]).accepted
    assert duel.choices("alice").finished and duel.choices("alice").decisions == []


# ---------------------------------------------------------------- the tree itself
def test_prune_drops_options_whose_dependent_field_is_empty_and_commands_with_an_empty_field():
    fields = [Field("unit", "unit", [Option("a", then=[Field("to", "hex", [Option((1, 2))])]),
                                     Option("b", then=[Field("to", "hex", [])])])]
    kept = prune(fields)
    assert [o.value for o in kept[0].all_options()] == ["a"]
    assert prune([Field("unit", "unit", [])]) is None
    assert prune([Field("units", "units", [Option("x")], min=2)]) is None


def test_lazy_branches_are_built_only_when_looked_at_and_sampling_steps_back_from_empty_ones():
    built = []

    def destinations(unit):
        built.append(unit)
        return [Field("to", "hex", [] if unit == "stuck" else [Option((3, 4))])]

    choice = CommandChoice("Move", "red", [one_of("unit", "unit", ["stuck", "free"], then=destinations)])
    assert built == []
    for seed in range(10):
        assert choice.sample(random.Random(seed)) == {"type": "Move", "actor": "red", "unit": "free", "to": [3, 4]}
    assert choice.commands() == [{"type": "Move", "actor": "red", "unit": "free", "to": [3, 4]}]


def test_a_units_field_samples_subsets_within_its_bounds():
    choice = CommandChoice("Attack", "red", [Field("units", "units", [Option(u) for u in "abcd"], min=1, max=3)])
    for seed in range(30):
        cmd = choice.sample(random.Random(seed))
        assert 1 <= len(cmd["units"]) <= 3 and len(set(cmd["units"])) == len(cmd["units"])
    assert {"type": "Attack", "actor": "red", "units": ["a", "b", "c"]} in choice.commands()


def test_dry_run_never_touches_the_state_object_lazy_choices_read(duel):
    power, player = _mover(duel)
    held = duel.state
    before = held.to_json()
    assert duel.dry_run({"type": "FinishStep", "actor": power}, player=player).accepted
    assert duel.state is held and held.to_json() == before


def test_a_choices_function_naming_host_gets_the_plugin_host(duel):
    from kernel.plugins import ChoicesEntry

    seen = []

    def asks_hooks(state, actor, step, host):
        seen.append(host)
        return []

    duel.host.choices["MoveCounter"] = ChoicesEntry(asks_hooks, None, "skirmish")
    power, player = _mover(duel)
    duel.choices(player)
    assert seen == [duel.host]
