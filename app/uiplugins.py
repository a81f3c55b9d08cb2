"""The front end's own plugin manager: map views, screen layouts and map layers.

A map layer is an object with ``draw(window, dmap, surface, pos)``, drawn over each detailed
map after the counters; the window's own supply layer (app/supplylayer.py) is the first.
These plugins (kinds "map-view", "layout", "ui") never touch game state and are not recorded
in saves, so the window loads them itself rather than through a game's ``PluginHost``.  A
plugin that fails to import or registers something malformed is reported and skipped; the
rest still load.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

import pluggy

from kernel import hookspecs
from kernel.plugins import discover, import_plugin

from .views import MapView, ScreenLayout

UI_KINDS = ("map-view", "layout", "ui")


@dataclass
class UIPlugins:
    map_views: dict[str, list[MapView]] = field(default_factory=dict)  # power -> views in order
    layouts: dict[str, ScreenLayout] = field(default_factory=dict)
    layers: list = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    manager: pluggy.PluginManager | None = None
    loaded: list[str] = field(default_factory=list)


def load_ui_plugins(extra_dirs=None) -> UIPlugins:
    from .supplylayer import SupplyLayer

    result = UIPlugins(layers=[SupplyLayer()])
    pm = pluggy.PluginManager("wif")
    pm.add_hookspecs(hookspecs)
    found = discover(extra_dirs)
    result.messages.extend(e for e in found.errors if any(k in e for k in UI_KINDS))
    for info in sorted(found.plugins.values(), key=lambda i: i.id):
        if info.manifest.kind not in UI_KINDS:
            continue
        try:
            module = import_plugin(info)
            pm.register(module, name=info.id)
        except Exception as exc:  # a broken mod must not stop the window
            result.messages.append(f"UI plugin {info.id!r} ({info.folder}) failed to load: {exc}")
            continue
        result.loaded.append(info.id)
    pm.check_pending()
    for impl in pm.hook.register_map_views.get_hookimpls():
        def add_view(view, power: str | None = None, _plugin=impl.plugin_name):
            power = power or getattr(view, "power", None)
            if not isinstance(view, MapView) or not power:
                result.messages.append(f"plugin {_plugin!r}: register_map_views expects "
                                       f"register(MapView, power=...), got {view!r}")
                return
            views = result.map_views.setdefault(power, [])
            if any(v.name == view.name for v in views):
                result.messages.append(f"plugin {_plugin!r}: {power} map view {view.name!r} registered twice")
                return
            views.append(view)
        _call(impl, add_view, result)
    for impl in pm.hook.register_layouts.get_hookimpls():
        def add_layout(layout, _plugin=impl.plugin_name):
            if not isinstance(layout, ScreenLayout):
                result.messages.append(f"plugin {_plugin!r}: register_layouts expects a ScreenLayout, got {layout!r}")
                return
            result.layouts[layout.name] = layout
        _call(impl, add_layout, result)
    for impl in pm.hook.register_map_layers.get_hookimpls():
        def add_layer(layer, _plugin=impl.plugin_name):
            # drawn every frame: one without draw(window, dmap, surface, pos) is refused here
            if not callable(getattr(layer, "draw", None)):
                result.messages.append(f"plugin {_plugin!r}: register_map_layers expects a layer with "
                                       f"draw(window, dmap, surface, pos), got {layer!r}")
                return
            result.layers.append(layer)
        _call(impl, add_layer, result)
    result.manager = pm
    return result


def _call(impl, register, result: UIPlugins) -> None:
    try:
        impl.function(register=register)
    except Exception as exc:
        result.messages.append(f"plugin {impl.plugin_name!r}: {impl.function.__name__} failed: {exc}")
        print(f"wif: {result.messages[-1]}", file=sys.stderr)
