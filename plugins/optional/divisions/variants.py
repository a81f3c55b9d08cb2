"""Variants of the Divisions rule: an optional rule that changes how corps break down and
reform (Unlimited breakdown) registers a ``Variant`` under its rule id when its plugin is
imported; Divisions applies the variant whose rule is ON, in the handlers, the choices and the
previews alike.  (Not a pluggy hook: a choices function gets only the state, and it must ask
the same function as the handler.)  With no variant ON the seeds' "Break Down Units" and
"Reform Units" apply."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from plugins.optional.framework import is_on


@dataclass
class Variant:
    rule_id: str
    # breakdown(state, unit) -> {"rule", "first": [option], "second": [option], "cap": bool}: an
    # option is a unit dict plus "choice" (what BreakDownUnit names) and "create": True for a new
    # counter; cap False: the half-factors limit does not apply (the divisions are made to fit).
    breakdown: Callable | None = None
    # reform(state, divisions) -> {"rule", "refusal": str | None, "player_chooses": bool,
    # "divisions_to": "force-pool" | "removed"}
    reform: Callable | None = None


VARIANTS: dict[str, Variant] = {}


def register_variant(variant: Variant) -> None:
    """Called by a variant's plugin when it is imported (again on a hot reload)."""
    VARIANTS[variant.rule_id] = variant


def active(state, what: str) -> Callable | None:
    """The ``breakdown`` or ``reform`` function of the variant whose rule is ON, or None."""
    for variant in VARIANTS.values():
        fn = getattr(variant, what)
        if fn is not None and is_on(state, variant.rule_id):
            return fn
    return None
