"""Chapter 13's lab: the two-player recursion W(mover's open boxes, waiter's open boxes, d),
checked state by state against the exact brute force and, at the start, against `solve_versus`.

States are checked the way backward induction fills them in, the last turns first, so the first
wrong state reported is the one to fix first: the states before it read its value.
"""
from __future__ import annotations

from ..engine.bruteforce import versus_value
from ..game.ruleset import Rules
from ..objectives.two_player import solve_versus
from .games import _small_game, open_states
from .report import TIME_LIMIT, Report, compare, function, run

__all__ = ["check_versus_recursion", "card_pairs"]


def card_pairs(rules: Rules) -> list[tuple[tuple, tuple]]:
    """Every (mover, waiter) pair of a decision state, each card as (open box names, mask of used
    boxes, label), the last turns first: the mover has as many boxes open as the waiter (the
    first player to move) or one more (the second).

    >>> from yatzy_core.game.rules import get_rules
    >>> game = get_rules("yatzy").with_(boxes=get_rules("yatzy").boxes[:2], upper_bonus=0)
    >>> [(m[2], w[2]) for m, w in card_pairs(game)][:2]
    [('{ones}', 'no box'), ('{twos}', 'no box')]
    >>> len(card_pairs(game))     # 2 x 1, 2 x 2, 1 x 2, 1 x 1
    9
    """
    cards = [(boxes, used, label[len("with "):-len(" open")]) for boxes, used, label in open_states(rules)]
    by_used = {}
    for card in cards:
        by_used.setdefault(rules.n_boxes - len(card[0]), []).append(card)
    layers = [(k, k + j) for k in range(rules.n_boxes - 1, -1, -1) for j in (1, 0)]   # (mover's used, waiter's)
    return [(m, w) for ka, kb in layers for m in by_used[ka] for w in by_used[kb]]


def _gain(rules: Rules, open_boxes: frozenset) -> int:
    """The most points these open boxes can still score."""
    return sum(box.max_score for box in rules.boxes if box.name in open_boxes)


def _pair_case(mover, waiter, leads, reference):
    def case(ask):
        for d in leads:
            where = f"mover {mover[2]} open, waiter {waiter[2]} open, d = {d}"
            got = ask(where, mover[0], waiter[0], d)          # the student first: a stub stops here
            compare(where, reference((mover[1], 0, 0), (waiter[1], 0, 0), d), got)
    return case


def _start_case(rules, everything):
    def case(ask):
        where = "the start (both cards empty, d = 0) against solve_versus"
        compare(where, solve_versus(rules).first, ask(where, everything, everything, 0))
    return case


def check_versus_recursion(W, rules: Rules, time_limit: float = TIME_LIMIT) -> Report:
    """Check `W(mover_open, waiter_open, d)`, the mover's P(win) + 1/2 P(tie) from the start of
    its turn (open boxes as frozensets of box names, d = mover's points - waiter's), on every
    decision state of the small game `rules` and every d whose outcome is still open, and one more
    each side, where it is decided (-g_mover - 1 .. g_waiter + 1, g the most points a card can
    still gain): exactly
    against the brute force (`engine.bruteforce.versus_value`; a float answer to 1e-9), then the
    start against the package's `solve_versus`."""
    function("W", W)
    rules = _small_game(rules)
    reference = versus_value(rules)
    cases = [_pair_case(mover, waiter, range(-_gain(rules, mover[0]) - 1, _gain(rules, waiter[0]) + 2),
                        reference) for mover, waiter in card_pairs(rules)]
    cases.append(_start_case(rules, frozenset(rules.box_names)))
    return run(getattr(W, "__name__", "W"), W, cases, time_limit)
