"""The rest of a game as a game of its own: only the open boxes, the upper bonus threshold less
what the card already holds. Advice at a late position needs only this small game, never the
whole table (Maxi Yatzy's holds 57 million states).

Why it is the same game: from a card with boxes `used` and upper total u, the points still to
come depend only on the open boxes, on how far the upper total is from the threshold T and, in
rule sets with a Yahtzee bonus, on the Yahtzee box (used or not, holding its 50 or not). A game
with only the open boxes (plus a used Yahtzee box that the joker and bonus look at) and the
threshold T - u starts from upper total 0, and it pays the bonus exactly when the full game
would: 0 + g >= T - u  <=>  u + g >= T. When the bonus is already paid (u >= T) or out of reach
of the open upper boxes, it cannot change any choice and the subgame has none.

>>> from yatzy_core.game.rules import get_rules
>>> rest = subgame_rules(get_rules("yatzy"), {"ones", "twos", "threes", "fours", "chance"}, 30)
>>> rest.box_names[:2], rest.n_boxes, rest.upper_bonus_threshold      # 63 - 30 to go
(('fives', 'sixes'), 10, 33)
"""
from __future__ import annotations

from ..game.checks import instance_of, whole_number
from .cache import cache_path, never_cache
from .position import _parse_used, shown, upper_totals
from ..game.rules import Rules
from .solutions import _loaded
from ..game.states import StateSpace

__all__ = ["subgame_rules", "FULL_TABLE_STATES", "full_table_at_hand"]

FULL_TABLE_STATES = 1 << 22   # above this many turn states (Maxi Yatzy: 89M) advice solves subgames


def subgame_rules(rules: Rules, used, upper_total: int) -> Rules:
    """The rule set of the rest of the game: the open boxes (and a used Yahtzee box the bonus or
    joker reads), in card order, with the bonus threshold reduced by `upper_total` (no bonus
    when it is paid already or the open upper boxes cannot reach it any more). Its tables are
    never cached (`cache.never_cache`): one game per position would grow the cache without bound.

    >>> from yatzy_core.game.rules import get_rules
    >>> r = subgame_rules(get_rules("maxi-yatzy"), set(get_rules("maxi-yatzy").box_names[:5]), 60)
    >>> r.n_boxes, r.upper_bonus, r.upper_bonus_threshold     # sixes can still make the 24 missing
    (15, 100, 24)
    """
    used = _card(rules, used, upper_total)
    keep_yahtzee = rules.tracks_yahtzee_bonus and rules.yahtzee_box in used
    boxes = tuple(b for b in rules.boxes if b.name not in used or (keep_yahtzee and b.name == rules.yahtzee_box))
    missing = rules.upper_bonus_threshold - upper_total
    room = sum(b.face * rules.n_dice for b in boxes if b.is_upper and b.name not in used)
    bonus = rules.upper_bonus if rules.tracks_upper and 0 < missing <= room else 0
    yahtzee_box = rules.yahtzee_box if rules.yahtzee_box in {b.name for b in boxes} else None
    return never_cache(rules.with_(name=f"{rules.name}-rest", boxes=boxes, upper_bonus=bonus, yahtzee_box=yahtzee_box,
                       upper_bonus_threshold=missing if bonus else rules.upper_bonus_threshold,
                       description=f"the open boxes of {rules.name}, {max(missing, 0)} upper points to the bonus"))


def _card(rules: Rules, used, upper_total) -> frozenset[str]:
    """The used boxes as Position.make reads them (a set, or text like 'ones,twos'), checked
    like a Position's: TypeError/ValueError naming rules, used or upper_total (a total the used
    upper boxes cannot make, or a box the rules lack, would give a game no card reaches)."""
    instance_of("rules", rules, Rules, "a Rules value (get_rules(name) gives a built-in one)")
    used = _parse_used(used)
    unknown = sorted(name for name in used if name not in rules.box_names)
    if unknown:
        raise ValueError(f"used holds {shown(unknown)}, not boxes of rules {rules.name!r} "
                         f"({', '.join(rules.box_names)})")
    totals = upper_totals(rules, used)
    if whole_number("upper_total", upper_total) not in totals:
        named = [b.name for b in rules.boxes if b.is_upper and b.name in used]
        raise ValueError(f"upper_total {upper_total} cannot be made with the used upper boxes "
                         f"({', '.join(named) or 'none'}; at most {max(totals)})")
    return used


def full_table_at_hand(rules: Rules) -> bool:
    """Is the whole table cheap to get: loaded in this process, in the cache, or a small game?"""
    return rules in _loaded or StateSpace(rules).size <= FULL_TABLE_STATES or cache_path(rules).exists()
