"""The Panama Canal (seed 001, Ships in Flames 3.2.3 "Naval Movement Restriction" (h), L196:
"you can only move naval units between the Gulf of Panama and the Caribbean Sea if the US player
lets you") and Guadalcanal: the map joins the two sea areas at Panama, but neither lies in
Guadalcanal's playable area (the sea areas wholly on the Pacific half-map), so the canal is not
modelled (plugins/scenarios/guadalcanal/README.md, "The partial map")."""

from plugins.rules.core import world_map
from plugins.rules.naval.straits_and_canals import passages
from plugins.scenarios.guadalcanal.oob import sea_areas_in_play


def test_straits_and_canals_panama_joins_two_sea_areas_off_the_guadalcanal_map():
    areas = world_map().sea_areas
    assert "CC" in areas["GP"].adjacent and "Panama" in areas["GP"].ports and "Panama" in areas["CC"].ports
    in_play = sea_areas_in_play()
    assert "CO" in in_play and not {"GP", "CC"} & in_play  # the Coral Sea is, Panama's seas are not
    assert not [p for between, found in passages().items() for p in found if between & {"GP", "CC"}]
