"""Versus(opponent card, lead): advice by P(win) + 1/2 P(tie) from the endgame tables, against the
brute force's Fractions choice by choice; the registry, the CLI (`advise --versus`, `yatzy versus
advise`, `yatzy versus endgame`) and their one-line errors."""
import json
from fractions import Fraction
from pathlib import Path

import pytest

from yatzy_core.advice.advisor import advise
from yatzy_core.engine.bruteforce import moves, normal_scores, versus_value
from yatzy_core.engine.position import Position
from yatzy_core.game.rulefile import loads
from yatzy_core.game.states import StateSpace
from yatzy_core.objectives import endgame, versus_plan
from yatzy_core.objectives.registry import objective_for
from yatzy_core.objectives.opponent_card import OpponentCard
from yatzy_core.objectives import outscore
from yatzy_core.objectives.outscore import Outscore
from yatzy_core.objectives.versus_objective import Versus

from test_dataset_export import call
from test_two_player import GAMES

THREE_TEXT = ('name = "three"\nn_dice = 2\nfaces = 3\nrolls_per_turn = 2\nupper_bonus = 0\n'
              '[[boxes]]\nname = "twos"\nscorer = "upper"\nface = 2\n'
              '[[boxes]]\nname = "threes"\nscorer = "upper"\nface = 3\n'
              '[[boxes]]\nname = "chance"\nscorer = "chance"\n')


def _card(space, state):
    return tuple(int(x) for x in space.decode(state))


def _brute_choices(rules, position, opponent, lead):
    """{box: the mover's P(win) + 1/2 P(tie) of scoring it} after the last roll, in Fractions."""
    space, value = StateSpace(rules), versus_value(rules)
    mover, waiter = _card(space, position.state(space)), _card(space, opponent.state(space))
    full = (1 << rules.n_boxes) - 1
    dice = tuple(position.dice)
    out = {}
    for points, after in moves(rules, dice, normal_scores(rules, dice), mover):
        box = rules.box_names[(after[0] ^ mover[0]).bit_length() - 1]
        d = lead + points
        if after[0] == full and waiter[0] == full:
            out[box] = Fraction(1) if d > 0 else Fraction(1, 2) if d == 0 else Fraction(0)
        else:
            out[box] = 1 - value(waiter, after, -d)
    return out


@pytest.mark.parametrize("used, theirs, lead", [
    (("ones",), ("chance",), 0),                       # (2, 2) open: worked from the (2, 1) layer
    (("chance",), ("chance",), -4),
    (("yahtzee",), ("ones", "chance"), 1),             # (2, 1)
    (("ones", "yahtzee"), ("ones", "yahtzee"), -2),    # (1, 1)
    (("ones", "chance"), ("ones", "yahtzee", "chance"), -3),   # (1, 0): the last turn
])
def test_every_last_roll_choice_equals_the_brute_force(used, theirs, lead):
    rules = GAMES["forced"]                   # ones, yahtzee (20, bonus 10, forced joker), chance
    for dice in ("11", "12", "22"):
        position = Position.make(rules, used=used, dice=dice, rolls_left=0)
        card = OpponentCard(used=frozenset(theirs))
        objective = Versus(card, lead)
        got = {a.box: a.value for a in advise(position, objective=objective)}
        exact = _brute_choices(rules, position, card, lead)
        assert set(got) == set(exact)
        for box in exact:
            assert got[box] == pytest.approx(float(exact[box]), abs=1e-12), (dice, box)


def test_a_keeper_with_rerolls_left_is_the_brute_forces_average():
    rules = GAMES["chance-2rolls"].with_(name="chance-two")   # one die, one box, one reroll
    position = Position.make(rules, dice="3", rolls_left=1)
    ranked = advise(position, objective=Versus(OpponentCard(used=frozenset({"chance"})), -3))   # 3 behind, last turn
    assert [(a.label, round(a.value * 12, 9)) for a in ranked] == [("reroll all", 7.0),   # 4+ wins, a 3 ties
                                                                  ("score chance now", 6.0)]   # a tie


def test_the_registry_makes_it_and_the_card_parses_its_flag_text():
    made = objective_for("versus", opponent=OpponentCard.parse("open=chance,yahtzee; upper=3"), lead=-5)
    assert made == Versus(OpponentCard(open_boxes=frozenset({"chance", "yahtzee"}), upper_total=3), -5)
    with pytest.raises(ValueError, match="unknown card field 'colour=red'"):
        OpponentCard.parse("used=ones;colour=red")
    with pytest.raises(ValueError, match="used boxes or open boxes, not both"):
        OpponentCard.parse("used=ones;open=twos")
    with pytest.raises(ValueError, match="lead must be a whole number"):
        Versus(OpponentCard(), 1.5)


def test_positions_outside_the_tables_go_to_the_approximation_in_one_place(monkeypatch):
    yahtzee = Position.make("yahtzee", dice="12345")
    card = OpponentCard(used=frozenset({"ones"}))
    monkeypatch.setattr(outscore, "TABLE_BUDGET", 10 ** 9)      # the first turn's table (4.5 GB) fits the real one
    with pytest.raises(ValueError, match=r"^versus: beyond the endgame tables \(13 boxes open, the opponent 12\) the "
                                         r"approximation answers, but the outscore table here would take [0-9.]+ GB "
                                         r"\(more than 1\.0 here\): fill more boxes first$"):
        advise(yahtzee, objective=Versus(card, 0))      # refused before any table is solved
    calls = []
    monkeypatch.setattr(Versus, "beyond_tables", lambda self, position, k: calls.append(k) or 1 / 0)
    with pytest.raises(ZeroDivisionError):
        advise(yahtzee, objective=Versus(card, 0))
    assert calls == [2]
    late = Position.make(GAMES["forced"], used=("ones", "yahtzee"), dice="11")
    with pytest.raises(ValueError, match="with 1 boxes open you cannot be the one to move against a card with 3"):
        advise(late, objective=Versus(OpponentCard(), 0))
    with pytest.raises(ValueError, match="opponent's card: .*'fives'"):
        Versus(OpponentCard(used=frozenset({"fives"})), 0).check(GAMES["forced"])


def test_no_final_score_outlook_is_promised_in_one_line():
    late = Position.make(GAMES["forced"], used=("ones",), dice="12", rolls_left=0)
    for position in (late, Position.make("yahtzee", dice="12345")):           # inside and beyond the tables
        with pytest.raises(ValueError, match=r"^objective versus: no final-score outlook \(it ranks choices by "
                                             r"the chance to win only\)$"):
            Versus(OpponentCard.parse("used=ones"), 3).outlook(position, 100)


def test_both_sides_of_the_tables_boundary():
    """Forced joker game (3 boxes): with 2 open each the advice is exact (the brute force's
    Fractions); with 3 open it is the approximation's, number for number, and labelled so."""
    rules = GAMES["forced"]
    card, lead = OpponentCard(used=frozenset({"ones"})), -1
    objective = Versus(card, lead)
    inside = Position.make(rules, used=("chance",), dice="12", rolls_left=0)        # (2, 2) open
    exact = _brute_choices(rules, inside, card, lead)
    got = {a.box: a.value for a in advise(inside, objective=objective)}
    assert got == pytest.approx({box: float(v) for box, v in exact.items()}, abs=1e-12)
    assert objective.answer_for(inside) is objective and "exact" in objective.aim_at(inside)
    for dice, rolls in (("12", 0), ("11", 1), ("22", 1)):                           # (3, 2) open
        beyond = Position.make(rules, dice=dice, rolls_left=rolls)
        assert objective.answer_for(beyond) == Outscore(card, lead)
        versus = [(a.label, a.value) for a in advise(beyond, objective=objective)]
        outscore = [(a.label, a.value) for a in advise(beyond, objective=Outscore(card, lead))]
        assert versus == outscore and len(versus) >= 2
    label = objective.aim_at(beyond)
    assert "APPROXIMATION" in label and "loses at most 0.0016" in label
    assert "exact from the endgame tables where both players have at most 2" in objective.aim()


@pytest.fixture
def three_file(tmp_path, private_cache):
    path = tmp_path / "three.toml"
    path.write_text(THREE_TEXT)
    return path


def test_the_cli_ranks_the_choices_both_ways_alike(three_file):
    rules = loads(THREE_TEXT)
    common = ["--rules-file", str(three_file), "--dice", "23", "--rolls-left", "0", "--used", "chance", "--versus", "used=twos",
              "--lead", "-2", "--json"]
    status, out, err = call("versus", "advise", *common)
    assert status == 0 and "error" not in err          # err: the max-mean table's bar (the tie-breaker)
    got = {row["box"]: row["probability"] for row in json.loads(out)}   # P(win) + 1/2 P(tie)
    position = Position.make(rules, used=("chance",), dice="23", rolls_left=0)
    exact = _brute_choices(rules, position, OpponentCard(used=frozenset({"twos"})), -2)
    assert got == pytest.approx({box: float(v) for box, v in exact.items()}, abs=1e-12)
    status, again, err = call("advise", *common)
    assert (status, err) == (0, "") and json.loads(again) == \
        [{k: v for k, v in row.items() if k != "exact"} for row in json.loads(out)]
    assert all(row["exact"] is True for row in json.loads(out))


def test_the_cli_answers_before_the_endgame_with_the_labelled_approximation(three_file):
    rules = loads(THREE_TEXT)
    common = ["--rules-file", str(three_file), "--dice", "23", "--rolls-left", "1", "--versus", "used=twos",
              "--lead", "-2"]
    status, out, err = call("versus", "advise", *common, "--json")
    assert status == 0 and "error" not in err
    rows = json.loads(out)
    position = Position.make(rules, dice="23", rolls_left=1)                    # 3 boxes open: beyond the tables
    outscore = advise(position, objective=Outscore(OpponentCard(used=frozenset({"twos"})), -2))
    assert [row["exact"] for row in rows] == [False] * len(outscore)
    assert [row["probability"] for row in rows] == pytest.approx([a.value for a in outscore], abs=1e-12)
    status, out, err = call("versus", "advise", *common)
    assert status == 0 and "APPROXIMATION" in out and "loses at most 0.0016" in out


def test_a_lead_past_a_sure_loss_is_answered_as_one_not_refused():
    """Beyond the tables, 100 behind in a game of at most 17 points: every choice 0, as at the
    edge of the band (the lead clamped), for Versus and its approximation alike."""
    rules, card = loads(THREE_TEXT), OpponentCard(used=frozenset({"twos"}))
    position = Position.make(rules, dice="23", rolls_left=1)
    edge = [(a.label, a.value) for a in advise(position, objective=Outscore(card, -17))]
    assert {v for _, v in edge} == {0.0} and len(edge) >= 2
    for objective in (Outscore(card, -100), Versus(card, -100), Versus(card, -2000)):
        assert [(a.label, a.value) for a in advise(position, objective=objective)] == edge


def test_the_cli_builds_the_tables_and_says_what_it_did(three_file):
    status, out, err = call("versus", "endgame", "--rules-file", str(three_file), "--json")
    assert status == 0
    got = json.loads(out)
    assert [layer["layer"] for layer in got["layers"]] == [[1, 0], [1, 1], [2, 1]]
    assert got["values"] == sum(layer["values"] for layer in got["layers"]) and got["peak_rss_bytes"] > 0
    status, out, err = call("versus", "endgame", "--rules-file", str(three_file), "--json")
    assert all(layer["kept"] for layer in json.loads(out)["layers"])
    damaged = Path(got["layers"][2]["file"])
    damaged.write_bytes(damaged.read_bytes()[:100])
    endgame._KEPT.clear()
    status, out, err = call("versus", "endgame", "--rules-file", str(three_file), "--json")
    assert "endgame-2-1.npz: BadZipFile: File is not a zip file; computed again" in err
    assert status == 0 and [layer["kept"] for layer in json.loads(out)["layers"]] == [True, True, False]


def test_the_endgame_is_refused_by_the_machines_free_memory_as_the_solve_is(three_file, monkeypatch):
    monkeypatch.setattr(versus_plan, "machine_memory", lambda: 1000)
    status, out, err = call("versus", "endgame", "--rules-file", str(three_file))
    assert (status, out) == (2, "") and len(err.strip().splitlines()) == 1, err
    assert "argument --open: 2 open boxes needs 0.0 GB for a layer and the one it reads (float64), more than " \
           "the 0.0 GB free here" in err


def test_tables_built_with_open_3_are_read_by_the_advice(three_file):
    """Both players with 3 boxes open: the approximation until `--open 3` stores layer (3, 2),
    then exact (the brute force's Fractions); the second build says all is in the cache."""
    rules = loads(THREE_TEXT)
    advise_argv = ["versus", "advise", "--rules-file", str(three_file), "--dice", "23", "--rolls-left", "0",
                   "--versus", "used=", "--lead", "1", "--json"]
    status, out, err = call(*advise_argv)
    assert status == 0 and {row["exact"] for row in json.loads(out)} == {False}
    status, out, err = call("versus", "endgame", "--rules-file", str(three_file), "--open", "3", "--json")
    assert status == 0 and [layer["layer"] for layer in json.loads(out)["layers"]] == \
        [[1, 0], [1, 1], [2, 1], [2, 2], [3, 2]]
    status, out, err = call(*advise_argv)
    rows = json.loads(out)
    assert status == 0 and {row["exact"] for row in rows} == {True}
    exact = _brute_choices(rules, Position.make(rules, dice="23", rolls_left=0), OpponentCard(), 1)
    assert {row["box"]: row["probability"] for row in rows} == \
        pytest.approx({box: float(v) for box, v in exact.items()}, abs=1e-12)
    status, out, err = call("versus", "endgame", "--rules-file", str(three_file), "--open", "3")
    assert status == 0 and "3 boxes open: 5 layers" in out and "all in the cache" in out and "roughly" not in out


def test_open_beyond_the_games_boxes_is_refused_by_name(tmp_path, private_cache):
    two = tmp_path / "two.toml"
    two.write_text(THREE_TEXT.replace('name = "three"', 'name = "two"').split('[[boxes]]\nname = "chance"')[0])
    status, out, err = call("versus", "endgame", "--rules-file", str(two), "--open", "3")
    assert (status, out) == (2, "") and err.strip().endswith("argument --open: 'two' has only 2 boxes") and \
        len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("argv, message", [
    (["--versus", "used=sevens", "--lead", "0"], "argument --versus: opponent's card: "),
    (["--versus", "upper=x", "--lead", "0"], "argument --versus: upper total must be a whole number, got 'x'"),
    (["--versus", "used=twos", "--lead", "zero"], "argument --lead: invalid int value: 'zero'"),
    (["--versus", "used=twos;upper=3", "--lead", "0"], "argument --versus: opponent's card: upper total 3 cannot"),
    (["--versus", "used=", "--lead", "0"], "argument --versus: versus: with 2 boxes open you cannot be the one"),
])
def test_bad_input_is_one_line_and_status_2(three_file, argv, message):
    status, out, err = call("versus", "advise", "--rules-file", str(three_file), "--dice", "23", "--used", "threes",
                            *argv)
    assert status == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("card, lead", [("--versus", "--lead"), ("--outscore", "--outscore-lead")])
def test_a_card_without_its_lead_names_the_lead(three_file, card, lead):
    status, out, err = call("advise", "--rules-file", str(three_file), "--dice", "23", card, "used=twos")
    assert (status, out) == (2, "") and len(err.splitlines()) == 1, err
    assert err.strip().endswith(f"argument {lead}: enter the lead: your points minus the opponent's, bonuses "
                                f"included, negative when behind ({lead})")


def test_the_lead_without_a_card_is_refused_not_ignored(three_file):
    status, out, err = call("advise", "--rules-file", str(three_file), "--dice", "23", "--lead", "4")
    assert (status, out) == (2, "") and "argument --lead: goes with --versus" in err and len(err.splitlines()) == 1


def test_a_click_never_starts_a_build_of_minutes(private_cache, monkeypatch):
    rules = loads(THREE_TEXT)
    position = Position.make(rules, used=["chance"], dice="23", rolls_left=0)      # 2 open against 2
    objective = Versus(OpponentCard.parse("used=twos"), 0)
    assert objective.work(rules, position)[0] == "the endgame table (2,1) of three (%d values, then cached)" % \
        endgame.layer_values(rules, 2, 1)
    objective.ready(position)                     # a few values: built behind the click, no refusal
    monkeypatch.setattr(endgame, "RATE_SECONDS", 1.0)         # as if each value took a second
    with pytest.raises(ValueError, match=r"^versus: the endgame table \(2,1\) of three \(.* is not built yet: "
                                         r"run `yatzy versus endgame --rules three` once \(about \d+ min\)"):
        objective.ready(position)
