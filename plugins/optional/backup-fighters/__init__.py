"""Optional rule Backup fighters (seeds, "Air-to-air Combat": "Back-up fighters only increase
your air-to-air strength if their modified air-to-air rating is at least half that of the
modified rating of the front opposing fighter.  This does not apply to back-up carrier air
units" - the air plugin never asks about those).  Through the air hook
``backup_fighter_counts``.
"""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from plugins.optional.framework import is_on

RULE_ID = "backup-fighters"


@hookimpl(optionalhook=True)
def backup_fighter_counts(state, unit, rating, opposing_front_rating):
    if not is_on(state, RULE_ID) or opposing_front_rating is None:
        return None
    return False if 2 * rating < opposing_front_rating else None
