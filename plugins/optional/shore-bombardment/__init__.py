"""Optional rule Shore Bombardment, option 38: defensive shore bombardment (seeds "Defending
Shore Bombardment", L10732-10745: "This is a optional rule and if it has not been selected, the
phase is skipped"; "Attacking Shore Bombardment", L10749-10752: "identical to the previous phase
except: (1) it is not an optional rule, and (2) it is for major powers belonging to the phasing
side").

The step, the ``ShoreBombard`` command and its one rule function live in
``plugins/rules/naval/shore_bombardment.py`` (both steps); the turn plugin skips the defending
step while the rule is off (plugins/rules/turn/data/optional_phases.json).  This plugin is the
rule's catalogue entry: with it the rule can be chosen and toggled.  It requires the naval plugin,
so a preset leaves it OFF in a game without the war at sea.
"""

# The rule's command and its one rule function, named here so this entry points at them (and its
# `requires = ["naval"]` is what it uses).
from plugins.rules.naval.shore_bombardment import DEFENDING, ShoreBombard, why_not_bombard

RULE_ID = "shore-bombardment"

__all__ = ["DEFENDING", "RULE_ID", "ShoreBombard", "why_not_bombard"]
