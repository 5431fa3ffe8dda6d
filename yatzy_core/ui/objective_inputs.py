"""The "Play for" menu and the inputs of the explorer and the coach, generated from the registry.

Each widget page holds one input per slot (`SLOTS`: a whole-number box for totals and scores, a
slider for a risk appetite, a text box for a structured value such as an opponent's card, whose
parameter parses it, and a signed whole-number box for a lead), shared by the objectives whose parameters read it
(`registry.Input.slot`); choosing an objective labels the inputs it reads and hides the rest.
No objective is named here: a registered one appears in the menus with its inputs.

>>> menu()[:2]
[('best average', 'mean'), ('reach a total', 'reach')]
>>> labels("beat"), labels("risk")
({'goal': 'Score to beat'}, {'theta': 'Risk θ'})
>>> slot_widget("card", "", "Their card").placeholder
'used=ones,chance;upper=3'
"""
from __future__ import annotations

import ipywidgets as W

from ..objectives.registry import REGISTRY, Input, offered

__all__ = ["SLOTS", "menu", "slot_input", "slot_widget", "labels", "show_slots"]

SLOTS = ("goal", "theta", "card", "lead")   # the inputs a page holds (see the module)


def menu() -> list[tuple[str, str]]:
    """The "Play for" dropdown's options: (title, key) of each objective the widgets can ask for."""
    return [(title, key) for key, title in offered().items()]


def slot_input(slot: str) -> Input:
    """The input the registered parameters read from `slot` (its range: the first one's)."""
    return next(p.input for o in REGISTRY.values() for p in o.parameters if p.input and p.input.slot == slot)


def slot_widget(slot: str, value, description: str, high: float | None = None, **layout) -> W.Widget:
    """The widget of `slot`: a bounded whole-number box, or a slider that updates on release;
    `high` widens the box beyond the parameters' range (the coach's target for the chance shown);
    a text slot is a text box that reports its text when Enter is pressed or it loses focus."""
    spec = slot_input(slot)
    if spec.text:
        return W.Text(value=value, description=description, placeholder=spec.placeholder,
                      continuous_update=False, layout=W.Layout(**layout))
    if slot == "theta":
        return W.FloatSlider(value=value, min=spec.low, max=spec.high, step=spec.step, description=description,
                             readout_format=".3f", continuous_update=False, layout=W.Layout(**layout))
    return W.BoundedIntText(value=value, min=spec.low, max=spec.high if high is None else high,
                            description=description, layout=W.Layout(**layout))


def labels(key: str) -> dict[str, str]:
    """{slot: label} of the inputs objective `key` reads ({} for an unknown key)."""
    kind = REGISTRY.get(key)
    return {p.input.slot: p.input.label for p in (kind.parameters if kind else ()) if p.input}


def show_slots(key: str, widgets: dict, idle: dict | None = None, shown=None) -> None:
    """Label and show the slot widgets objective `key` reads; one it does not read is hidden, or
    kept shown under its `idle` label (the coach's target: the chance shown for any policy)."""
    used, idle = labels(key), idle or {}
    for slot, widget in widgets.items():
        if slot in used or slot in idle:
            widget.description = used.get(slot, idle.get(slot))
            widget.layout.display = shown
        else:
            widget.layout.display = "none"
