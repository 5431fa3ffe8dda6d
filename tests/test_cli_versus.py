"""`yatzy versus solve|plan` on a small rule file: the JSON keys and values, bad input in one line."""
import json

import pytest

from yatzy_core.engine.bruteforce import brute_force_versus
from yatzy_core.game.rulefile import loads
from yatzy_core.objectives import versus_plan

from test_dataset_export import call     # main's status, stdout and stderr

TINY_TEXT = ('name = "tiny"\nn_dice = 2\nfaces = 3\nrolls_per_turn = 2\nupper_bonus = 0\n'
             '[[boxes]]\nname = "threes"\nscorer = "upper"\nface = 3\n'
             '[[boxes]]\nname = "chance"\nscorer = "chance"\n')


@pytest.fixture
def rules_file(tmp_path, private_cache):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY_TEXT)
    return path


def test_solve_json_gives_the_first_players_value_and_its_parts(rules_file):
    status, out, err = call("versus", "solve", "--rules-file", str(rules_file), "--json")
    assert (status, err) == (0, "")
    got = json.loads(out)
    assert {"first", "first_wins", "tie", "second_wins"} <= set(got) and got["rules"] == "tiny"
    assert all(type(got[key]) is float for key in ("first", "first_wins", "tie", "second_wins"))
    assert got["first"] == pytest.approx(float(brute_force_versus(loads(TINY_TEXT))), abs=1e-12)
    assert got["first"] == pytest.approx(got["first_wins"] + got["tie"] / 2, abs=1e-15)
    assert got["first_wins"] + got["tie"] + got["second_wins"] == pytest.approx(1.0, abs=1e-12)


def test_plan_json_counts_the_open_values_of_every_layer(rules_file):
    status, out, err = call("versus", "plan", "--rules-file", str(rules_file), "--json")
    assert (status, err) == (0, "")
    got = json.loads(out)
    # by hand: a card with one box used holds 0..6 points and can gain 6 more, a full one 0..12
    # (no upper total is kept: no bonus); second player's last turn: leads -6..0 (7) for each of
    # 2 cards; the first's: -6..6 (13) for 2 x 2 pairs; the second's first: -6..0 (7) x 2; the start
    assert got["layers"] == [[1, 2, 14], [1, 1, 52], [0, 1, 14], [0, 0, 1]]
    assert got["values"] == 81 and got["bytes"] == 4 * 81
    # every pair of distinct cards times the 25 lanes of leads -12 .. 12: 2 + 4 + 2 + 1 pairs
    assert got["dense_values"] == 9 * 25 and got["dense_bytes"] == 8 * 9 * 25
    assert got["rate_core_us"] == versus_plan.RATE_CORE_US
    assert got["core_hours"] == pytest.approx(81 * versus_plan.RATE_CORE_US / 3.6e9, rel=1e-12)


def test_plan_prints_its_figures(rules_file):
    status, out, _ = call("versus", "plan", "--rules-file", str(rules_file))
    assert status == 0 and out.splitlines()[0] == "tiny: two players, exact values by backward induction"
    assert ": 81 (4 decision layers; largest 52)" in out.splitlines()[1]


@pytest.mark.parametrize("argv, says", [
    (["versus", "solve", "--rules", "no-such-game"], "no-such-game"),
    (["versus", "plan", "--rules-file", "/no/such/file.toml"], "file.toml"),
    (["versus", "solve", "--rules", "yatzy", "--json", "--workers"], "--workers"),
    (["versus"], "versus"),
])
def test_bad_input_is_one_line_and_exit_2(argv, says):
    status, out, err = call(*argv)
    assert status == 2 and out == ""
    lines = [line for line in err.splitlines() if line.startswith("yatzy")]
    assert any(says in line for line in err.splitlines()), err
    assert len(lines) == 1 or "usage" in err


def test_a_saved_roll_rule_set_is_refused_in_one_line(tmp_path, private_cache):
    path = tmp_path / "saved.toml"
    path.write_text(TINY_TEXT.replace('name = "tiny"\n', 'name = "saved"\nsaved_rolls = true\n'))
    status, out, err = call("versus", "solve", "--rules-file", str(path))
    assert (status, out) == (2, "") and len(err.strip().splitlines()) == 1 and "save rolls" in err


def test_a_game_too_big_for_the_machines_memory_is_refused_with_the_plans_figures(rules_file, monkeypatch):
    plan = versus_plan.plan_versus(loads(TINY_TEXT))
    # the largest: layer (1, 1), 2 cards each, reading (1, 2): 2 x 8 x (2 x 2 + 2 x 1) x 25 lanes
    # for W and the tie chance, and 4 copies of the turn: 4 x 8 x 2 boxes x 6 rolls x 2 movers x 25
    assert plan.peak == 2 * 8 * 6 * 25 + 4 * 8 * 2 * 6 * 2 * 25 == 21_600
    monkeypatch.setattr(versus_plan, "machine_memory", lambda: plan.peak - 1)
    status, out, err = call("versus", "solve", "--rules-file", str(rules_file))
    assert (status, out) == (2, "") and len(err.strip().splitlines()) == 1
    assert "0.00 GB at its largest layer" in err and "81 two-player values" in err and "yatzy versus plan" in err
    monkeypatch.setattr(versus_plan, "machine_memory", lambda: plan.peak)
    assert call("versus", "solve", "--rules-file", str(rules_file), "--json")[0] == 0


def test_solve_stopped_is_one_line_and_130(rules_file, monkeypatch):
    from yatzy_core.engine.chunked import request_stop
    from yatzy_core.objectives import two_player
    turn = two_player._turn

    def stopping(*args):            # as the Ctrl-C handler would, from inside the solve
        request_stop()
        return turn(*args)
    monkeypatch.setattr(two_player, "_turn", stopping)
    status, out, err = call("versus", "solve", "--rules-file", str(rules_file))
    assert (status, err) == (130, "yatzy: stopped (Ctrl-C); nothing half-done was saved\n")
