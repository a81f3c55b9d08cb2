"""Every naval event is told in words (the Play form's log, ``wif log``): the naval plugin's
describers (plugins/rules/naval/describe.py), one per event type."""

import random

from helpers import play_by_choices
from plugins.rules.naval.state import rules as naval_rules
from test_naval_air_combat import carriers_at_sea


def test_every_naval_event_type_has_a_describer():
    event_types = [cls.__name__ for cls, _version in naval_rules.events]
    assert len(event_types) >= 30  # the plugin's events, whichever module declares them
    missing = [t for t in event_types if t not in naval_rules.describers]
    assert not missing, f"naval events with no describer: {missing}"


def test_naval_events_of_a_real_combat_read_as_sentences(tmp_path):
    """A German carrier sails into the Baltic and fights a naval air combat to its end: every
    naval event of the game reads as a sentence, not as the kernel's Type(field=...) fallback."""
    g = carriers_at_sea(tmp_path)
    play_by_choices(g, random.Random(5), max_commands=120, until=lambda game: game.state["naval"].combat is None)
    naval_types = {cls.__name__ for cls, _version in naval_rules.events}
    told = [(rec.type, g.describe(rec)) for rec in g.history() if rec.type in naval_types]
    kinds = {t for t, _ in told}
    assert {"NavalGroupMoved", "NavalCombatBegan", "NavalSearchResolved", "NavalCombatTypeSet",
            "NavalCombatEnded"} <= kinds
    for event_type, text in told:
        assert not text.startswith(event_type + "("), text
    moved = next(text for t, text in told if t == "NavalGroupMoved")
    assert moved.startswith("Germany moves") and "Baltic" in moved, moved
    began = next(text for t, text in told if t == "NavalCombatBegan")
    assert began.startswith("Naval combat in the Baltic") or "Baltic" in began, began
