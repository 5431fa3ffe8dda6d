"""Saved rolls (Maxi Yatzy as played): the compiled layer solver against the independent brute
force in exact Fractions on tiny rule files, and end games whose value is known by hand."""
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from yatzy_core.engine.bruteforce import brute_force_value
from yatzy_core.engine.saved import most_saved, solve_saved
from yatzy_core.engine.solver import solve
from yatzy_core.game.rulefile import loads


def box(name, scorer, **params):
    lines = [f'name = "{name}"', f'scorer = "{scorer}"'] + [f"{k} = {v}" for k, v in params.items()]
    return "\n[[boxes]]\n" + "\n".join(lines) + "\n"


TEXTS = {
    # 2 dice, 3 rolls: bonus 4 once twos and sixes reach 8, doubles, chance (saves up to 6)
    "two-dice": "n_dice = 2\nupper_bonus = 4\nupper_bonus_threshold = 8\n"
                + box("twos", "upper", face=2) + box("sixes", "upper", face=6)
                + box("doubles", "all_same", points=8) + box("chance", "chance"),
    # 3 dice of 3 faces, 2 rolls: bonus 5 at 4, a pair and a run
    "three-dice": "n_dice = 3\nfaces = 3\nrolls_per_turn = 2\nupper_bonus = 5\nupper_bonus_threshold = 4\n"
                  + box("ones", "upper", face=1) + box("threes", "upper", face=3)
                  + box("pair", "pairs", count=1) + box("run", "run", length=3, points=10),
    # 2 dice of 3 faces, 4 rolls a turn, boxes in card order
    "forced": "n_dice = 2\nfaces = 3\nrolls_per_turn = 4\nupper_bonus = 0\nforced_order = true\n"
              + box("doubles", "all_same", points=9) + box("chance", "chance") + box("threes", "upper", face=3),
    # 3 dice of 4 faces, two boxes, the bonus at its largest cap
    "two-boxes": "n_dice = 3\nfaces = 4\nupper_bonus = 7\nupper_bonus_threshold = 12\n"
                 + box("fours", "upper", face=4) + box("triple", "all_same", points=12),
}
GAMES = {name: loads(f'name = "{name}"\nsaved_rolls = true\n' + text) for name, text in TEXTS.items()}


@cache
def exact(name: str) -> Fraction:
    return brute_force_value(GAMES[name])


@pytest.mark.parametrize("name", GAMES)
def test_compiled_saved_rolls_match_brute_force(name):
    fast = solve_saved(GAMES[name], progress=False)
    assert fast.expected_score == pytest.approx(float(exact(name)), abs=1e-12)


@pytest.mark.parametrize("name", GAMES)
def test_saving_rolls_is_worth_points(name):
    """Saved rolls only add choices; in these games they add value."""
    assert exact(name) > brute_force_value(GAMES[name].with_(saved_rolls=False))


def test_one_roll_a_turn_saves_nothing():
    rules = GAMES["two-dice"].with_(rolls_per_turn=1)
    assert solve_saved(rules, progress=False).expected_score == pytest.approx(
        solve(rules.with_(saved_rolls=False), progress=False).expected_score, abs=1e-12)


def test_float32_tables_keep_the_value_to_1e6():
    rules = GAMES["two-dice"]
    wide = solve_saved(rules, progress=False).expected_score
    assert solve_saved(rules, progress=False, dtype=np.float32).expected_score == pytest.approx(wide, abs=1e-6)
    assert solve_saved(rules, progress=False, keep=0).expected_score == wide


@pytest.mark.parametrize("open_box", range(4))
def test_with_one_box_open_saving_is_worthless(open_box):
    """The last turn may spend every saved roll: its value is the one-box game's with
    rolls_per_turn + saved rolls, whatever the box (no saved count beyond it matters)."""
    rules = GAMES["two-dice"].with_(upper_bonus=0)
    solved = solve_saved(rules, progress=False)
    mask = 0b1111 & ~(1 << open_box)
    alone = rules.with_(boxes=(rules.boxes[open_box],), saved_rolls=False)
    for saved in range(most_saved(rules, 3) + 1):
        single = solve(alone.with_(rolls_per_turn=3 + saved), progress=False).expected_score
        assert solved.value(mask, saved=saved) == pytest.approx(single, abs=1e-12)


# ---- two lower boxes open, enumerated by hand -----------------------------------------------

def chance_alone(rolls: int) -> Fraction:
    """Chance as the last box with `rolls` rolls: each die on its own, rerolled below the mean
    of what rerolling would give (e(1) = 7/2, e(m) = E[max(d, e(m - 1))])."""
    die = Fraction(7, 2)
    for _ in range(rolls - 1):
        die = sum(max(Fraction(d), die) for d in range(1, 7)) / 6
    return 2 * die


def doubles_alone(rolls: int) -> Fraction:
    """Doubles (8 points) as the last box: every roll makes doubles with chance 1/6."""
    return 8 * (1 - Fraction(5, 6) ** rolls)


@cache
def by_hand(dice: tuple[int, int], left: int) -> dict[str, Fraction]:
    """Every choice with two dice showing, `left` rerolls, boxes doubles and chance open: scoring
    one saves `left` rolls for the last turn (3 + left rolls of the other box); rerolling averages
    the best choice one stage down over the 6 or 36 outcomes."""
    a, b = dice
    options = {"score doubles": 8 * (a == b) + chance_alone(3 + left),
               "score chance": a + b + doubles_alone(3 + left)}
    if left:
        def best(d):
            return max(by_hand(tuple(sorted(d)), left - 1).values())
        for kept in {a, b}:
            options[f"keep {kept}"] = sum(best((kept, x)) for x in range(1, 7)) / 6
        options["reroll all"] = sum(best((x, y)) for x in range(1, 7) for y in range(1, 7)) / 36
    return options


@pytest.mark.parametrize("dice, left", [((5, 6), 2), ((3, 3), 4), ((6, 6), 1), ((1, 2), 6), ((4, 6), 5)])
def test_two_lower_boxes_open_agree_with_an_enumeration_by_hand(dice, left):
    from yatzy_core.advice.advisor import advise
    from yatzy_core.engine.position import Position
    position = Position.make(GAMES["two-dice"], used="twos,sixes", upper_total=0, dice=dice, rolls_left=left)
    ranked = advise(position)
    advice = {a.label.split(" now")[0]: a.expected for a in ranked}
    hand = by_hand(dice, left)
    assert advice.keys() == hand.keys()
    for label, value in hand.items():
        assert advice[label] == pytest.approx(float(value), abs=1e-9), label
    assert ranked[0].label.split(" now")[0] == max(hand, key=hand.get)
    if left:
        assert any(a.label.endswith(f"now, saving {left} roll{'s' if left > 1 else ''}") for a in ranked)


def test_stopping_to_save_beats_rolling_on_in_some_positions():
    """Both happen: with 5 6 and 2 rerolls scoring chance now is best, with 3 3 doubles now."""
    assert max(by_hand((5, 6), 2), key=by_hand((5, 6), 2).get) == "score chance"
    assert max(by_hand((1, 2), 6), key=by_hand((1, 2), 6).get).startswith(("keep", "reroll"))


# ---- the command line -----------------------------------------------------------------------

def test_cli_solves_a_saved_roll_rule_file(tmp_path, capsys):
    from yatzy_core.cli.command import main
    path = tmp_path / "tiny.toml"
    path.write_text('name = "tiny"\nsaved_rolls = true\n' + TEXTS["two-boxes"])
    assert main(["solve", "--rules-file", str(path)]) == 0
    assert f"expected score: {float(exact('two-boxes')):.4f}" in capsys.readouterr().out
    assert main(["solve", "--rules-file", str(path), "--std"]) == 0     # test_saved_spread.py


def test_cli_advises_maxi_yatzy_with_saved_rolls(capsys):
    import json
    from yatzy_core.cli.command import main
    from yatzy_core.game.rules import get_rules
    used = [n for n in get_rules("maxi-yatzy").box_names if n not in ("sixes", "villa", "maxi_yatzy")]
    args = ["advise", "--rules", "maxi-yatzy", "--dice", "666655", "--used", ",".join(used), "--upper", "60"]
    assert main(args + ["--rolls-left", "6", "--json"]) == 0
    ranked = json.loads(capsys.readouterr().out)
    assert ranked[0] == {"action": "box", "box": "sixes", "expected": ranked[0]["expected"], "loss": 0.0}
    assert {a["action"] for a in ranked} == {"box", "keep"} and len({a["box"] for a in ranked if "box" in a}) == 3
    assert main(args + ["--rolls-left", "5"]) == 0
    assert "score Sixes now, saving 5 rolls" in capsys.readouterr().out
    assert main(args + ["--rolls-left", "37"]) == 2        # 17 turns played save at most 34
    assert "0..36" in capsys.readouterr().err


# ---- playing ----------------------------------------------------------------------------------

def test_optimal_saved_roll_games_average_the_solved_value():
    """Six dice, six boxes of the Maxi Yatzy card with saved rolls: 3,000 optimal games."""
    from yatzy_core.game.rules import get_rules
    from yatzy_core.players.saved_play import play_saved
    maxi = get_rules("maxi-yatzy")
    names = ("ones", "sixes", "three_pairs", "full_straight", "tower", "maxi_yatzy")
    rules = maxi.with_(name="maxi-six-boxes-saved", boxes=tuple(b for b in maxi.boxes if b.name in names),
                       upper_bonus=50, upper_bonus_threshold=30)
    solved = solve_saved(rules, progress=False, moments=True)
    played = play_saved(solved, games=3_000, seed=4)
    total = played.frame["total"]
    assert abs(total.mean() - solved.expected_score) < 3 * total.sem(), (total.mean(), solved.expected_score)
    squares, second = total.astype(float) ** 2, float(solved.second[0][0, 0])    # the spread too
    assert abs(squares.mean() - second) < 3 * squares.sem(), (squares.mean(), second)
    assert (played.saved[:, 0] == 0).all() and (played.saved[:, 1:] <= 2 * np.arange(1, 7)).all()
    assert 0 < played.saved[:, -1].mean() < played.saved[:, -2].mean()   # the last turn spends most
    assert played.frame["maxi_yatzy"].isin([0, 100]).all()


# ---- the committed result of the full game ----------------------------------------------------

def test_the_committed_maxi_yatzy_result_is_whole():
    import hashlib
    import json
    from math import comb
    from pathlib import Path
    from yatzy_core.engine.cache import rules_fingerprint
    from yatzy_core.game.rules import get_rules
    results = Path(__file__).resolve().parents[1] / "results"
    record = json.loads((results / "maxi-yatzy.json").read_text())
    readings = record["readings"]
    assert record["sha256"] == hashlib.sha256(json.dumps(readings, sort_keys=True).encode()).hexdigest()
    saved = readings["maxi-yatzy"]
    assert saved["rules"]["fingerprint"] == rules_fingerprint(get_rules("maxi-yatzy"))
    # by hand: upper pairs with a upper boxes used, times C(14, k - a) lower sets, times 2k + 1 saved counts
    per_a = [0] * 7
    for used in range(64):
        totals = {0}
        for face in range(1, 7):
            if used >> (face - 1) & 1:
                totals = {min(t + face * c, 84) for t in totals for c in range(7)}
        per_a[bin(used).count("1")] += len(totals)
    layers = [sum(per_a[a] * comb(14, k - a) for a in range(7) if 0 <= k - a <= 14) for k in range(21)]
    assert saved["counts"]["reachable_states_with_saved_counts"] == sum(n * (2 * k + 1) for k, n in enumerate(layers))
    no_saved = json.loads((results / "maxi-yatzy-no-saved-rolls.json").read_text())
    before = no_saved["readings"]["maxi-yatzy-no-saved-rolls"]["expected_score"]
    assert saved["value_of_saving_rolls"] == pytest.approx(saved["expected_score"] - before, abs=1e-4)
    assert saved["expected_score"] > before
    std, games = saved["std"], saved["optimal_games"]          # the exact std against the games' spread
    assert std["expected_score"] == saved["expected_score"]
    sample_std = games["standard_error"] * games["games"] ** 0.5
    assert abs(sample_std - std["value"]) <= 3 * std["value"] / (2 * games["games"]) ** 0.5


def test_every_timed_maxi_yatzy_solve_gave_the_same_values():
    """The runs the result file times (earlier ones and the last) hashed the same kept layers:
    checked here, not in chapter 10's code, which shows only their times."""
    import json
    from pathlib import Path
    record = json.loads((Path(__file__).resolve().parents[1] / "results" / "maxi-yatzy.json").read_text())
    saved = record["readings"]["maxi-yatzy"]
    runs = [*record["earlier_runs"], record["measured_with"]]
    assert len(runs) >= 2
    assert {run.get("kept_layers_sha256", saved["kept_layers_sha256"]) for run in runs} == {saved["kept_layers_sha256"]}


def test_players_and_solvers_without_saved_rolls_refuse_the_game():
    from yatzy_core.game.rules import get_rules
    from yatzy_core.players.simulation import simulate
    with pytest.raises(ValueError, match="save rolls, which these players do not play"):
        simulate(get_rules("maxi-yatzy"), "greedy", games=10, progress=False)
    with pytest.raises(ValueError, match="save rolls: their tables hold a saved count too"):
        solve(GAMES["two-dice"], progress=False)
    with pytest.raises(ValueError, match="saved_rolls: saved rolls are solved without a Yahtzee bonus"):
        loads('saved_rolls = true\nyahtzee_box = "doubles"\nyahtzee_bonus = 5\n' + TEXTS["two-dice"])


def test_early_maxi_yatzy_advice_with_saved_rolls_is_refused_not_started(capsys):
    from yatzy_core.cli.command import main
    assert main(["advise", "--rules", "maxi-yatzy", "--dice", "123456", "--rolls-left", "2"]) == 2
    assert "with 20 open that needs 16.2 GB" in capsys.readouterr().err


@pytest.mark.parametrize("options, words", [({"games": "10"}, "games must be a whole number >= 0, got '10'"),
                                            ({"games": 2, "seed": "7"}, "seed must be a whole number >= 0, got '7'"),
                                            ({"games": 2, "seed": -1}, "seed must be a whole number >= 0, got -1")])
def test_saved_roll_games_refuse_a_bad_count_or_seed_by_name(options, words):
    """As `simulate` does: not numpy's own message from inside the games."""
    from yatzy_core.players.saved_play import play_saved
    solved = solve_saved(next(iter(GAMES.values())), progress=False)
    with pytest.raises(ValueError, match=words):
        play_saved(solved, **options)
