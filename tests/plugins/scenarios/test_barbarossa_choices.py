"""Barbarossa's decisions: PlaceUnit and RestoreSetup offered from the same checks as their
handlers (Setup Tray, Reinforcements), and a bot that only picks among choices gets through
setup and into the turns.  Named after the seed sections."""

from __future__ import annotations

import random

import pytest

from helpers import offered
from kernel.game import Game
from plugins.scenarios.barbarossa import TRAY, oob, placement_problem, scenario_state, tray_units

SETUP_PLACING = "wif.new-game.setup.set-up-each-major-power.placing-units-on-the-map"
REINF_PLACING = "wif.procedures.reinforcements.placing-units-on-map"


@pytest.fixture
def game(tmp_path):
    g = Game.new("barbarossa", tmp_path / "b.wif", seed=7)
    yield g
    g.close()


def all_accepted(game, choice, limit=200, samples=50):
    # Built before any is tried: a dry run leaves the state object it changed to lazy branches.
    cmds = choice.commands(limit=limit) + [choice.sample(random.Random(i)) for i in range(samples)]
    for cmd in cmds:
        out = game.dry_run(cmd)
        assert out.accepted, (cmd, out.reason)
    return cmds


def hexes_for(choice, unit_id):
    [option] = [o for o in choice.fields[0].all_options() if o.value == unit_id]
    return {tuple(o.value) for f in option.next_fields() for o in f.all_options()}


def by_choices(game, stop, limit=3000):
    """A bot that submits only what the choices offer: the tray restored, Germany first,
    a Pass action, else FinishStep."""
    prefer = ("RestoreSetup", "ChooseFirstMover", "ChooseAction", "FinishStep")
    for _ in range(limit):
        if stop(game) or game.state.kernel.sequence.finished:
            return
        cmds = game.choices().commands()
        assert cmds, f"nothing offered at {game.state.kernel.sequence.current}"
        pick = min(cmds, key=lambda c: prefer.index(c.type) if c.type in prefer else len(prefer))
        cmd = pick.sample(random.Random(0), lambda f, opts: next((o for o in opts if o.value in ("axis", "pass")), None))
        out = game.submit(cmd)
        assert out.accepted, (cmd, out.reason)
    raise AssertionError("the bot did not get there")


# ---------------------------------------------------------------- Setup Tray
def test_setup_tray_place_unit_offers_the_units_of_the_tray(game):
    power = game.state.kernel.sequence.pending[0]
    [choice] = offered(game, "PlaceUnit")
    units = [o.value for o in choice.fields[0].all_options()]
    assert units == tray_units(game.state, power)
    labels = [o.label for o in choice.fields[0].all_options()]
    assert all("in the tray" in label for label in labels)


def test_setup_tray_a_unit_is_offered_exactly_the_legal_hexes_of_its_setup_area(game):
    power = game.state.kernel.sequence.pending[0]
    [choice] = offered(game, "PlaceUnit")
    for uid in tray_units(game.state, power)[:3]:
        area = oob.area_hexes(oob.scenario_data().unit(uid).area)
        hexes = hexes_for(choice, uid)
        assert hexes and hexes <= area
        assert hexes == {h for h in area if placement_problem(game.state, power, uid, h) is None}
        assert tuple(oob.scenario_data().unit(uid).hex) in hexes  # its default position


def test_setup_tray_every_offered_placement_is_accepted(game):
    [choice] = offered(game, "PlaceUnit")
    cmds = all_accepted(game, choice)
    told = game.preview(cmds[0])
    assert told["legal"] and told["area"]


def test_setup_tray_a_placed_unit_is_offered_again_until_the_power_finishes(game):
    power = game.state.kernel.sequence.pending[0]
    uid = tray_units(game.state, power)[0]
    default = list(oob.scenario_data().unit(uid).hex)
    assert game.submit({"type": "PlaceUnit", "actor": power, "unit": uid, "hex": default}).accepted
    [choice] = offered(game, "PlaceUnit")
    options = {o.value: o.label for o in choice.fields[0].all_options()}
    assert uid in options and "placed at" in options[uid]
    all_accepted(game, choice, limit=50, samples=20)


def test_setup_tray_restore_setup_is_offered_while_units_wait_and_finish_step_places_them(game):
    power = game.state.kernel.sequence.pending[0]
    [restore] = offered(game, "RestoreSetup")
    assert restore.fields == []
    told = game.preview({"type": "RestoreSetup", "actor": power})
    assert len(told["placements"]) == len(tray_units(game.state, power))
    all_accepted(game, restore, samples=1)
    # the units left in the tray go to their defaults: finishing is offered (not mandatory)
    assert offered(game, "FinishStep")
    assert game.submit({"type": "RestoreSetup", "actor": power}).accepted
    assert not offered(game, "RestoreSetup")
    assert not tray_units(game.state, power)


def test_setup_tray_the_power_not_setting_up_is_offered_nothing(game):
    power = game.state.kernel.sequence.pending[0]
    other = next(p for p in game.state.kernel.powers() if p != power)
    entry = game.host.choices["PlaceUnit"]
    assert entry.choices(game.state, other, SETUP_PLACING) is None
    assert game.host.choices["RestoreSetup"].choices(game.state, other, SETUP_PLACING) is None


# ---------------------------------------------------------------- Reinforcements
def test_reinforcements_placed_from_choices_in_the_reinforcement_area_only(game):
    by_choices(game, lambda g: g.state.kernel.sequence.current == REINF_PLACING)
    assert game.state.kernel.turn == 2
    for choice in offered(game, "PlaceUnit"):
        power = choice.actor
        ids = [o.value for o in choice.fields[0].all_options()]
        assert set(tray_units(game.state, power)) <= set(ids) <= set(scenario_state(game.state).tray[power])
        for uid in ids[:2]:
            area = oob.area_hexes(oob.scenario_data().unit(uid).area)
            assert hexes_for(choice, uid) <= area
        all_accepted(game, choice, limit=100, samples=20)


def test_reinforcements_a_bot_on_choices_only_gets_every_unit_on_the_map(game):
    by_choices(game, lambda g: g.state.kernel.turn == 2 and g.state.kernel.sequence.current != REINF_PLACING
               and not g.state.kernel.sequence.stack)
    arriving = [u.id for u in oob.scenario_data().units if u.turn <= 2]
    assert all(game.state["units"].units[u].where != TRAY for u in arriving)
