"""Naval Replacements (seed 000 "Naval Replacements", "Replacements"): "A few naval units have
replacement units available in later years"; the replacement goes to the force pool or the
construction pool.  Guadalcanal has neither pool (no production, reinforcements by turn), so its
Replacements subphase is skipped with that reason, never "no rule yet"."""

from kernel.game import Game

REPLACEMENTS = "wif.procedures.reinforcements.replacements"


def test_naval_replacements_are_not_part_of_guadalcanal(tmp_path):
    g = Game.new("guadalcanal", tmp_path / "g.wif", seed=3)
    reason = g.host.pm.hook.skip_step(state=g.state, step_id=REPLACEMENTS, spec=g.sequence_index.specs[REPLACEMENTS])
    assert reason and "Naval Replacements" in reason and "construction pool" in reason
