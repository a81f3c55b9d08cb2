"""Optional rule Kamikaze (seeds "Optional Rules", L2754-2756; "Kamikaze Form", L9952-9990).

The rule is played inside naval air combat: after air-to-air combat Japan declares bombers as
kamikazes (``DeclareKamikaze``), their air-to-sea factors are doubled and the kamikazes are
destroyed after the attack.  That step, command and doubling live in
``plugins/rules/naval/kamikaze.py`` and ``plugins/rules/naval/naval_air_combat.py``, which ask
``plugins.optional.framework.is_on(state, "kamikaze")``.  This plugin is the rule's catalogue
entry: with it the rule can be chosen and toggled.  It requires the naval plugin, so a preset
leaves it OFF in a game without the war at sea (``framework.presets.fits_game``).
"""

# The rule's command and its one rule function, named here so this entry points at them (and its
# `requires = ["naval"]` is what it uses).
from plugins.rules.naval.kamikaze import DeclareKamikaze, why_not_kamikaze

RULE_ID = "kamikaze"

__all__ = ["RULE_ID", "DeclareKamikaze", "why_not_kamikaze"]
