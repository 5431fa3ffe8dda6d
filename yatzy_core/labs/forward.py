"""Chapter 6's lab: the forward pass of a fixed player, written by the student, checked turn by
turn against exact fractions.

Policy evaluation can run forwards: start with probability 1 on the empty card with 0 points and
push the probabilities through one turn of the player's own choices, then the next, until the card
is full; what is left is the exact distribution of the final score. The student writes one turn of
it, `push(layer)`: a dict {(open boxes, points so far): probability} in, the same after one more
turn of `Greedy` out. The check feeds it the true distribution after 0, 1, ... turns and compares
every (state, points) entry of the answer with the next, exactly; no maximum is taken anywhere.

>>> from yatzy_core.game.rules import get_rules
>>> yatzy = get_rules("yatzy")
>>> game = yatzy.with_(name="chance", n_dice=1, boxes=yatzy.boxes[13:14], upper_bonus=0, rolls_per_turn=1)
>>> [sorted((points, str(p)) for (_, points), p in layer.items()) for layer in greedy_layers(game)]
[[(0, '1')], [(1, '1/6'), (2, '1/6'), (3, '1/6'), (4, '1/6'), (5, '1/6'), (6, '1/6')]]
"""
from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import numpy as np

from ..game.ruleset import Rules
from ..game.states import StateSpace
from ..players.policy_iteration import turn_choices
from ..players.strategies import Greedy
from .games import _small_game as small_game
from .report import TIME_LIMIT, Report, Wrong, compare, function, run, show

__all__ = ["check_forward_pass", "greedy_layers"]


def _turn_outcomes(rules: Rules, used: int) -> dict[tuple[int, int], Fraction]:
    """Greedy's one turn from the state with boxes `used`: {(box scored, points): probability}."""
    space, dice = StateSpace(rules), rules.dice
    box, keeps = turn_choices(Greedy(rules), np.array([space.index(used, 0, 0)]))
    p = {r: dice.p_exact(0, r) for r in range(dice.n_rolls)}
    for keep in reversed(keeps):                       # the most rerolls left first
        after: dict[int, Fraction] = defaultdict(Fraction)
        for r, pr in p.items():
            for r2 in range(dice.n_rolls):
                q = dice.p_exact(int(keep[r, 0]), r2)
                if q:
                    after[r2] += pr * q
        p = after
    out: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    for r, pr in p.items():
        b = int(box[r, 0])
        out[(b, int(rules.score_table[r, b]))] += pr
    return out


def greedy_layers(rules: Rules) -> list[dict[tuple[frozenset, int], Fraction]]:
    """The exact distribution of (open boxes, points so far) under `Greedy`, after 0, 1, ..., B
    turns of the small game `rules`: B + 1 dicts, the last one the final score's distribution."""
    rules = small_game(rules)
    names, full = rules.box_names, (1 << rules.n_boxes) - 1
    layers = [{(frozenset(names), 0): Fraction(1)}]
    turns: dict[int, dict] = {}
    for _ in range(rules.n_boxes):
        nxt: dict[tuple[frozenset, int], Fraction] = defaultdict(Fraction)
        for (open_, points), p in layers[-1].items():
            used = full & ~sum(1 << b for b in range(rules.n_boxes) if names[b] in open_)
            if used not in turns:
                turns[used] = _turn_outcomes(rules, used)
            for (b, gained), q in turns[used].items():
                nxt[(open_ - {names[b]}, points + gained)] += p * q
        layers.append(dict(nxt))
    return layers


def _label(key) -> str:
    open_, points = key
    return f"({{{', '.join(sorted(open_))}}} open, {points} points)" if open_ else f"(no box open, {points} points)"


def _push_case(turn: int, before: dict, after: dict):
    def case(ask):
        where = f"turn {turn}"
        got = ask(where, dict(before))
        if not isinstance(got, dict):
            raise Wrong(f"{where}: push must return a dict {{(open boxes, points): probability}}, "
                        f"got {type(got).__name__}")
        for key, p in sorted(after.items(), key=lambda kv: (len(kv[0][0]), sorted(kv[0][0]), kv[0][1])):
            if key not in got:
                raise Wrong(f"{where}, state {_label(key)}: expected {show(p)}, got no entry")
            compare(f"{where}, state {_label(key)}", p, got[key])
        for key, p in got.items():
            if key not in after and not abs(float(p)) <= 1e-12:
                raise Wrong(f"{where}: {key!r} has probability {show(p)}, but greedy play never reaches it")
    return case


def check_forward_pass(push, rules: Rules, time_limit: float = TIME_LIMIT) -> Report:
    """Check `push(layer)`, one turn of greedy play pushed forward (layer: a dict from (frozenset of
    open boxes, points so far) to a probability), on the true distribution after each turn of the
    small game `rules`: every entry of the next one, exactly for Fractions, else to 1e-9, and no
    entry greedy play cannot reach. `push` runs without the package's solvers (labs/sandbox.py)."""
    function("push", push)
    layers = greedy_layers(rules)
    cases = [_push_case(k + 1, layers[k], layers[k + 1]) for k in range(len(layers) - 1)]
    return run(getattr(push, "__name__", "push"), push, cases, time_limit)
