"""Iced-in ports: no naval unit moves into or out of an iced-in port in snow or blizzard.

Seeds: "Weather Report" (L7720-7723): "You can't move naval units into or out of iced-in
ports if the weather in the port hex is snow or blizzard.  When returning to base during the
end of turn stage (see RAC 13.4) the weather is the weather during the last impulse of the
turn" (the weather in play at the end of the turn is that of the last impulse, so the current
weather answers both).  Ships in Flames 3.2.3 a) says the same of Archangel.  The map marks
the iced ports (``maps/world/cities.csv`` ``iced_zone``: the weather zone whose snow or
blizzard ices the port in, the port hex's own zone).

The brief of issue #14 reads "storm or blizzard"; the seeds say snow or blizzard, and the
seeds govern.  Not here: the same ice on overseas supply and on shipping resources
("Supply Sources and Paths"), which belongs to the supply rules.
"""

from __future__ import annotations

from plugins.rules import core
from plugins.rules.core import key_hex

from .sea_box_section import port_at

RULE = "Weather Report"
ICING_WEATHER = ("snow", "blizzard")


def iced_in_problem(state, port_hex) -> str | None:
    """Why no naval unit moves into or out of the port at ``port_hex`` now, or None."""
    port = port_at(port_hex)
    if port is None or port.iced_zone is None:
        return None
    weather = core.weather_in(state, port_hex)
    if weather not in ICING_WEATHER:
        return None
    return (f"{RULE}: {port.name} is an iced-in port and the weather there is {weather}: no naval unit moves "
            "into or out of it")


def iced_in_move_problem(state, origin: str, to: str) -> str | None:
    """The ice of a move's origin or destination port (``"col,row"``; a sea box has none)."""
    for end in (origin, to):
        if "," in end:
            problem = iced_in_problem(state, key_hex(end))
            if problem:
                return problem
    return None
