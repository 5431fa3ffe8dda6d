"""The score card as printed on the pads: upper boxes, subtotal, how far the bonus is, the bonus,
the lower boxes, the Yahtzee bonus (when the rules pay one) and the totals.

`card_lines` is the card as data (exact integers, tested); `scorecard_html` draws it as a
table. Open boxes can show what the dice on the table would score there (`options`, from
`box_options`), and each box row carries `data-box` so a view can make it clickable.
Nothing here imports widgets.

>>> from yatzy_core.game.rules import get_rules
>>> lines = card_lines(get_rules("yatzy"), {"ones": 3, "sixes": 24, "chance": 20}, bonus=0)
>>> [(l.label, l.value) for l in lines if l.kind != "box"]
[('Upper subtotal', 27), ('To go for the bonus', 36), ('Bonus (50 at 63)', None), ('Upper total', 27), ('Lower total', 20), ('Grand total', 47)]
"""
from __future__ import annotations

import html
from dataclasses import dataclass

from ..game.rules import Rules
from ..game.scoring import box_label

__all__ = ["CardLine", "card_lines", "box_label", "box_options", "scorecard_html", "game_card_html"]


@dataclass(frozen=True)
class CardLine:
    """One line of the card: a box (value None while open) or a sum the pad prints."""

    label: str
    value: int | None
    kind: str                      # "box", "subtotal", "to-go", "bonus", "total"
    box: str | None = None         # the box's name (box lines only)
    option: tuple[int, int] | None = None   # open box: (points, bonus) the dice would score now


def box_options(position) -> dict[str, tuple[int, int]]:
    """What each allowed box would score with an `Position`'s dice: (box points, bonus)."""
    options = {}
    for name, points in position.box_points().items():
        bonus = int(position.scored(name).bonus)
        options[name] = (points - bonus, bonus)
    return options


def _check(rules: Rules, scores: dict, bonus: int) -> None:
    unknown = set(scores) - set(rules.box_names)
    if unknown:
        raise ValueError(f"scores has boxes not on the {rules.name!r} card: {sorted(unknown)}")
    if not isinstance(bonus, int) or bonus < 0:
        raise ValueError(f"bonus must be a whole number >= 0, got {bonus!r}")


def card_lines(rules: Rules, scores: dict[str, int], bonus: int,
               options: dict[str, tuple[int, int]] | None = None) -> list[CardLine]:
    """The pad's lines for boxes scored `scores` (box -> points, bonuses apart) and `bonus`
    points of bonuses earned so far (upper and Yahtzee bonus together, as `coach.Game` counts)."""
    _check(rules, scores, bonus)
    options = options or {}

    def box_line(b):
        return CardLine(box_label(b.name), scores.get(b.name), "box", b.name,
                        None if b.name in scores else options.get(b.name))

    upper = [b for b in rules.boxes if b.is_upper]
    lower = [b for b in rules.boxes if not b.is_upper]
    subtotal = sum(scores.get(b.name, 0) for b in upper)
    lines = [box_line(b) for b in upper]
    upper_bonus = 0
    if upper:
        lines.append(CardLine("Upper subtotal", subtotal, "subtotal"))
    if upper and rules.tracks_upper:
        made = subtotal >= rules.upper_bonus_threshold
        closed = all(b.name in scores for b in upper)
        upper_bonus = rules.upper_bonus if made else 0
        lines += [CardLine("To go for the bonus", max(rules.upper_bonus_threshold - subtotal, 0), "to-go"),
                  CardLine(f"Bonus ({rules.upper_bonus} at {rules.upper_bonus_threshold})",
                           upper_bonus if made or closed else None, "bonus")]
    if upper:
        lines.append(CardLine("Upper total", subtotal + upper_bonus, "total"))
    lines += [box_line(b) for b in lower]
    lower_sum = sum(scores.get(b.name, 0) for b in lower)
    kind_bonus = bonus - upper_bonus
    if rules.yahtzee_bonus:
        lines.append(CardLine(f"{box_label(rules.yahtzee_box)} bonus ({rules.yahtzee_bonus} each)",
                              kind_bonus, "bonus"))
    lines.append(CardLine("Lower total", lower_sum + kind_bonus, "total"))
    lines.append(CardLine("Grand total", sum(scores.values()) + bonus, "total"))
    return lines


def _cell(line: CardLine) -> str:
    if line.value is not None:
        return str(line.value)
    if line.option is not None:
        points, bonus = line.option
        extra = f' <span class="yc-pad-extra">+{bonus}</span>' if bonus else ""
        return f'<span class="yc-pad-option">{points}</span>{extra}'
    return '<span class="yc-pad-option">&ndash;</span>' if line.kind == "box" else ""


def _row(line: CardLine, selected: str | None) -> str:
    classes = [f"yc-pad-{line.kind}"]
    attrs = ""
    if line.box is not None:
        classes.append("yc-pad-open" if line.value is None else "yc-pad-filled")
        if line.value is None and line.option is not None:
            classes.append("yc-pad-can")
        if line.box == selected:
            classes.append("yc-pad-selected")
        attrs = f' data-box="{html.escape(line.box)}"'
    return (f'<tr class="{" ".join(classes)}"{attrs}><td>{html.escape(line.label)}</td>'
            f'<td class="yc-pad-score">{_cell(line)}</td></tr>')


def scorecard_html(rules: Rules, scores: dict[str, int], bonus: int,
                   options: dict[str, tuple[int, int]] | None = None, selected: str | None = None) -> str:
    """The card as an HTML table (class `yc-pad`), one row per line; `selected` marks a box."""
    lines = card_lines(rules, scores, bonus, options)
    to_go = next((l for l in lines if l.kind == "to-go"), None)
    rows = []
    for line in lines:
        if line is to_go:
            rows.append(_to_go_row(rules, line.value, scores))
        else:
            rows.append(_row(line, selected))
    return f'<table class="yc-pad" data-rules="{html.escape(rules.name)}">{"".join(rows)}</table>'


def _to_go_row(rules: Rules, to_go: int, scores: dict) -> str:
    """The pad's reminder: "x to go for the bonus", "bonus made" or "bonus missed"."""
    upper = [b.name for b in rules.boxes if b.is_upper]
    if to_go == 0:
        text = "bonus made"
    elif all(name in scores for name in upper):
        text = "bonus missed"
    else:
        text = f"{to_go} to go for the bonus"
    return f'<tr class="yc-pad-to-go"><td colspan="2">{text}</td></tr>'


def game_card_html(game, selected: str | None = None) -> str:
    """The card of a `coach.Game`, with what the dice on the table would score in each open box."""
    options = {} if game.over else box_options(game.position)
    return scorecard_html(game.rules, game.scores, game.bonus, options, selected)
