"""Land combat: the seeds' "Land Combat" group and the Land Combat Resolution sub-machine.

Steps (full ids under ``wif.``), each in the module named after its seed section:
- ``turn.impulse.land.combat.land-combat-declaration``: ``DeclareAttack`` (``declaration``;
  each new attack of a power on a hex is one land attack activity, Land or Combined action);
- ``...ignore-notional.include-notional-units``: ``IncludeNotional`` (``notional``; invasions
  and paradrops only: other plugins open such attacks with ``declare_forced_attack``);
- ``...defending-hq-support`` / ``...attacking-hq-support``: ``DeclareHQSupport``
  (``hq_support``, optional rule 13); ``...ground-support.hq-support-rolls`` rolls them;
- ``...land-combat-resolution`` runs ``procedures.land-combat-resolution`` once per combat
  (``resolution``): ``SelectLandCombat``, ``UseSnowUnits``, ``ChooseLandCombatType``,
  ``ResolveCombat``, the die roll; ``losses``: ``ConvertToRetreat``, ``AssignLandLosses``,
  apply losses; ``retreat``: ``RetreatUnit``; ``advance``: ``AdvanceUnit``.
Every command has a choices function and a preview judged by the same check as its handler.
``steps`` says which steps are skipped, who decides, and what ending a step requires.

The numbers (factors, odds, tables, modifiers) are ``odds`` and what previews tell of them
``preview``; optional rules change them through the hooks in ``hooks`` (``HOOKSPECS``).
Land's ``overrun_odds`` hook is answered in ``overrun_odds``.

Ground support hook for the air plugin: the event ``GroundSupportAdded(combat=combat_id,
side="attacker"|"defender", factors=...)`` (``from plugins.rules.combat import
GroundSupportAdded``); the factors add up in ``state["combat"].ground_support``.  A combat's
id is its defending hex key, "col,row"; ``open_combats(state)`` lists the open ones.

Public functions: ``odds_preview(state, attackers, defender_hex, host=None)``,
``open_combats(state)``, ``declare_forced_attack(ctx, power, hex, units, kind)``,
``retreat_options(state, combat, unit_id, from_hex)``, ``hq_support_in_play(state)``.
"""

from __future__ import annotations

from kernel.hookspecs import hookimpl

from . import advance, describe, steps  # noqa: F401  (their events, commands and describers join ``rules``)
from .advance import AdvanceUnit, plan_advance  # noqa: F401
from .declaration import DeclareAttack, attack_problem, attack_targets, declare_forced_attack  # noqa: F401
from .events import (  # noqa: F401  (re-exported)
    EVENTS,
    AttackCancelled,
    AttackDeclared,
    GroundSupportAdded,
    HQSupportDeclared,
    HQSupportRolled,
    LandCombatOutcome,
    LandCombatResolved,
    LandCombatSelected,
    LandCombatTableChosen,
    LandLossesTaken,
    NotionalDecided,
    ShatterConverted,
    SnowUnitsDecided,
    UnitAdvanced,
    UnitRetreated,
)
from .hooks import HOOKSPECS  # noqa: F401  (published hooks, see hooks.py)
from .hq_support import DeclareHQSupport, hq_support_in_play  # noqa: F401
from .losses import AssignLandLosses, ConvertToRetreat, legal_loss_sets, loss_problem  # noqa: F401
from .notional import IncludeNotional  # noqa: F401
from .preview import odds_preview  # noqa: F401  (public)
from .overrun_odds import overrun_odds  # noqa: F401  (land's hook)
from .resolution import ChooseLandCombatType, ResolveCombat, SelectLandCombat, UseSnowUnits  # noqa: F401
from .retreat import RetreatUnit, auto_retreats, retreat_options  # noqa: F401
from .state import (  # noqa: F401  (re-exported)
    COMBAT,
    PROC,
    Combat,
    CombatState,
    cs,
    current_combat,
    open_combats,
    rules,
    team_leader,
)


@hookimpl
def skip_step(state, step_id, spec):
    return steps.skip_reason(state, step_id)


@hookimpl
def resolve_deciders(state, step_id, spec, kind):
    return steps.deciders(state, step_id, kind)


@hookimpl
def finish_step_refusal(state, step_id, power):
    return steps.finish_refusal(state, step_id, power)


@hookimpl
def step_ended(ctx, step_id, spec):
    steps.step_ended(ctx, step_id)


rules.export(globals())
from .ui import *  # noqa: E402,F401,F403 - the front end's hooks (app/uihooks.py), ui.__all__
