"""An independent brute-force solver in exact Fractions for tiny games: the fast solver's referee.

Nothing is shared with the fast solver: no keepers, no capped upper total, no transition table.
Each turn is recomputed from scratch over ordered dice: every roll in `product(faces, repeat=k)`
with chance 1/faces**k, every subset of dice positions to keep, every open box scored with the
rules' own Box scorers, and the bonuses applied straight from the Rules fields. Only the value of
a whole game state (used boxes, uncapped upper total, Yahtzee flag) is memoised. Within a turn
the values are whole numbers over one common denominator, so every sum is exact and cheap.

>>> one_die = Rules("one-die", (Box("chance", total),), upper_bonus=0, n_dice=1, rolls_per_turn=1)
>>> brute_force_value(one_die)
Fraction(7, 2)
>>> brute_force_value(one_die.with_(rolls_per_turn=2))  # reroll a 1, 2 or 3: (4+5+6)/6 + 1/2 * 7/2
Fraction(17, 4)

With forced_order only the first open box of the card may be filled. With saved_rolls a turn
that scores with j rerolls left carries those j over: the game state also holds the saved count
s, a turn may reroll (rolls_per_turn - 1 + s) times, and each stage compares scoring now (which
saves what is left) with rerolling (`saved_turn_start`).

>>> brute_force_value(one_die.with_(rolls_per_turn=2, saved_rolls=True))  # one box: nothing to save for
Fraction(17, 4)

The spread of a saved-roll game depends on how ties are broken; `brute_force_saved_moments`
follows the advisor's rule, written out here over ordered dice: scoring now when it is worth at
least the best reroll, the first best box in card order, and among the best rerolls the one
keeping the most dice, then the smallest kept dice.

Joker rule for an n of a kind once the Yahtzee box is used (plus yahtzee_bonus if that box holds
a positive score): "forced" - the matching upper box if open, else any open lower box at its joker
value, else any open upper box; "free" - any open box, lower boxes at their joker value only when
the matching upper box is used or does not exist; "none" - normal scoring.

A turn costs about (faces**n_dice) * (faces + 1)**n_dice additions per reroll, so games bigger
than 4 dice of 3 faces or 3 dice of 6 faces are refused with a ValueError.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product
from math import lcm

import numpy as np

from ..game.checks import instance_of
from ..game.ruleset import Rules
from ..game.scoring import Box, total  # noqa: F401  (Box, total: for the doctest)

__all__ = ["brute_force_value", "brute_force_at_least", "brute_force_versus", "versus_value", "saved_turn_start", "brute_force_saved_moments"]

State = tuple[int, int, int]   # (mask of used boxes, uncapped upper total, Yahtzee flag)
Dice = tuple[int, ...]         # ordered dice, e.g. (3, 1)
MAX_TURN_WORK = 100_000        # (faces**n) * (faces+1)**n: 3 dice of 6 faces is 74,088


def turn_start(rules, scored: dict, choices: dict, faces: int, n: int) -> Fraction:
    """The value at the start of a turn from the value of every ordered final roll (`scored`):
    each reroll stage keeps the best dice, over whole numbers with one common denominator."""
    rolls = list(scored)
    denominator = lcm(*(v.denominator for v in scored.values()))
    later = {dice: v.numerator * (denominator // v.denominator) for dice, v in scored.items()}
    for _ in range(rules.rolls_per_turn - 1):
        later = {dice: best_keep(dice, later, choices[dice], faces) for dice in rolls}
        denominator *= faces ** n
    return Fraction(sum(later.values()), denominator * faces ** n)


def brute_force_value(rules: Rules) -> Fraction:
    """Optimal expected final score from the empty card, exactly, by exhaustive search."""
    _check_tiny(rules)
    n, faces, full, rolls, choices, scores = _enumerated(rules)

    if rules.saved_rolls:
        return saved_turn_start(rules, rolls, choices, scores)((0, 0, 0), 0)

    @lru_cache(maxsize=None)
    def value(state: State) -> Fraction:
        """Expected points still to come from the start of a turn in this game state."""
        if state[0] == full:
            return Fraction(0)
        scored = {dice: max(points + value(after)                  # no rerolls left: best box
                            for points, after in moves(rules, dice, scores[dice], state))
                  for dice in rolls}
        return turn_start(rules, scored, choices, faces, n)

    return value((0, 0, 0))


def saved_turn_start(rules: Rules, rolls, choices, scores):
    """value(state, saved): expected points still to come from the start of a turn with `saved`
    rolls saved. Stage j (j rerolls left, from 0 up to rolls_per_turn - 1 + saved) is worth, for
    each ordered roll, the better of scoring now (the next turn starts with j saved) and the best
    reroll, averaged over the stage j - 1 values."""
    n, faces, full = rules.n_dice, rules.faces, (1 << len(rules.boxes)) - 1

    @lru_cache(maxsize=None)
    def value(state: State, saved: int) -> Fraction:
        if state[0] == full:
            return Fraction(0)

        def now(dice, j):
            return max(points + value(after, j) for points, after in moves(rules, dice, scores[dice], state))

        later = {dice: now(dice, 0) for dice in rolls}
        for j in range(1, rules.rolls_per_turn + saved):
            denominator = lcm(*(v.denominator for v in later.values()))
            whole = {dice: v.numerator * (denominator // v.denominator) for dice, v in later.items()}
            later = {dice: max(now(dice, j), Fraction(best_keep(dice, whole, choices[dice], faces),
                                                      denominator * faces ** n)) for dice in rolls}
        return sum(later.values()) / faces ** n

    return value


def brute_force_saved_moments(rules: Rules) -> tuple[Fraction, Fraction]:
    """(E[final score], E[final score^2]) of a saved-roll game from the empty card, exactly,
    under the advisor's choices (see the module docstring for the tie rule).

    >>> two = Rules("chance-twice", (Box("a", total), Box("b", total)), upper_bonus=0, n_dice=1,
    ...             rolls_per_turn=2, saved_rolls=True)
    >>> brute_force_saved_moments(two)
    (Fraction(209, 24), Fraction(1453, 18))
    """
    _check_tiny(rules)
    if not rules.saved_rolls:
        raise ValueError(f"rules {rules.name!r} do not save rolls; their spread is solver.Solution.std")
    n, faces, full = rules.n_dice, rules.faces, (1 << len(rules.boxes)) - 1
    rolls = list(product(range(1, faces + 1), repeat=n))
    scores = {dice: normal_scores(rules, dice) for dice in rolls}
    value = saved_turn_start(rules, rolls, {dice: rerolls(dice, faces) for dice in rolls}, scores)
    keeps = {dice: kept_rerolls(dice, faces) for dice in rolls}

    @lru_cache(maxsize=None)
    def second(state: State, saved: int) -> Fraction:
        if state[0] == full:
            return Fraction(0)

        def now(dice, j) -> tuple[Fraction, Fraction]:       # the first best box: (mean, second)
            best = None
            for p, after in moves(rules, dice, scores[dice], state):
                v, m = value(after, j), second(after, j)
                if best is None or p + v > best[0]:
                    best = (p + v, p * p + 2 * p * v + m)
            return best

        stage = {dice: now(dice, 0) for dice in rolls}
        for j in range(1, rules.rolls_per_turn + saved):
            stage = {dice: _stage(now(dice, j), stage, keeps[dice]) for dice in rolls}
        return sum(m for _, m in stage.values()) / faces ** n

    return value((0, 0, 0), 0), second((0, 0, 0), 0)


def _stage(now, later: dict, keeps) -> tuple[Fraction, Fraction]:
    """(mean, second) of a roll with rerolls left: scoring now (`now`) unless a reroll is worth
    more; among equally good rerolls the most dice kept, then the smallest kept dice."""
    options = []
    for kept, outcomes in keeps:
        mean = sum(later[d][0] for d in outcomes) / len(outcomes)
        options.append((-mean, -len(kept), kept, outcomes))
    neg, _, _, outcomes = min(options)
    if now[0] >= -neg:
        return now
    return -neg, sum(later[d][1] for d in outcomes) / len(outcomes)


def kept_rerolls(dice: Dice, faces: int) -> list[tuple[Dice, list[Dice]]]:
    """`rerolls` with the dice each keeps (sorted) instead of how many it rerolls."""
    out = []
    for k in range(1, len(dice) + 1):
        for positions in combinations(range(len(dice)), k):
            kept = tuple(sorted(d for i, d in enumerate(dice) if i not in positions))
            outcomes = []
            for new in product(range(1, faces + 1), repeat=k):
                rolled = list(dice)
                for p, d in zip(positions, new):
                    rolled[p] = d
                outcomes.append(tuple(rolled))
            out.append((kept, outcomes))
    return out


def brute_force_at_least(rules: Rules, target: int) -> Fraction:
    """Best P(final score >= target) from the empty card, exactly: the state gains the points
    still needed (the objective of `targets.py`), everything else as in `brute_force_value`.

    >>> one_die = Rules("one-die", (Box("chance", total),), upper_bonus=0, n_dice=1, rolls_per_turn=2)
    >>> brute_force_at_least(one_die, 5)    # 5 or 6 now, else reroll: 1/3 + 2/3 * 1/3
    Fraction(5, 9)
    """
    _check_tiny(rules)
    if rules.saved_rolls:
        raise ValueError("brute_force_at_least does not play saved rolls; use brute_force_value")
    n, faces, full, rolls, choices, scores = _enumerated(rules)

    @lru_cache(maxsize=None)
    def value(state: State, need: int) -> Fraction:
        if state[0] == full:
            return Fraction(int(need <= 0))
        scored = {dice: max(value(after, max(need - points, 0))
                            for points, after in moves(rules, dice, scores[dice], state))
                  for dice in rolls}
        return turn_start(rules, scored, choices, faces, n)

    return value((0, 0, 0), target)


def brute_force_versus(rules: Rules) -> Fraction:
    """The first player's P(win) + 1/2 P(tie) when two players alternate whole turns, each
    playing to win, exactly: the whole game tree of both cards and the lead (`two_player.py`'s
    game), with nothing of the fast solvers.

    >>> one_die = Rules("one-die", (Box("chance", total),), upper_bonus=0, n_dice=1, rolls_per_turn=2)
    >>> brute_force_versus(one_die)     # the second player sees the first's score before rerolling
    Fraction(103, 216)
    """
    return versus_value(rules)((0, 0, 0), (0, 0, 0), 0)


def versus_value(rules: Rules):
    """value(mover, waiter, lead): the mover's P(win) + 1/2 P(tie) from the start of its turn in
    any state of the two-player game, exactly (memoised); `brute_force_versus` asks the start.
    The labs check a student's recursion state by state against it.

    >>> one_die = Rules("one-die", (Box("chance", total),), upper_bonus=0, n_dice=1, rolls_per_turn=1)
    >>> versus_value(one_die)((0, 0, 0), (1, 0, 0), -3)    # a 3 to beat: 4, 5 or 6, and half a 3
    Fraction(7, 12)
    """
    _check_tiny(rules)
    if rules.saved_rolls:
        raise ValueError("brute_force_versus does not play saved rolls")
    n, faces, full, rolls, choices, scores = _enumerated(rules)

    def ended(waiter: State, after: State, lead: int) -> Fraction:
        if after[0] == full and waiter[0] == full:
            return Fraction(1) if lead > 0 else Fraction(1, 2) if lead == 0 else Fraction(0)
        return 1 - value(waiter, after, -lead)

    @lru_cache(maxsize=None)
    def value(mover: State, waiter: State, lead: int) -> Fraction:
        """The mover's P(win) + 1/2 P(tie) from the start of its turn, `lead` points ahead."""
        scored = {dice: max(ended(waiter, after, lead + points)
                            for points, after in moves(rules, dice, scores[dice], mover))
                  for dice in rolls}
        return turn_start(rules, scored, choices, faces, n)

    return value


def _enumerated(rules: Rules):
    """What every brute force walks: (n dice, faces, the full card's mask, every ordered roll, each
    roll's rerolls, each roll's normal score in every box)."""
    n, faces = rules.n_dice, rules.faces
    rolls = list(product(range(1, faces + 1), repeat=n))
    return (n, faces, (1 << len(rules.boxes)) - 1, rolls, {dice: rerolls(dice, faces) for dice in rolls},
            {dice: normal_scores(rules, dice) for dice in rolls})


def rerolls(dice: Dice, faces: int) -> list[tuple[int, list[Dice]]]:
    """For every nonempty subset of positions to reroll: its size k and the faces**k ordered
    dice it can lead to, each as likely as the others."""
    return [(len(dice) - len(kept), outcomes) for kept, outcomes in kept_rerolls(dice, faces)]


def best_keep(dice: Dice, later: dict[Dice, int], choices, faces: int) -> int:
    """Best expected value over every choice of dice to reroll, rerolling none included.

    Values are integer numerators over one common denominator; the result's denominator is
    faces**n times larger, so each average over faces**k rolls stays a whole number."""
    n = len(dice)
    best = later[dice] * faces ** n
    for k, outcomes in choices:
        best = max(best, sum(later[d] for d in outcomes) * faces ** (n - k))
    return best


def moves(rules: Rules, dice: Dice, scores: tuple[int, ...], state: State
          ) -> list[tuple[int, State]]:
    """(points now, next state) of every legal box for these dice, whose normal score in each
    box is `scores`: normal scoring, or for an n of a kind once the Yahtzee box is used, the
    Yahtzee bonus and the joker rule."""
    used, _, flag = state
    open_ = [b for b in range(len(rules.boxes)) if not used >> b & 1]
    if rules.forced_order:          # only the next box in card order
        open_ = open_[:1]
    y = _yahtzee(rules)
    if y is None or not used >> y & 1 or len(set(dice)) != 1:
        return [_normal(rules, b, scores, state) for b in open_]
    bonus = rules.yahtzee_bonus if flag else 0
    matching = next((b for b, box in enumerate(rules.boxes) if box.face == dice[0]), None)
    upper_open = [b for b in open_ if rules.boxes[b].face is not None]
    lower_open = [b for b in open_ if rules.boxes[b].face is None]
    if rules.joker == "none":
        options = [_normal(rules, b, scores, state) for b in open_]
    elif rules.joker == "forced":
        if matching in open_:
            options = [_normal(rules, matching, scores, state)]
        elif lower_open:
            options = [_joker(rules, b, scores, state) for b in lower_open]
        else:
            options = [_normal(rules, b, scores, state) for b in upper_open]
    elif rules.joker == "free":
        # joker values only once the matching upper box is used (or when there is none)
        as_joker = matching is None or used >> matching & 1
        options = [_normal(rules, b, scores, state) for b in upper_open]
        options += [(_joker if as_joker else _normal)(rules, b, scores, state) for b in lower_open]
    else:
        raise ValueError(f"unknown joker rule {rules.joker!r}; use 'none', 'forced' or 'free'")
    return [(points + bonus, after) for points, after in options]


def _normal(rules: Rules, b: int, scores, state: State) -> tuple[int, State]:
    """Box b's normal score, with the upper bonus the first time the upper total reaches its
    threshold, and the flag set by a positive score in the Yahtzee box."""
    used, upper, flag = state
    points = scores[b]
    if rules.boxes[b].face is not None:
        new = upper + points
        bonus = rules.upper_bonus if upper < rules.upper_bonus_threshold <= new else 0
        return points + bonus, (used | 1 << b, new, flag)
    if b == _yahtzee(rules) and points > 0:
        flag = 1
    return points, (used | 1 << b, upper, flag)


def _joker(rules: Rules, b: int, scores, state: State) -> tuple[int, State]:
    """Lower box b used as a joker: its fixed joker value if it has one, else its normal score."""
    used, upper, flag = state
    joker_value = rules.boxes[b].joker_value
    return (scores[b] if joker_value is None else joker_value), (used | 1 << b, upper, flag)


def normal_scores(rules: Rules, dice: Dice) -> tuple[int, ...]:
    """Score of these dice in every box, from the boxes' own scorers (no bonus, no joker)."""
    counts = np.array([dice.count(f) for f in range(1, rules.faces + 1)])
    return tuple(int(box.scorer(counts)) for box in rules.boxes)


def _yahtzee(rules: Rules) -> int | None:
    names = [box.name for box in rules.boxes]
    return None if rules.yahtzee_box is None else names.index(rules.yahtzee_box)


def _check_tiny(rules: Rules) -> None:
    """ValueError unless one turn is small enough to enumerate in Fractions."""
    instance_of("rules", rules, Rules, "a Rules value (get_rules(name) gives a built-in one)")
    n, faces = rules.n_dice, rules.faces
    if rules.rolls_per_turn < 1:
        raise ValueError(f"rolls_per_turn must be at least 1, got {rules.rolls_per_turn}")
    work = faces ** n * (faces + 1) ** n
    if work > MAX_TURN_WORK:
        raise ValueError(f"{n} dice of {faces} faces is too big for brute force "
                         f"({work:,} sums per reroll, limit {MAX_TURN_WORK:,})")
    if len(rules.boxes) > 8:
        raise ValueError(f"{len(rules.boxes)} boxes is too many for brute force (limit 8)")
