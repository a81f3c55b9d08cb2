"""Hooks the land plugin publishes (``HOOKSPECS``): what an overrun needs to know from the
rules that come after land (land combat's odds, supply), asked without importing them.

Land imports only units, core and turn; combat and supply depend on land, so they answer
here.  Each hook is called with the game's plugin manager (``ctx.host.pm.hook``).
"""

from __future__ import annotations

from kernel.hookspecs import hookspec


class HOOKSPECS:
    @staticmethod
    @hookspec(firstresult=True)
    def overrun_odds(state, unit, hex_, min_odds, hook):
        """The final odds of ``unit`` (a unit model) against the enemy land units in ``hex_``,
        computed as a land combat's (Land Movement: "Enemy units might be overrun"; Offensive
        chits: "the final odds for the overrun or land combat").  ``state`` is a scratch copy of
        the game's state with ``unit`` standing in the hex it overruns from; ``min_odds`` is
        the odds an overrun needs (k for k:1, data/overrun.json); ``hook`` the game's ``pm.hook``,
        for the hooks the odds ask in turn (an optional rule's changed factors).

        Return ``{"enough": bool (the odds reach min_odds:1), "ratio": float (k of k:1),
        "odds": str (the odds in words)}``; None when this game has no land combat rules (then
        no overrun can be made)."""

    @staticmethod
    @hookspec(firstresult=True)
    def overrun_refusal(state, unit, hex_):
        """A reason (str, naming the rule) why ``unit`` may not overrun ``hex_`` now, judged on
        the game's state before the move (Supply: checked "immediately before resolving an
        overrun"), or None."""
