"""The dice table of the coach: dice drawn as dice (SVG pips), click to hold, the score card
below them, and the keyboard (1-6 hold, r roll, Enter score, arrows pick a box, h hint, u undo).
The explorer shows the same dice without the controls (`show_controls=False`, `listen_keys=False`):
there a click changes a die's face, whatever the owner registers for "toggle".

An anywidget: a small ESM module draws the traits and forwards clicks and key presses to
Python as messages; every decision (which key does what, which box the arrows land on) is
made here in Python, so tests can drive it with `press` and `click_die` without a browser.
The owner (`widgets_coach.CoachApp`) registers what each action does with `on`.

>>> table = DiceTable(dice=[1, 2, 3, 4, 5], open_boxes=["ones", "chance"])
>>> table.press("ArrowDown"), table.selected, table.press("ArrowDown"), table.selected
('select', 'ones', 'select', 'chance')
>>> die_svg(5).count("<circle")
5
"""
from __future__ import annotations

from typing import Callable

import anywidget
from traitlets import Bool, Int, List, Unicode

__all__ = ["DiceTable", "die_svg", "KEYS"]

PIPS = {   # pip centres on a 100 x 100 die, by face
    1: [(50, 50)], 2: [(28, 28), (72, 72)], 3: [(28, 28), (50, 50), (72, 72)],
    4: [(28, 28), (72, 28), (28, 72), (72, 72)],
    5: [(28, 28), (72, 28), (50, 50), (28, 72), (72, 72)],
    6: [(28, 26), (72, 26), (28, 50), (72, 50), (28, 74), (72, 74)],
}
KEYS = {"r": "roll", "R": "roll", "Enter": "enter", "h": "hint", "u": "undo",
        "ArrowDown": "select", "ArrowUp": "select", "Escape": "select"}


def die_svg(face: int, held: bool = False) -> str:
    """One die as SVG: pips for faces 1-6, the number for larger faces; held dice are shaded."""
    if not isinstance(face, int) or face < 1:
        raise ValueError(f"face must be a whole number >= 1, got {face!r}")
    fill = "#ffd54f" if held else "#ffffff"
    marks = ("".join(f'<circle cx="{x}" cy="{y}" r="9"/>' for x, y in PIPS[face]) if face in PIPS
             else f'<text x="50" y="66" text-anchor="middle" font-size="48">{face}</text>')
    return (f'<svg viewBox="0 0 100 100" role="img" aria-label="{face}{" held" if held else ""}">'
            f'<rect x="4" y="4" width="92" height="92" rx="16" fill="{fill}" stroke="#333" '
            f'stroke-width="4"/><g fill="#222">{marks}</g></svg>')


ESM = r"""
const ACTIVE = new Set(["r", "R", "Enter", "h", "u", "ArrowDown", "ArrowUp", "Escape",
                        "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
function typing(target) {
  const tag = (target && target.tagName || "").toLowerCase();
  return tag === "input" || tag === "textarea" || tag === "select" || (target && target.isContentEditable);
}
function render({ model, el }) {
  el.classList.add("yc-table");
  const controls = model.get("show_controls");   // the explorer shows the dice alone
  el.innerHTML = `<div class="yc-dice-row"></div>` + (controls ? `
    <div class="yc-actions">
      <button class="yc-coach-roll" title="r"></button>
      <button class="yc-coach-hint" title="h">Hint</button>
      <button class="yc-coach-undo" title="u">Undo</button>
    </div>
    <div class="yc-keys"></div>
    <div class="yc-pad-holder"></div>` : "");
  const row = el.querySelector(".yc-dice-row"), holder = el.querySelector(".yc-pad-holder");
  const send = (msg) => model.send(msg);
  const draw = () => {
    const svgs = model.get("svgs"), held = model.get("held"), prefix = model.get("die_class");
    row.innerHTML = svgs.map((svg, i) =>
      `<div class="yc-die ${prefix}-${i}${held[i] ? " yc-held" : ""}" data-i="${i}" title="${model.get("die_title") || i + 1}">${svg}</div>`
    ).join("");
    if (!controls) return;
    holder.innerHTML = model.get("card");
    el.querySelector(".yc-keys").innerHTML = `keys: 1-${Math.max(svgs.length, 1)} hold &middot; r roll &middot; ` +
      "&uarr;&darr; pick a box &middot; Enter score &middot; h hint &middot; u undo";
    const roll = el.querySelector(".yc-coach-roll");
    roll.textContent = model.get("roll_label");
    roll.disabled = !model.get("can_roll");
    el.querySelector(".yc-coach-hint").disabled = model.get("over");
    el.querySelector(".yc-coach-undo").disabled = !model.get("can_undo");
  };
  row.addEventListener("click", (e) => {
    const die = e.target.closest(".yc-die");
    if (die) send({ type: "toggle", i: Number(die.dataset.i) });
  });
  if (controls) {
    holder.addEventListener("click", (e) => {
      const box = e.target.closest("tr[data-box]");
      if (box) send({ type: "score", box: box.dataset.box });
    });
    for (const name of ["roll", "hint", "undo"])
      el.querySelector(`.yc-coach-${name}`).addEventListener("click", () => send({ type: name }));
  }
  const onKey = (e) => {
    if (!model.get("listen_keys") || !el.isConnected || typing(e.target) || e.ctrlKey || e.metaKey || e.altKey || !ACTIVE.has(e.key)) return;
    e.preventDefault();
    send({ type: "key", key: e.key });
  };
  document.addEventListener("keydown", onKey, true);
  model.on("change", draw);
  draw();
  return () => { document.removeEventListener("keydown", onKey, true); model.off("change", draw); };
}
export default { render };
"""

CSS = """
.yc-table { max-width: 420px; font-size: 15px; }
.yc-dice-row { display: flex; flex-wrap: wrap; gap: 8px; margin: 4px 0 8px; }
.yc-die { width: 58px; height: 58px; cursor: pointer; border-radius: 12px; }
.yc-die svg { width: 100%; height: 100%; display: block; }
.yc-die.yc-held { transform: translateY(6px); box-shadow: 0 0 0 3px #f9a825; }
.yc-actions { display: flex; flex-wrap: wrap; gap: 6px; }
.yc-actions button { font-size: 15px; padding: 6px 12px; min-height: 38px; cursor: pointer; }
.yc-keys { color: #666; font-size: 12px; margin: 4px 0; }
.yc-pad { border-collapse: collapse; width: 100%; margin-top: 6px; }
.yc-table .yc-pad td { border: 1px solid #999; padding: 3px 8px; text-align: left; }
.yc-table .yc-pad td.yc-pad-score { text-align: right; width: 5em; font-variant-numeric: tabular-nums; }
.yc-pad tr.yc-pad-open { cursor: pointer; }
.yc-pad tr.yc-pad-open:hover, .yc-pad tr.yc-pad-selected { background: #fff3c4; }
.yc-pad tr.yc-pad-selected td { border-color: #f9a825; }
.yc-pad .yc-pad-option { color: #8a8a8a; font-style: italic; }
.yc-pad .yc-pad-extra { color: #2e7d32; font-size: 12px; }
.yc-pad tr.yc-pad-subtotal, .yc-pad tr.yc-pad-total { font-weight: bold; background: #f3f3f3; }
.yc-table .yc-pad tr.yc-pad-to-go td { color: #555; font-style: italic; text-align: center; }
"""


class DiceTable(anywidget.AnyWidget):
    """Dice, roll/hint/undo buttons and the score card, with clicks and keys sent to Python."""

    _esm = ESM
    _css = CSS
    svgs = List(Unicode()).tag(sync=True)         # one drawn die each
    held = List(Bool()).tag(sync=True)
    card = Unicode("").tag(sync=True)             # the score card's HTML (`scorecard`)
    roll_label = Unicode("Roll").tag(sync=True)
    can_roll = Bool(False).tag(sync=True)
    can_undo = Bool(False).tag(sync=True)
    over = Bool(False).tag(sync=True)
    show_controls = Bool(True).tag(sync=True)     # roll/hint/undo buttons, key help and card
                                                  # (read once, when the table is drawn)
    listen_keys = Bool(True).tag(sync=True)       # listen to the page's keys (one table a page)
    die_class = Unicode("yc-coach-die").tag(sync=True)   # die i carries class f"{die_class}-{i}"
    die_title = Unicode("").tag(sync=True)        # a die's tooltip ("": its number)
    dice = List(Int())                            # the faces (Python side only)
    open_boxes = List(Unicode())                  # the boxes the arrows walk through, card order
    selected = Unicode(None, allow_none=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.handlers: dict[str, Callable] = {}
        self.on_msg(self._on_msg)
        self.observe(self._draw_dice, names=["dice", "held"])
        self._draw_dice()

    def on(self, action: str, handler: Callable) -> "DiceTable":
        """Call `handler` for an action: toggle(i), roll(), score(box), enter(box), hint(), undo()."""
        if action not in {"toggle", "roll", "score", "enter", "hint", "undo"}:
            raise ValueError(f"action must be toggle, roll, score, enter, hint or undo, got {action!r}")
        self.handlers[action] = handler
        return self

    def _draw_dice(self, _change=None) -> None:
        held = list(self.held) + [False] * (len(self.dice) - len(self.held))
        self.svgs = [die_svg(int(d), h) for d, h in zip(self.dice, held)]

    def _on_msg(self, _widget, content, _buffers) -> None:
        kind = content.get("type")
        if kind == "key":
            self.press(str(content.get("key")))
        elif kind == "toggle":
            self.click_die(int(content.get("i", -1)))
        elif kind == "score":
            self._call("score", str(content.get("box")))
        elif kind in ("roll", "hint", "undo"):
            self._call(kind)

    def _call(self, action: str, *args):
        handler = self.handlers.get(action)
        return handler(*args) if handler else None

    def click_die(self, i: int) -> None:
        """What a click on die i does: the owner's "toggle" (the coach flips its hold)."""
        if not 0 <= i < len(self.dice):
            raise ValueError(f"i must be a die position 0..{len(self.dice) - 1}, got {i}")
        self._call("toggle", i)

    def press(self, key: str) -> str | None:
        """What a key does; returns the action's name (None for a key that does nothing)."""
        if key.isdigit() and 1 <= int(key) <= len(self.dice):
            self.click_die(int(key) - 1)
            return "toggle"
        action = KEYS.get(key)
        if action == "select":
            self._select(key)
        elif action == "enter":
            self._call("enter", self.selected)
        elif action is not None:
            self._call(action)
        return action

    def _select(self, key: str) -> None:
        """Arrows walk the open boxes in card order (wrapping); Escape clears the choice."""
        boxes = list(self.open_boxes)
        if key == "Escape" or not boxes:
            self.selected = None
            return
        step = 1 if key == "ArrowDown" else -1
        if self.selected in boxes:
            self.selected = boxes[(boxes.index(self.selected) + step) % len(boxes)]
        else:
            self.selected = boxes[0 if step == 1 else -1]
