"""Chapter 3's lab: state augmentation. The student writes the writing stage of a small game with
an upper bonus, on the state augmented with the upper total capped at the bonus threshold, and
the check compares every move with the package's turn engine (`engine.turn.score_box`).

A state between turns is (open boxes, capped upper total): `write(state, box, dice)` returns the
state after writing the sorted `dice` in `box`, and the points that earns now, bonus included.
Each reachable state is one case, fewest open boxes first; the first wrong move is named with
the state, box and dice, and the expected against the given answer.

>>> from yatzy_core.game.rules import get_rules
>>> base = get_rules("yahtzee-no-bonus")
>>> tiny = base.with_(name="ones-twos", n_dice=2, upper_bonus_threshold=3, upper_bonus=10,
...                   yahtzee_box=None, boxes=base.boxes[:2])
>>> moves = augmented_moves(tiny)
>>> moves[(frozenset({"ones", "twos"}), 0)][("twos", (2, 2))]     # 4 points reach 3: the bonus now
((frozenset({'ones'}), 3), 14)
"""
from __future__ import annotations

import numpy as np

from ..engine.turn import score_box
from ..game.checks import instance_of
from ..game.dice import dice_of
from ..game.ruleset import Rules
from ..game.states import StateSpace
from .games import open_states
from .report import TIME_LIMIT, Report, Wrong, compare, function, run, show

__all__ = ["check_augmented_writing", "augmented_moves"]

MOST_BOXES = 6     # a lab game: every move of every state is checked


def _bonus_game(rules) -> Rules:
    instance_of("rules", rules, Rules, "a Rules value (a small game, e.g. from game.rulefile.loads)")
    if not rules.tracks_upper or rules.tracks_yahtzee_bonus or rules.saved_rolls or rules.n_boxes > MOST_BOXES:
        raise ValueError(f"rules must be a small game with an upper bonus (at most {MOST_BOXES} boxes, no Yahtzee "
                         f"bonus, no saved rolls), got {rules.name!r}")
    return rules


def augmented_moves(rules: Rules) -> dict:
    """Every reachable state (open boxes, capped upper total) of the small bonus game `rules`, in
    the order the check visits them: {state: {(box, sorted dice): (next state, points now)}}."""
    rules = _bonus_game(rules)
    space, dice, names = StateSpace(rules), rules.dice, rules.box_names
    rolls = np.arange(dice.n_rolls)[:, None]
    moves = {}
    for open_, used, _ in open_states(rules):
        for total in range(space.n_upper):
            state = space.index(used, total, 0)
            if not open_ or not space.reachable[state]:
                continue
            row = {}
            for b, name in enumerate(names):
                if name not in open_:
                    continue
                scored = score_box(space, np.array([[state]]), rolls, b)
                after, upper, _ = space.decode(scored.next_state[:, 0])
                for r in range(dice.n_rolls):
                    left = frozenset(n for k, n in enumerate(names) if not after[r] >> k & 1)
                    row[(name, dice_of(dice.rolls[r]))] = ((left, int(upper[r])), int(scored.points[r, 0]))
            moves[(open_, total)] = row
    return moves


def _label(state) -> str:
    open_, total = state
    boxes = f"{{{', '.join(sorted(open_))}}} open" if open_ else "no box open"
    return f"({boxes}, upper total {total})"


def _case(state, row: dict):
    def case(ask):
        for (box, dice), (after, points) in row.items():
            where = f"write({_label(state)}, {box!r}, {dice})"
            got = ask(where, state, box, dice)
            if not (isinstance(got, tuple) and len(got) == 2 and isinstance(got[0], tuple) and len(got[0]) == 2):
                raise Wrong(f"{where}: write must return ((open boxes, capped upper total), points), got {show(got)}")
            (open_, total), gained = got
            try:
                given = (frozenset(open_), int(total))
            except (TypeError, ValueError):
                raise Wrong(f"{where}: the next state must be (a set of box names, a whole number), "
                            f"got {show(got[0])}") from None
            if given != after:
                raise Wrong(f"{where}: expected the next state {_label(after)}, got {_label(given)}")
            compare(f"{where}, points now", points, gained)
    return case


def check_augmented_writing(write, rules: Rules, time_limit: float = TIME_LIMIT) -> Report:
    """Check `write(state, box, dice)` on every move of every reachable state of the small bonus
    game `rules` (state: (frozenset of open boxes, upper total capped at the threshold); dice:
    a sorted tuple), against the package's turn engine: the next state and the points now."""
    function("write", write)
    cases = [_case(state, row) for state, row in augmented_moves(rules).items()]
    return run(getattr(write, "__name__", "write"), write, cases, time_limit)
