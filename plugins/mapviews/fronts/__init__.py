"""Default map views per major power (seeds, "Map Views").

Each view is centred on a named place, looked up in the world map when the plugin
registers, so a corrected city position on the map moves the view with it.  A place the
map does not know is left out rather than guessed.
"""

from __future__ import annotations

from kernel.hookspecs import hookimpl

EAST = [("Leningrad", 6), ("Moscow", 6), ("Kiev", 6), ("Odessa", 6), ("Rostov", 6), ("Eastern Front", 3, "Minsk")]
WEST = [("Channel", 5, "London"), ("Paris", 6), ("Western Europe", 3, "Paris")]
MED = [("Libya", 5, "Tobruk"), ("Egypt", 6, "Alexandria"), ("Balkans", 5, "Belgrade"), ("Mediterranean", 3, "Rome")]
PACIFIC = [("China Sea", 4, "Manila"), ("Philippines", 6, "Manila"), ("Japan", 5, "Tokyo"), ("Pago Pago", 5),
           ("Pacific", 2, "Honolulu")]

# power -> (view name, zoom[, place]) in list order; medium zoom overviews last.
VIEWS = {
    "germany": EAST + WEST + MED[:3],
    "ussr": EAST + [("Caucasus", 5, "Baku"), ("Far East", 4, "Vladivostok")],
    "italy": MED + [("Rome", 6)],
    "japan": PACIFIC + [("Singapore", 6), ("China", 3, "Nanking")],
    "commonwealth": [("London", 6)] + WEST[:1] + MED[:2] + [("India", 4, "Calcutta"), ("Singapore", 6),
                                                          ("Australia", 3, "Sydney")],
    "usa": [("West Coast", 5, "San Francisco"), ("East Coast", 5, "New York"), ("Hawaii", 6, "Honolulu")]
    + PACIFIC[:2] + [("Pago Pago", 5)],
    "france": [("Paris", 6), ("Western Europe", 3, "Paris"), ("Algeria", 5, "Algiers")],
    "china": [("Chungking", 6), ("China", 3, "Nanking"), ("Canton", 6)],
}


@hookimpl
def register_map_views(register):
    from app.views import MapView
    from kernel.worldmap import load_world_map

    world = load_world_map()
    for power, entries in VIEWS.items():
        for entry in entries:
            name, zoom = entry[0], entry[1]
            place = entry[2] if len(entry) > 2 else name
            city = world.city(place)
            if city is None:
                continue
            register(MapView(name=name, col=city.col, row=city.row, zoom=zoom,
                             weather=zoom <= 3, control=zoom <= 3), power=power)
