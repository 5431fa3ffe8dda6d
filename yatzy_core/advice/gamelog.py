"""A game's moves as JSON, and a game rebuilt from them: save a coached game, grade it later,
or grade a game played on paper.

A log holds the rules (their name and, since version 2, the rules themselves as rule-file
TOML, so a variant or a rule file's game is graded under what was played), the first roll and
each move with the dice it led to; replaying it through `coach.Game` gives the same decisions
and the same grades (the losses are the advisor's, recomputed, never stored). The dice are
sorted multisets, as `Position` keeps them, so a die's place on the table does not matter.

    {"format": "yatzy-game-log", "version": 2, "rules": "yatzy", "rule_file": "name = ...",
     "first_roll": [1, 1, 1, 1, 2],
     "moves": [{"keep": [1, 1, 1, 1], "dice": [1, 1, 1, 1, 1]},
               {"score": "yatzy", "dice": [2, 3, 4, 5, 6]}]}

`"dice"` after a keep is the whole roll that followed (kept dice included); after a score it is
the next turn's first roll, absent once the card is full. In a game with saved rolls a score
also records `"saved"`: the rolls in the bank after it (the rerolls it left unused; a turn spends
its own rerolls first, then the bank's), checked against the moves when the log is replayed. A missing roll is refused, never
drawn: only the last move may lack it (the next turn not rolled yet), and such a game is graded
as unfinished (`coach.Summary`). Version 1 logs (a built-in rule set's name only) still load.

A paper game is typed one turn a line, the dice and the choices in the order they happened:
`11112 1111 11111 yatzy` (rolled 11112, kept 1111, rolled to 11111, scored yatzy); `-` keeps
nothing. Each line's first roll is the line's first token.

>>> game = paper_game("yatzy", ["11112 1111 11111 yatzy", "23456 large_straight"])
>>> [d.label for d in game.decisions], game.total
(['keep 1 1 1 1', 'score yatzy now', 'score large_straight now'], 70)
>>> replay(to_log(game)).total
70
"""
from __future__ import annotations

import json
from collections import Counter

from ..game import rulefile
from ..game.checks import instance_of, lone_surrogate
from ..engine.position import shown, parse_dice
from ..engine.cache import rules_fingerprint
from .coach import Game
from ..game.rules import Rules, get_rules
from ..engine.saved import SavedSolution, most_saved
from ..engine.solver import Solution

__all__ = ["FORMAT", "RulesMismatch", "to_log", "dumps", "loads", "parse", "rules_of", "replay", "paper_game",
           "undo"]

FORMAT = "yatzy-game-log"
VERSION = 2      # 2: the rules themselves ("rule_file", TOML); 1 named a built-in set
NO_KEEP = "-"    # a paper game's token for "keep nothing, reroll all"


class RulesMismatch(ValueError):
    """The rules given are not the log's (or an old log's rules are unknown): the fault is in
    the `rules` argument, not the file, so the command line names --rules for it."""


class MoveError(ValueError):
    """A move of the log that cannot be played: its number (from 1) and why, so that a paper
    game can name its line instead."""

    def __init__(self, number: int, move, reason: str):
        super().__init__(f"log move {number} ({shown(move)}): {reason}")
        self.number, self.move, self.reason = number, move, reason

    def __reduce__(self):    # (pickled by multiprocessing: rebuilt from its own arguments)
        return MoveError, (self.number, self.move, self.reason)


def to_log(game: Game) -> dict:
    """The game's moves as a JSON-ready dict (see the module docstring)."""
    instance_of("game", game, Game, "a coach.Game")
    decisions = game.decisions
    first = decisions[0].position.dice if decisions else game.position.dice
    after = [d.position.dice for d in decisions[1:]] + [None if game.over else game.position.dice]
    moves = []
    for decision, dice in zip(decisions, after):
        choice = decision.choice
        move = {"keep": list(choice.keep)} if choice.action == "keep" else {"score": choice.box}
        if dice is not None:
            move["dice"] = list(dice)
        if game.rules.saved_rolls and choice.action == "box":
            move["saved"] = decision.position.rolls_left       # scoring banks the rerolls left
        moves.append(move)
    log = {"format": FORMAT, "version": VERSION, "rules": game.rules.name}
    try:
        log["rule_file"] = rulefile.dumps(game.rules)
    except ValueError:        # a hand-made scorer: only readable back with its Rules given
        pass
    return {**log, "first_roll": list(first), "moves": moves}


def dumps(game: Game) -> str:
    """The game log as JSON text."""
    return json.dumps(to_log(game), indent=1)


def loads(text: str | bytes, solution: Solution | SavedSolution | None = None, seed=None,
          rules: str | Rules | None = None) -> Game:
    """A Game rebuilt from a JSON game log (`seed` draws any rolls played after it; `rules`, if
    given, must be the log's own rules, and names an old log's rule file by its name)."""
    return replay(parse(text), solution=solution, seed=seed, rules=rules)


def parse(text: str | bytes) -> dict:
    """The JSON of a game log as Python objects (checked by `replay`, not here); ValueError
    naming text if it is not JSON."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValueError("text is not UTF-8") from None
    if not isinstance(text, str):
        raise TypeError(f"text must be JSON text (str), got {type(text).__name__}")
    try:
        return json.loads(text.removeprefix("\ufeff"))    # a byte-order mark some editors write
    except json.JSONDecodeError as err:
        raise ValueError(f"text is not JSON: {err}") from None
    except RecursionError:
        raise ValueError("text is not a game log: its JSON is nested too deeply") from None
    except ValueError as err:              # e.g. an integer over Python's 4300-digit limit
        raise ValueError(f"text is not a game log: {str(err)[:80]}") from None


def rules_of(log: dict, solution: Solution | None = None, given: str | Rules | None = None) -> Rules:
    """The rules the log's game was played under: its rule file (version 2), else its built-in
    name; `given` rules that differ from them are refused (ValueError naming rules)."""
    if not isinstance(log, dict) or log.get("format") != FORMAT:
        raise ValueError(f"log must be a JSON object with format {FORMAT!r}")
    version = log.get("version")
    if isinstance(version, bool) or version not in (1, VERSION):
        raise ValueError(f"log 'version' must be 1 or {VERSION}, got {shown(version)}")
    name, text = log.get("rules"), log.get("rule_file")
    if not isinstance(name, str):
        raise ValueError(f"log 'rules' must be the rules' name (text), got {shown(name)}")
    if lone_surrogate(name):
        raise ValueError(f"log 'rules' holds a lone surrogate ({lone_surrogate(name)!r}), not text "
                         f"a name can hold: {shown(name)}")
    given = None if given is None else get_rules(given)
    if text is not None:
        if not isinstance(text, str):
            raise ValueError(f"log 'rule_file' must be rule-file text (TOML), got {shown(text)}")
        rules = rulefile.loads(text, source="log 'rule_file'", default_name=name)
        if rules.name != name:
            raise ValueError(f"log 'rules' says {shown(name)} but its 'rule_file' is named {rules.name!r}")
    elif given is not None and given.name == name:
        rules = given                      # an old log of a rule file's game: the file named it
    else:
        try:
            rules = get_rules(name)
        except ValueError:
            if given is not None:
                raise RulesMismatch(f"rules {given.name!r} are not the log's rules {shown(name)}") from None
            raise ValueError(f"log 'rules' {shown(name)} is not a built-in rule set, and the log "
                             "holds no 'rule_file'; give the rules it was played under") from None
    if given is not None and rules_fingerprint(given) != rules_fingerprint(rules):
        alike = " (another rule set of the same name)" if given.name == rules.name else f" ({rules.name!r})"
        raise RulesMismatch(f"rules {given.name!r} are not the rules the log's game was played under"
                            f"{alike}; leave the rules out to grade it under its own")
    if solution is not None and rules_fingerprint(solution.rules) == rules_fingerprint(rules):
        return solution.rules
    return rules


def replay(log: dict, solution: Solution | SavedSolution | None = None, seed=None,
           rules: str | Rules | None = None) -> Game:
    """Play a log's moves again through `coach.Game`: the same decisions and grades. A move the
    rules forbid, or a roll missing, raises ValueError naming the move and the field."""
    rules = rules_of(log, solution, rules)
    if solution is not None and solution.rules is not rules:
        solution = None                    # a solution of other rules: solve the log's own
    moves = log.get("moves")
    if not isinstance(moves, list):
        raise ValueError(f"log 'moves' must be a list, got {shown(moves)}")
    first = log.get("first_roll")
    if first is None:
        raise ValueError("log needs a 'first_roll'")
    try:
        game = Game(rules, seed=seed, dice=_dice(first, rules.faces), solution=solution)
    except (ValueError, TypeError) as err:
        raise ValueError(f"log 'first_roll': {err}") from None
    for number, move in enumerate(moves, 1):
        try:
            _play(game, move, last=number == len(moves))
        except (ValueError, TypeError, KeyError) as err:
            raise MoveError(number, move, str(err)) from None
    return game


def _dice(value, faces: int) -> tuple[int, ...]:
    if not isinstance(value, (str, list)):
        raise ValueError(f"dice are a list like [1, 1, 2, 5, 6] or text like '11256', got {shown(value)}")
    return parse_dice(value, faces)


def _play(game: Game, move: dict, last: bool) -> None:
    """One move; its "dice" (the roll that followed) may be missing only after the last move
    when that move filled a box: the next turn's roll, not thrown yet (or none: the card is full)."""
    if not isinstance(move, dict):
        raise ValueError(f"a move is an object with 'keep' or 'score', got {type(move).__name__}")
    if ("keep" in move) == ("score" in move):
        raise ValueError("a move needs 'keep' or 'score' (one of them)")
    if "keep" in move and "saved" in move:
        raise ValueError("'saved' goes with a 'score' move (the rolls it banks), not a 'keep'")
    dice = move.get("dice")
    if dice is None and ("keep" in move or not last):
        raise ValueError("'dice' is missing: the roll that followed this move must be given")
    faces = game.rules.faces
    if "keep" in move:
        kept = _field("keep", _dice, move["keep"], faces)
        game.keep(kept, rolled=_rolled(kept, _field("dice", _dice, dice, faces)))
        return
    box = move["score"]
    if not isinstance(box, str):
        raise ValueError(f"'score' must be a box name (text), got {shown(box)}")
    game.score(box, next_dice=None if dice is None else _field("dice", _dice, dice, faces))
    if game.over and dice is not None:
        raise ValueError("'dice' after the move that fills the card: no roll follows it")
    if "saved" in move:
        _check_saved(game, move["saved"])


def _check_saved(game: Game, saved) -> None:
    """A score move's "saved" (the bank after it) against the bank its moves give."""
    if not game.rules.saved_rolls:
        raise ValueError(f"'saved': rules {game.rules.name!r} do not save rolls")
    if isinstance(saved, bool) or not isinstance(saved, int) or saved < 0:
        raise ValueError(f"'saved' must be the rolls in the bank (a whole number), got {shown(saved)}")
    if saved != game.saved:
        raise ValueError(f"'saved' says {saved} rolls in the bank, but the moves bank {game.saved}")


def _field(name: str, read, *args):
    try:
        return read(*args)
    except (ValueError, TypeError) as err:
        raise ValueError(f"{name!r}: {err}") from None


def _rolled(kept, dice) -> tuple[int, ...]:
    """The new dice of a reroll: the roll after it less the kept dice."""
    rest = Counter(dice)
    rest.subtract(Counter(kept))
    if any(n < 0 for n in rest.values()):
        raise ValueError(f"the roll {list(dice)} does not contain the kept dice {list(kept)}")
    return tuple(sorted(rest.elements()))


def undo(game: Game) -> Game:
    """The game as it was one move ago (same rules, solution and random stream)."""
    instance_of("game", game, Game, "a coach.Game")
    if not game.decisions:
        raise ValueError("game has no move to undo")
    log = to_log(game)
    log["moves"] = log["moves"][:-1]
    if log["moves"]:
        log["moves"][-1]["dice"] = list(game.decisions[-1].position.dice)
    return replay(log, solution=game.solution, seed=game.rng, rules=game.rules)


def paper_game(rules: str | Rules, turns, solution: Solution | SavedSolution | None = None) -> Game:
    """Grade a game played on paper: `turns` is one line a turn (or a text of lines), each
    `roll choice roll choice ... box` (see the module docstring). A fault names the line it is
    on, counted in the text as given (comments and blank lines too)."""
    if isinstance(turns, str):
        turns = turns.splitlines()
    if not isinstance(turns, (list, tuple)) or not all(isinstance(t, str) for t in turns):
        raise ValueError(f"turns must be a text or a list of lines (str), got {type(turns).__name__}")
    lines = [(number, line.split()) for number, line in enumerate(turns, 1)
             if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise ValueError("turns must hold at least one line")
    rules = get_rules(rules)
    log, turn_of_move = _paper_log(rules, lines)
    try:
        return replay(log, solution=solution, rules=rules)
    except MoveError as err:                # named by the line it was written on, not the log's move
        raise ValueError(f"{_line(*lines[turn_of_move[err.number - 1]])}: {err.reason}") from None


def _line(number: int, tokens: list[str]) -> str:
    return f"turns line {number} ({' '.join(tokens)!r})"


def _paper_log(rules: Rules, lines: list[tuple[int, list[str]]]) -> tuple[dict, list[int]]:
    """The log of a paper game's (line number, tokens), and the turn (its index in `lines`) each
    of its moves was written in. A line's first roll, which the log keeps with the move before
    it, is checked here, so that its fault names its own line."""
    if len(lines) > rules.n_boxes:
        raise ValueError(f"{_line(*lines[rules.n_boxes])}: a turn more than the card's {rules.n_boxes} boxes")
    moves: list[dict] = []
    turn_of_move: list[int] = []
    for turn, (number, tokens) in enumerate(lines):
        rolls = rules.rolls_per_turn + (most_saved(rules, turn) if rules.saved_rolls else 0)
        if len(tokens) % 2 or len(tokens) > 2 * rolls:
            raise ValueError(f"{_line(number, tokens)} must alternate roll and choice, ending with a box, "
                             f"at most {rolls} rolls")
        if tokens[-1] not in rules.box_names:
            raise ValueError(f"turns line {number} must end with a box ({', '.join(rules.box_names)}), "
                             f"got {tokens[-1]!r}")
        try:
            rules.dice.validate(_dice(tokens[0], rules.faces))
        except (ValueError, TypeError) as err:
            raise ValueError(f"{_line(number, tokens)}: its first roll: {err}") from None
        if moves:
            moves[-1]["dice"] = tokens[0]
        for choice, dice in zip(tokens[1:-1:2], tokens[2::2]):
            moves.append({"keep": "" if choice == NO_KEEP else choice, "dice": dice})
        moves.append({"score": tokens[-1]})
        turn_of_move += [turn] * (len(moves) - len(turn_of_move))
    return ({"format": FORMAT, "version": VERSION, "rules": rules.name, "first_roll": lines[0][1][0],
             "moves": moves}, turn_of_move)
