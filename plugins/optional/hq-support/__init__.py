"""Optional rule HQ support (option 13).

Its procedure belongs to the land combat sequence ("Land Combat": announce defensive and
offensive HQ support, resolve HQ support after ground support), so the steps, the
``DeclareHQSupport`` command and the roll live in ``plugins/rules/combat``, which asks
``plugins.optional.framework.is_on(state, "hq-support")`` (``combat.hq_support_in_play``).
This plugin is the rule's catalogue entry: with it the rule can be chosen and toggled.
"""

RULE_ID = "hq-support"
