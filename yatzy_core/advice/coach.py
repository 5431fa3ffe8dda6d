"""The play-along coach: play a whole game from Python and have every decision checked.

A `Game` rolls the dice for you (a seeded numpy Generator, or dice you give), you keep dice and
score boxes, and each decision is scored against optimal play with `advise`: its *loss* is how
many expected final points the choice gives up against the best one. The losses are in expected
points, so a game's result splits into skill and luck:

    total = optimal expectation - expected points lost + luck

Nothing here imports widgets; `yatzy_core.ui.widgets_coach` is only a view of a `Game`.

>>> game = Game("yatzy", dice="11112")
>>> decision = game.keep("1111", rolled="1")
>>> decision.label, decision.optimal, game.position.dice
('keep 1 1 1 1', True, (1, 1, 1, 1, 1))
>>> game.score("yatzy", next_dice="23456").points
50
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .advisor import Advice, advise
from .ranking import keep_all
from ..engine.position import Position, parse_dice, rerolls_left
from ..game.checks import instance_of, whole_number
from ..game.rules import Rules, get_rules
from ..engine.solutions import solution_for
from ..engine.saved import SavedSolution, whole_saved_solution
from ..engine.solver import Solution
from ..players.thumb import broken_rule as _broken_rule
from ..engine.turn import TIE

__all__ = ["Decision", "Summary", "Game", "play_optimally"]

COSTLIEST = 3    # how many of the worst decisions a summary lists


@dataclass(frozen=True)
class Decision:
    """One move of a game: the position it was made in, the choice, and what optimal play would do."""

    turn: int                 # 1 for the first box to fill
    position: Position        # before the move
    choice: Advice            # what was played, with its expected points still to come and its loss
    best: Advice              # the advisor's first choice in the same position
    points: int | None = None  # points the move scored, bonuses included (box moves only)
    bonus: int = 0             # the part of `points` that is upper or Yahtzee bonus

    @property
    def loss(self) -> float:
        return self.choice.loss

    @property
    def optimal(self) -> bool:
        """Within TIE of the best choice: as good as it (the turn engine's tie rule)."""
        return self.loss <= TIE

    @property
    def label(self) -> str:
        return self.choice.label

    def broken_rule(self, rules_of_thumb):
        """The rule of a `thumb.DecisionList` this move broke, or None (`thumb.broken_rule`)."""
        return _broken_rule(rules_of_thumb, self.position, self.choice)

    def __str__(self) -> str:
        where = (f"turn {self.turn}, dice {' '.join(map(str, self.position.dice))}, "
                 f"{rerolls_left(self.position.rolls_left)}")
        if self.optimal:              # boxes by their display names, as the card shows them
            return f"{where}: {self.choice.text} (optimal)"
        return f"{where}: {self.choice.text}, optimal was {self.best.text} (lost {self.loss:.2f} points)"


@dataclass(frozen=True)
class Summary:
    """How a finished (or unfinished) game went, measured against optimal play."""

    rules: str
    total: int                 # points scored, bonuses included
    bonus: int                 # the bonus part of the total
    optimal_expected: float    # what optimal play expects from the start of a game
    moves: int
    optimal_moves: int
    total_loss: float          # expected points given up, summed over every move
    costliest: tuple[Decision, ...]   # the worst moves (that lost something), worst first
    finished: bool = True      # False: `total` is the points so far, not a final score
    rest_expected: float = 0.0  # unfinished: points optimal play still expects after the last move
    turns: tuple[int, int] = (0, 0)   # boxes filled, boxes on the card

    @property
    def luck(self) -> float:
        """The part of the result the dice decided: total - (optimal expectation - loss). In an
        unfinished game only the rolls up to the last move count: the points still expected
        after it stand in for the rest, so a half-played game is not charged its missing turns."""
        return self.total + self.rest_expected - (self.optimal_expected - self.total_loss)

    def lines(self) -> list[str]:
        bonus = f", bonuses {self.bonus}" if self.bonus else ""
        if self.finished:
            head = [f"Total: {self.total} points ({self.rules}{bonus})"]
            luck = f"Luck (total - optimal expectation + points lost): {self.luck:+.2f}"
        else:
            head = [f"Unfinished game: {self.total} points so far after {self.turns[0]} of "
                    f"{self.turns[1]} turns ({self.rules}{bonus}); no final total",
                    f"Optimal play still expects {self.rest_expected:.2f} more points after the last move"]
            luck = (f"Luck over the moves played (points so far + points still expected - optimal "
                    f"expectation + points lost): {self.luck:+.2f}")
        out = head + [f"Optimal play expects {self.optimal_expected:.2f} points from the start of a game",
                      f"Optimal moves: {self.optimal_moves} of {self.moves}",
                      f"Expected points lost against optimal play: {self.total_loss:.2f}", luck]
        if self.costliest:
            out.append("Costliest decisions:")
            out += [f"  {i}. {d}" for i, d in enumerate(self.costliest, 1)]
        else:
            out.append("Every move was optimal.")
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())


def _rng(seed) -> np.random.Generator:
    """`seed` as a Generator: one given as is, else one seeded by a whole number >= 0 or None."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(None if seed is None else whole_number("seed", seed))


class Game:
    """A game in progress: the position now, the moves made and the points scored.

    `seed` (a whole number >= 0, a numpy Generator or None) draws every roll you do not give
    yourself; `dice` is the first roll. An illegal move raises ValueError and leaves the game as
    it was. In a game with saved rolls (`rules.saved_rolls`) scoring with rerolls left banks them:
    the next turn's `position.rolls_left` adds them to its own, and `saved` counts the bank; the
    solution is then a whole `saved.SavedSolution` (solved here for a small game,
    `saved.whole_saved_solution`).
    """

    def __init__(self, rules: str | Rules = "yatzy", seed=None, dice=None,
                 solution: Solution | SavedSolution | None = None):
        self.rules = get_rules(rules)
        self.solution = (whole_saved_solution(self.rules, solution) if self.rules.saved_rolls
                         else solution_for(self.rules, solution))
        self.turn_saved = 0   # saved rolls: those banked when this turn began (after the game, at its end)
        self.rng = _rng(seed)
        if dice is None:
            dice = self.rng.integers(1, self.rules.faces + 1, size=self.rules.n_dice)
        self.position: Position | None = Position.make(self.rules, dice=dice)
        self.decisions: list[Decision] = []
        self.total = 0                      # points scored, bonuses included
        self.bonus = 0                      # the bonus part of the total
        self.scores: dict[str, int] = {}    # box -> points written in it (bonuses apart)

    # -- reading the game
    @property
    def over(self) -> bool:
        return self.position is None

    @property
    def turn(self) -> int:
        """The turn being played, 1-based (the number of boxes filled + 1)."""
        return len(self.scores) + 1

    @property
    def saved(self) -> int:
        """Saved rolls in the bank now (0 without saved rolls): a turn spends its own rerolls
        first, so the bank is the smaller of the rolls saved before it and the rerolls left."""
        return self.turn_saved if self.over else min(self.turn_saved, self.position.rolls_left)

    def _now(self) -> Position:
        if self.position is None:
            raise ValueError("the game is over: start a new Game")
        return self.position

    def advice(self) -> list[Advice]:
        """The advisor's ranking of every choice in the position now, best first."""
        return advise(self._now(), self.solution)

    # -- moves
    def keep(self, kept, rolled=None) -> Decision:
        """Keep these dice and reroll the others (`rolled` gives the new dice, else they are drawn)."""
        position = self._now()
        kept = parse_dice(kept, self.rules.faces)
        following = position.keep(kept, rolled=rolled, rng=self.rng)   # ValueError if illegal
        ranked = advise(position, self.solution)
        choice = next((a for a in ranked if a.action == "keep" and a.keep == kept), None)
        if choice is None:    # all dice kept: a roll spent
            value = keep_all(position, lambda p: advise(p, self.solution)).expected
            choice = Advice("keep", kept, None, value, ranked[0].expected - value)
        return self._record(Decision(self.turn, position, choice, ranked[0]), following)

    def score(self, box: str, next_dice=None) -> Decision:
        """Score the dice in `box` (also allowed with rerolls left: you stop rolling early)."""
        position = self._now()
        scored = position.scored(box)                  # ValueError if used or not allowed
        points, bonus = int(scored.points), int(scored.bonus)
        ranked = advise(position, self.solution)
        choice = next(a for a in ranked if a.box == box)    # with rerolls left: "score BOX now"
        following = position.score(box, next_dice=next_dice, rng=self.rng)   # checks next_dice
        if self.rules.saved_rolls:     # the rerolls left are banked for the turns to come
            self.turn_saved = position.rolls_left
            if following is not None:
                following = replace(following, rolls_left=following.rolls_left + position.rolls_left)
        decision = Decision(self.turn, position, choice, ranked[0], points, bonus)
        self.scores[box] = points - bonus
        self.bonus += bonus
        self.total += points
        return self._record(decision, following)

    def play(self, advice: Advice, rolled=None) -> Decision:
        """Make the move an `Advice` describes (for example the advisor's first choice)."""
        instance_of("advice", advice, Advice, "an Advice (from game.advice())")
        if advice.action == "keep":
            return self.keep(advice.keep, rolled=rolled)
        return self.score(advice.box, next_dice=rolled)

    def _record(self, decision: Decision, following: Position | None) -> Decision:
        self.decisions.append(decision)
        self.position = following
        return decision

    # -- the verdict
    def summary(self) -> Summary:
        """Total, optimal expectation, optimal moves, expected points lost and the costliest moves."""
        worst = sorted((d for d in self.decisions if not d.optimal), key=lambda d: -d.loss)
        return Summary(self.rules.name, self.total, self.bonus, self.solution.expected_score, len(self.decisions),
                       sum(d.optimal for d in self.decisions), sum(d.loss for d in self.decisions),
                       tuple(worst[:COSTLIEST]), self.over, self._rest_expected(),
                       (len(self.scores), self.rules.n_boxes))

    def _rest_expected(self) -> float:
        """Points optimal play expects after the last move, before any roll that follows it
        (0 once the card is full): an unfinished game's luck stops at its last move."""
        if self.over:
            return 0.0
        if not self.decisions:
            return self.solution.expected_score
        last = self.decisions[-1]
        return last.choice.expected - (last.points or 0)


def play_optimally(rules: str | Rules = "yatzy", seed=None, solution: Solution | None = None) -> Game:
    """A whole game played by always taking the advisor's first choice (every move optimal)."""
    game = Game(rules, seed=seed, solution=solution)
    while not game.over:
        game.play(game.advice()[0])
    return game
