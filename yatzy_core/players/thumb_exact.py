"""Rules of thumb measured exactly, and learned from optimal play weighted by what a mistake costs.

Measuring (`exact_play`): a policy that sees the upper total only through a class (a rule list:
on pace or not; the optimal policy: the total itself) decides the same turn for every state of
one (used boxes, class) context. So each context's turn is worked out once: the choices, the
probability of every final roll (`turn_forward.final_roll_probabilities`) and the box it goes in. Then
P(used boxes, upper total) is pushed forwards from the empty card, turn by turn, with no
sampling: the expected points of every box and of the upper bonus are exact (to rounding).

Learning (`learn`): positions are the turn starts of seeded games of optimal play. At each one
the turn engine gives the exact value of every keeper and box under optimal play afterwards, so
any choice has a *loss* (the best value less its own), and each roll a weight (how often optimal
play sees it there). Rules are picked greedily from `thumb_catalogue.catalogue`: each time the rule whose
choices, where no earlier rule spoke, cut the weighted loss most.

>>> rules = get_rules("yahtzee-no-bonus")
>>> only_chance = rules.with_(name="chance-only", boxes=rules.boxes[-1:], upper_bonus=0, yahtzee_box=None)
>>> round(exact_play(DecisionList(only_chance)).total, 6)   # keep the most common face: below 70/3
18.760681
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .batch import fill, reroll
from .policy_iteration import LookAhead, evaluate_policy
from ..engine.turn_forward import final_roll_probabilities, gather_keepers, spread_keepers
from ..game.rules import Rules, get_rules
from ..engine.solutions import solution_for
from ..game.states import StateSpace
from .strategies import Optimal
from .thumb import KEEP, DecisionList, Rule, View, decide, on_pace
from .thumb_catalogue import catalogue
from ..engine.turn import box_values, evaluate

__all__ = ["Play", "OptimalPolicy", "ListPlayer", "exact_play", "list_values", "Positions", "optimal_positions", "own_positions",
           "look_ahead", "learn", "prune", "ablation"]

CHUNK = 1024   # contexts whose turn tables are held at once


@dataclass(frozen=True)
class Play:
    """Exact results of one policy: expected points of each box, the upper bonus and P(bonus)."""

    name: str
    box_expectations: dict[str, float]   # per box, then upper_bonus and total
    p_upper_bonus: float

    @property
    def total(self) -> float:
        return self.box_expectations["total"]


class _ListPolicy:
    """A decision list as contexts: its class is the pace bit."""

    def __init__(self, dl: DecisionList, memo: dict | None = None):
        self.dl, self.memo = dl, memo

    def classes(self, space: StateSpace) -> np.ndarray:
        masks = np.arange(1 << space.n_boxes)
        return on_pace(space.rules, masks, np.arange(space.n_upper)[None, :].repeat(len(masks), 0)).astype(np.int64)

    def turn(self, space, masks, classes):
        rules, R = space.rules, space.rules.dice.n_rolls
        keeps = [decide(self.dl, View.of(rules, masks, classes, np.arange(R), j), self.memo)[0].T
                 for j in range(1, rules.rolls_per_turn)]
        return keeps, decide(self.dl, View.of(rules, masks, classes, np.arange(R), 0), self.memo)[0].T


class OptimalPolicy:
    """The solver's policy as contexts: its class is the upper total (for checks on small games:
    its tables cover every (used boxes, total)). Each context's turn is
    `policy_iteration.LookAhead`'s for the solution's values, the one look-ahead of the package,
    asked here by (used boxes, total) as `exact_play` pushes them forwards instead of by state."""

    def __init__(self, solution):
        self.solution = solution
        self._look_ahead = LookAhead(solution.rules, solution.values)

    def classes(self, space: StateSpace) -> np.ndarray:
        return np.broadcast_to(np.arange(space.n_upper), (1 << space.n_boxes, space.n_upper))

    def turn(self, space, masks, classes):
        box, keep = self._look_ahead.turn_choices(space.index(masks, classes))
        return keep, box


@dataclass(frozen=True)
class _Values:
    """A value table and its rules: all that `OptimalPolicy` reads of a solution."""

    rules: Rules
    values: np.ndarray


def look_ahead(rules: Rules, values) -> OptimalPolicy:
    """The policy that plays each turn the best way for `values` at the states after it
    (`policy_iteration.LookAhead`, in the form `exact_play` pushes forwards). With a base
    policy's values V^pi this is one step of policy improvement (rollout, never worse than the
    base); with the solver's values it is optimal play.

    >>> rules = get_rules("yahtzee-no-bonus")
    >>> chance = rules.with_(name="chance-only", boxes=rules.boxes[-1:], upper_bonus=0, yahtzee_box=None)
    >>> values = np.zeros(StateSpace(chance).size)     # one box: nothing is left after it
    >>> round(exact_play(look_ahead(chance, values)).total, 6)   # the best single turn, 70/3
    23.333333
    """
    return OptimalPolicy(_Values(rules, np.asarray(values, dtype=np.float64)))


class ListPlayer:
    """A decision list as a player for `policy_iteration.evaluate_policy`: its choices in a block
    of states are asked once per distinct (used boxes, pace) context of the block."""

    def __init__(self, dl: DecisionList):
        self.rules, self.dl, self.space = dl.rules, dl, StateSpace(dl.rules)

    def __repr__(self) -> str:
        return "decision list"

    def turn_choices(self, states):
        masks, upper, _ = self.space.decode(np.asarray(states))
        paces = on_pace(self.rules, masks, upper[:, None])[:, 0]
        context, back = np.unique(masks * 2 + paces, return_inverse=True)
        keeps, box = _ListPolicy(self.dl).turn(self.space, context >> 1, context & 1)   # the list's turn, per context
        return box[:, back], [keep[:, back] for keep in keeps]


def list_values(dl: DecisionList, progress: bool = False) -> np.ndarray:
    """Policy evaluation of a list: V^pi of every state (indexed like the solver's values), by one
    backward sweep (`policy_iteration.evaluate_policy`). Its value at the empty card is the forward
    pass's `exact_play(dl).total`, computed the other way round.

    >>> rules = get_rules("yahtzee-no-bonus")
    >>> only_chance = DecisionList(rules.with_(name="chance-only", boxes=rules.boxes[-1:], upper_bonus=0, yahtzee_box=None))
    >>> round(float(list_values(only_chance)[0]), 6)          # the module's example, backwards
    18.760681
    """
    return evaluate_policy(ListPlayer(dl), progress)


def _context_tables(space, policy, masks, classes):
    """For each context: Q (C, B, n_dice + 1) P(the turn ends in box b with n dice of its face,
    n = 0 for a lower box) and E (C, B) the expected points written in box b."""
    rules = space.rules
    B, R, N = rules.n_boxes, rules.dice.n_rolls, rules.n_dice + 1
    Q, E = np.zeros((len(masks), B, N)), np.zeros((len(masks), B))
    faces = rules.upper_faces
    for i in range(0, len(masks), CHUNK):
        m, c = masks[i:i + CHUNK], classes[i:i + CHUNK]
        keeps, box = policy.turn(space, m, c)
        if ((m[None, :] >> box) & 1).any():
            raise ValueError("policy: it chose a used box")
        prob = final_roll_probabilities(space, list(keeps), len(m))       # (R, C)
        pts = rules.score_table[np.arange(R)[:, None], box]                # (R, C)
        n = np.where(faces[box] > 0, pts // np.maximum(faces[box], 1), 0)
        ctx = np.arange(len(m))[None, :]
        Q[i:i + CHUNK] = np.bincount(((ctx * B + box) * N + n).ravel(), prob.ravel(),
                                     len(m) * B * N).reshape(len(m), B, N)
        E[i:i + CHUNK] = np.bincount((ctx * B + box).ravel(), (prob * pts).ravel(), len(m) * B).reshape(len(m), B)
    return Q, E


def exact_play(policy, name: str | None = None, memo: dict | None = None) -> Play:
    """Push P(used boxes, upper total) through `policy` (a `DecisionList` or `OptimalPolicy`)
    from the empty card: the exact expected points of every box and bonus (`memo`: see
    `thumb.decide`)."""
    if isinstance(policy, DecisionList):
        rules, name, policy = policy.rules, name or "decision list", _ListPolicy(policy, memo)
    else:
        rules, name = policy.solution.rules, name or "optimal"
    space = StateSpace(rules)
    if space.n_flags != 1:
        raise ValueError(f"policy: exact_play needs rules without a Yahtzee bonus or joker, got {rules.name!r}")
    B, U, cap, t = rules.n_boxes, space.n_upper, rules.upper_cap, rules.upper_bonus_threshold
    cls = policy.classes(space)
    n_cls = int(cls.max()) + 1
    P = np.zeros((1 << B, U))
    P[0, 0] = 1.0
    box_sum, bonus = np.zeros(B), 0.0
    for k in range(B):
        masks = np.flatnonzero(space.boxes_used == k)
        Q, E = _context_tables(space, policy, np.repeat(masks, n_cls), np.tile(np.arange(n_cls), len(masks)))
        Pk = P[masks]
        cidx = np.arange(len(masks))[:, None] * n_cls + cls[masks]           # (M, U)
        box_sum += np.einsum("mu,mub->b", Pk, E[cidx])
        for b in range(B):
            to = masks | (1 << b)
            if not rules.upper_faces[b]:
                P[to] += Pk * Q[cidx, b, 0]
                continue
            moved = np.zeros((len(masks), U))
            for n in range(rules.n_dice + 1):
                W, g = Pk * Q[cidx, b, n], n * int(rules.upper_faces[b])
                moved[:, g:cap] += W[:, :max(cap - g, 0)]               # u + g below the cap
                moved[:, cap] += W[:, max(cap - g, 0):].sum(axis=1)     # capped
                if rules.tracks_upper:
                    bonus += W[:, max(t - g, 0):t].sum()
            P[to] += moved
    expectations = {n: float(v) for n, v in zip(rules.box_names, box_sum)}
    expectations["upper_bonus"] = float(bonus * rules.upper_bonus)
    expectations["total"] = float(box_sum.sum() + bonus * rules.upper_bonus)
    return Play(name, expectations, float(bonus))


# ---- learning ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Positions:
    """Turn starts of optimal games and, per stage (0: the box, j: j rerolls left), each roll's
    weight (how often optimal play sees it, per game) and the loss of any choice."""

    rules: Rules
    states: np.ndarray
    weights: list[np.ndarray]   # per stage, (N, R)
    turns: list                 # blocks of turn.Turn, for the losses
    games: int

    def view(self, stage: int) -> View:
        space = StateSpace(self.rules)
        mask, upper, _ = space.decode(self.states)
        return View.of(self.rules, mask, on_pace(self.rules, mask, upper), np.arange(self.rules.dice.n_rolls), stage)

    def loss(self, stage: int, choice: np.ndarray) -> np.ndarray:
        """(N, R) expected points lost by `choice` (N, R) at this stage against optimal play."""
        out, n = [], 0
        for t in self.turns:
            S = t.start.shape[0]
            c = choice[n:n + S].T
            cols = np.arange(S)[None, :]
            if stage == 0:
                v = np.take_along_axis(t.final, c[None], 0)[0]
            else:
                v = t.keepers[stage - 1][c, cols]
            out.append((t.rolls[stage] - v).T)
            n += S
        return np.concatenate(out)

    def loss_of(self, dl: DecisionList, memo: dict | None = None) -> float:
        """Expected points per game that the list's choices give up on these positions, each
        choice judged alone with optimal play after it (the weighted loss `learn` minimises)."""
        return sum(float((self.weights[j] * self.loss(j, decide(dl, self.view(j), memo)[0])).sum())
                   for j in range(self.rules.rolls_per_turn))

    def loss_by_game(self, dl: DecisionList, memo: dict | None = None) -> np.ndarray:
        """(games,) the points each game's positions give up under the list, as `loss_of` judges
        them: their mean is `loss_of`, their spread gives its standard error.

        >>> rules = get_rules("yahtzee-no-bonus")
        >>> chance = rules.with_(name="chance-only", boxes=rules.boxes[-1:], upper_bonus=0, yahtzee_box=None)
        >>> optimal_positions(chance, games=3).loss_by_game(DecisionList(chance)).round(6)   # one turn each
        array([4.143773, 4.143773, 4.143773])
        """
        per_state = sum((self.weights[j] * self.loss(j, decide(dl, self.view(j), memo)[0])).sum(axis=1)
                        for j in range(self.rules.rolls_per_turn)) * self.games
        game = np.arange(len(self.states)) % self.games          # the states are turn by turn, game by game
        return np.bincount(game, weights=per_state, minlength=self.games)


def optimal_positions(rules: str | Rules, games: int = 200, seed: int = 0) -> Positions:
    """The turn starts of `games` seeded optimal games, with the optimal turn at each."""
    rules = get_rules(rules)
    player = Optimal(rules, solution_for(rules), threads=1)
    return _positions(rules, games, seed, player.keep, player.box, lambda states, t, stage: t.keep[stage - 1])


def own_positions(dl: DecisionList, games: int = 200, seed: int = 0, memo: dict | None = None) -> Positions:
    """The turn starts of `games` seeded games played by the list itself, each roll weighted by
    how often the list's own keepers reach it; the losses are still against optimal play. The
    states a policy is judged on are its own here, not optimal play's (distribution shift). On
    its own states the loss adds up to the whole gap to optimal play (the regret identity): here
    exactly, since a one-box game has a single turn start.

    >>> rules = get_rules("yahtzee-no-bonus")
    >>> chance = DecisionList(rules.with_(name="chance-only", boxes=rules.boxes[-1:], upper_bonus=0, yahtzee_box=None))
    >>> round(own_positions(chance, games=1).loss_of(chance), 6), round(70 / 3 - exact_play(chance).total, 6)
    (4.572652, 4.572652)
    >>> round(optimal_positions(chance.rules, games=1).loss_of(chance), 6)   # on optimal play's rolls
    4.143773
    """
    rules, space = dl.rules, StateSpace(dl.rules)

    def choices(states, stage):
        mask, upper, _ = space.decode(states)
        view = View.of(rules, mask, on_pace(rules, mask, upper), np.arange(rules.dice.n_rolls), stage)
        return decide(dl, view, memo)[0]                                  # (N, R)

    def keep(states, rolls, rerolls, rng):
        return choices(states, rerolls)[np.arange(len(states)), rolls]

    def box(states, rolls, rng):
        return choices(states, 0)[np.arange(len(states)), rolls]

    return _positions(rules, games, seed, keep, box, lambda states, t, stage: choices(states, stage).T)


def _positions(rules: Rules, games: int, seed: int, keep, box, keepers_at) -> Positions:
    """Play `games` seeded games with `keep` and `box`; at each turn start the optimal turn (for
    the losses) and the weight of every roll under the keepers `keepers_at(states, turn, stage)`."""
    space, solution = StateSpace(rules), solution_for(rules)
    rng = np.random.default_rng(seed)
    states = np.zeros(games, np.int64)
    seen = []
    for _ in range(rules.n_boxes):
        seen.append(states)
        rolls = reroll(rules, np.zeros(games, np.int64), rng)
        for rerolls in range(rules.rolls_per_turn - 1, 0, -1):
            rolls = reroll(rules, keep(states, rolls, rerolls, rng), rng)
        states = fill(space, states, rolls, box(states, rolls, rng)).next_state
    states = np.concatenate(seen)
    turns, weights = [], [[] for _ in range(rules.rolls_per_turn)]
    for i in range(0, len(states), 512):
        block = states[i:i + 512]
        t = evaluate(space, box_values(space, solution.values, block))
        turns.append(t)
        p = np.repeat(rules.dice.transition[0][:, None], t.start.shape[0], axis=1)
        for stage in range(rules.rolls_per_turn - 1, 0, -1):
            weights[stage].append(p.T)
            p = spread_keepers(space, gather_keepers(space, p, keepers_at(block, t, stage)))
        weights[0].append(p.T)
    return Positions(rules, states, [np.concatenate(w) / games for w in weights], turns, games)


def _stages(rule: Rule, rules: Rules) -> range:
    return range(1, rules.rolls_per_turn) if rule.kind == KEEP else range(0, 1)


def learn(positions: Positions, n_rules: int = 15, candidates=None) -> tuple[DecisionList, list[float]]:
    """The decision list grown greedily from `candidates` (default `thumb_catalogue.catalogue`): each step
    puts the rule, at the place in the list, that cuts the weighted loss most. Returns the list
    and the loss per game (one choice at a time, optimal play after it) after each step."""
    rules = positions.rules
    candidates = list(candidates or catalogue(rules))
    stages = range(rules.rolls_per_turn)
    views = [positions.view(j) for j in stages]
    current = [positions.loss(j, decide(DecisionList(rules), views[j])[0]) for j in stages]
    first = [np.full(c.shape, n_rules, np.int64) for c in current]   # who decides; n_rules: fallback
    table = {}
    for i, rule in enumerate(candidates):
        for j in _stages(rule, rules):
            c = rule.choose(views[j])
            table[i, j] = (c >= 0, positions.loss(j, np.where(c >= 0, c, 0)))
    losses = [sum(float((positions.weights[j] * current[j]).sum()) for j in stages)]
    chosen: list[int] = []
    for _ in range(n_rules):
        best, place, gain = None, 0, 1e-6
        for i, rule in enumerate(candidates):
            if i in chosen:
                continue
            at = np.zeros(n_rules + 1)
            for j in _stages(rule, rules):
                speaks, loss = table[i, j]
                d = positions.weights[j] * (current[j] - loss)
                at += np.bincount(first[j][speaks], d[speaks], n_rules + 1)
            suffix = np.cumsum(at[::-1])[::-1][:len(chosen) + 1]   # gain if placed at p
            p = int(np.argmax(suffix))
            if suffix[p] > gain:
                best, place, gain = i, p, float(suffix[p])
        if best is None:
            break
        chosen.insert(place, best)
        for j in stages:
            later = first[j] >= place
            first[j][later & (first[j] < n_rules)] += 1
            if (best, j) in table:
                speaks, loss = table[best, j]
                take = later & speaks
                first[j][take], current[j][take] = place, loss[take]
        losses.append(losses[-1] - gain)
    return DecisionList(rules, tuple(candidates[i] for i in chosen)), losses


def ablation(dl: DecisionList, memo: dict | None = None) -> list[tuple[str, float]]:
    """The exact expected score of the list without each of its rules, in order."""
    memo = {} if memo is None else memo
    return [(str(rule), exact_play(dl.without(k), memo=memo).total) for k, rule in enumerate(dl.items)]


def prune(dl: DecisionList, memo: dict | None = None) -> tuple[DecisionList, float]:
    """One pass down the list, dropping each rule whose removal raises the exact expected score
    (the greedy loss is one choice at a time; the exact score is the whole game). Returns the
    pruned list and its exact expected score."""
    memo = {} if memo is None else memo
    score = exact_play(dl, memo=memo).total
    k = 0
    while k < len(dl.items):
        shorter = dl.without(k)
        s = exact_play(shorter, memo=memo).total
        if s > score:
            dl, score = shorter, s
        else:
            k += 1
    return dl, score
