"""A game's moves as JSON, and a game rebuilt from them: save a coached game, grade it later,
or grade a game played on paper.

A log holds the rules, the first roll and each move with the dice it led to; replaying it
through `coach.Game` gives the same decisions and the same grades (the losses are the
advisor's, recomputed, never stored). The dice are sorted multisets, as `advisor.Position`
keeps them, so a die's place on the table does not matter.

    {"format": "yatzy-game-log", "version": 1, "rules": "yatzy", "first_roll": [1, 1, 1, 1, 2],
     "moves": [{"keep": [1, 1, 1, 1], "dice": [1, 1, 1, 1, 1]},
               {"score": "yatzy", "dice": [2, 3, 4, 5, 6]}]}

`"dice"` after a keep is the whole roll that followed (kept dice included); after a score it is
the next turn's first roll, absent once the card is full.

A paper game is typed one turn a line, the dice and the choices in the order they happened:
`11112 1111 11111 yatzy` (rolled 11112, kept 1111, rolled to 11111, scored yatzy); `-` keeps
nothing. Each line's first roll is the line's first token.

>>> game = paper_game("yatzy", ["11112 1111 11111 yatzy", "23456 large_straight"])
>>> [d.label for d in game.decisions], game.total
(['keep 1 1 1 1', 'score yatzy', 'score large_straight'], 70)
>>> replay(to_log(game)).total
70
"""
from __future__ import annotations

import json
from collections import Counter

from .advisor import parse_dice
from .coach import Game
from .rules import Rules, get_rules
from .solver import Solution

__all__ = ["FORMAT", "to_log", "dumps", "loads", "replay", "paper_game", "undo"]

FORMAT = "yatzy-game-log"
VERSION = 1
NO_KEEP = "-"    # a paper game's token for "keep nothing, reroll all"


def to_log(game: Game) -> dict:
    """The game's moves as a JSON-ready dict (see the module docstring)."""
    decisions = game.decisions
    first = decisions[0].position.dice if decisions else game.position.dice
    after = [d.position.dice for d in decisions[1:]] + [None if game.over else game.position.dice]
    moves = []
    for decision, dice in zip(decisions, after):
        choice = decision.choice
        move = {"keep": list(choice.keep)} if choice.action == "keep" else {"score": choice.box}
        if dice is not None:
            move["dice"] = list(dice)
        moves.append(move)
    return {"format": FORMAT, "version": VERSION, "rules": game.rules.name,
            "first_roll": list(first), "moves": moves}


def dumps(game: Game) -> str:
    """The game log as a JSON string."""
    return json.dumps(to_log(game), indent=1)


def loads(text: str, solution: Solution | None = None, seed=None) -> Game:
    """A Game rebuilt from a JSON game log (`seed` draws any rolls played after it)."""
    try:
        log = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"text is not JSON: {err}") from None
    return replay(log, solution=solution, seed=seed)


def _rules_of(log: dict, solution: Solution | None) -> Rules:
    if not isinstance(log, dict) or log.get("format") != FORMAT:
        raise ValueError(f"log must be a dict with format {FORMAT!r}")
    if log.get("version") != VERSION:
        raise ValueError(f"log version must be {VERSION}, got {log.get('version')!r}")
    if solution is not None and solution.rules.name == log.get("rules"):
        return solution.rules
    return get_rules(log.get("rules"))


def replay(log: dict, solution: Solution | None = None, seed=None) -> Game:
    """Play a log's moves again through `coach.Game`: the same decisions and grades.
    A move the rules forbid raises ValueError naming the move."""
    rules = _rules_of(log, solution)
    moves = log.get("moves")
    if not isinstance(moves, list):
        raise ValueError("log 'moves' must be a list")
    if log.get("first_roll") is None:
        raise ValueError("log needs a 'first_roll'")
    game = Game(rules, seed=seed, dice=log["first_roll"], solution=solution)
    for number, move in enumerate(moves, 1):
        try:
            _play(game, move)
        except (ValueError, TypeError, KeyError) as err:
            raise ValueError(f"log move {number} ({move!r}): {err}") from None
    return game


def _play(game: Game, move: dict) -> None:
    if not isinstance(move, dict):
        raise ValueError(f"a move is an object with 'keep' or 'score', got {type(move).__name__}")
    dice = move.get("dice")
    if "keep" in move:
        kept = parse_dice(move["keep"], game.rules.faces)
        game.keep(kept, rolled=None if dice is None else _rolled(kept, parse_dice(dice, game.rules.faces)))
    elif "score" in move:
        game.score(move["score"], next_dice=dice)
    else:
        raise ValueError("a move needs 'keep' or 'score'")


def _rolled(kept, dice) -> tuple[int, ...]:
    """The new dice of a reroll: the roll after it less the kept dice."""
    rest = Counter(dice)
    rest.subtract(Counter(kept))
    if any(n < 0 for n in rest.values()):
        raise ValueError(f"the roll {list(dice)} does not contain the kept dice {list(kept)}")
    return tuple(sorted(rest.elements()))


def undo(game: Game) -> Game:
    """The game as it was one move ago (same rules, solution and random stream)."""
    if not game.decisions:
        raise ValueError("game has no move to undo")
    log = to_log(game)
    log["moves"] = log["moves"][:-1]
    if log["moves"]:
        log["moves"][-1]["dice"] = list(game.decisions[-1].position.dice)
    return replay(log, solution=game.solution, seed=game.rng)


def paper_game(rules: str | Rules, turns, solution: Solution | None = None) -> Game:
    """Grade a game played on paper: `turns` is one line a turn (or a text of lines), each
    `roll choice roll choice ... box` (see the module docstring)."""
    if isinstance(turns, str):
        turns = turns.splitlines()
    if not isinstance(turns, (list, tuple)) or not all(isinstance(t, str) for t in turns):
        raise ValueError(f"turns must be a text or a list of lines (str), got {type(turns).__name__}")
    lines = [line.split() for line in turns if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise ValueError("turns must hold at least one line")
    return replay(_paper_log(get_rules(rules), lines), solution=solution)


def _paper_log(rules: Rules, lines: list[list[str]]) -> dict:
    moves: list[dict] = []
    for number, tokens in enumerate(lines, 1):
        if len(tokens) % 2 or len(tokens) > 2 * rules.rolls_per_turn:
            raise ValueError(f"turns line {number} ({' '.join(tokens)!r}) must alternate roll and "
                             f"choice, ending with a box, at most {rules.rolls_per_turn} rolls")
        if tokens[-1] not in rules.box_names:
            raise ValueError(f"turns line {number} must end with a box ({', '.join(rules.box_names)}), "
                             f"got {tokens[-1]!r}")
        if moves:
            moves[-1]["dice"] = tokens[0]
        for choice, dice in zip(tokens[1:-1:2], tokens[2::2]):
            moves.append({"keep": "" if choice == NO_KEEP else choice, "dice": dice})
        moves.append({"score": tokens[-1]})
    return {"format": FORMAT, "version": VERSION, "rules": rules.name, "first_roll": lines[0][0],
            "moves": moves}
