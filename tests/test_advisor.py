"""The advisor agrees with the solver, ranks every distinct choice, and refuses impossible positions."""
import dataclasses
import json

import numpy as np
import pytest

from yatzy_core.advice.advisor import Advice, advise
from yatzy_core.engine.position import Position, parse_dice, upper_totals
from yatzy_core.game.dice import dice_of
from yatzy_core.game.rules import get_rules
from yatzy_core.game.states import StateSpace

ALL_BUT_YAHTZEE = [n for n in get_rules("yahtzee").box_names if n != "yahtzee"]


# ---- advice agrees with the solved table ------------------------------------------------------

@pytest.mark.parametrize("name, used, upper, flag", [
    ("yahtzee", (), 0, False),                                        # the empty card
    ("yahtzee", ("yahtzee", "sixes", "chance"), 24, True),           # bonus and jokers live
    ("yatzy", ("ones", "fours", "one_pair", "full_house"), 11, False),
])
def test_first_roll_average_is_the_state_value(solutions, name, used, upper, flag):
    """sum over first rolls of P(roll) * best choice = the value the solver stored for the state."""
    solution = solutions(name)
    dice = solution.rules.dice
    probs = dice.roll_probabilities()
    best = [advise(Position.make(name, used, upper, dice_of(r), 2, flag), solution)[0].expected
            for r in dice.rolls]
    p = Position.make(name, used, upper, dice_of(dice.rolls[0]), 2, flag)
    assert probs @ np.array(best) == pytest.approx(solution.value(p.mask, p.upper, p.flag), abs=1e-9)


def test_keeper_value_is_the_average_of_the_next_roll(solutions):
    """Keeping 1 1 1 1 with two rerolls left is worth the mean of the best play after each fifth die."""
    solution = solutions("yahtzee")
    start = Position.make("yahtzee", dice="11112", rolls_left=2)
    keep = {a.keep: a.expected for a in advise(start, solution)}
    after = [advise(start.keep([1, 1, 1, 1], [d]), solution)[0].expected for d in range(1, 7)]
    assert keep[(1, 1, 1, 1)] == pytest.approx(np.mean(after), abs=1e-9)


def test_box_value_is_points_now_plus_the_next_state(solutions):
    solution = solutions("yahtzee")
    p = Position.make("yahtzee", used={"ones", "full_house"}, upper_total=3, dice="22333", rolls_left=0)
    for a in advise(p, solution):
        nxt = p.score(a.box, next_dice="11111")
        assert a.expected == pytest.approx(p.points(a.box) + solution.value(nxt.mask, nxt.upper, nxt.flag),
                                           abs=1e-9)


def test_issue_position_keeps_four_ones(solutions):
    """`yatzy advise --rules yahtzee --dice 11112 --rolls-left 2` in the issue: keep 1 1 1 1, 270.2986."""
    ranked = advise(Position.make("yahtzee", dice=[1, 1, 1, 1, 2], rolls_left=2), solutions("yahtzee"))
    assert ranked[0].keep == (1, 1, 1, 1)
    assert ranked[0].to_dict() == {"action": "keep", "keep": [1, 1, 1, 1], "expected": ranked[0].value, "loss": 0.0}
    assert round(ranked[0].value, 4) == 270.2986


def test_five_sixes_go_in_the_yahtzee_box(solutions):
    ranked = advise(Position.make("yahtzee", dice="66666", rolls_left=0), solutions("yahtzee"))
    assert ranked[0].box == "yahtzee" and ranked[0].loss == 0
    assert len(ranked) == 13


def test_forced_joker_allows_only_the_matching_upper_box(solutions):
    p = Position.make("yahtzee", used={"yahtzee"}, dice="66666", rolls_left=0, yahtzee_bonus=True)
    ranked = advise(p, solutions("yahtzee"))
    assert [a.box for a in ranked] == ["sixes"]
    assert p.points("sixes") == 30 + 100
    with pytest.raises(ValueError, match="not allowed by the joker rule"):
        p.points("full_house")
    # with sixes used too, the lower boxes take jokers: full house scores 25 (+ the 100 bonus)
    q = Position.make("yahtzee", used={"yahtzee", "sixes"}, upper_total=30, dice="66666",
                      rolls_left=0, yahtzee_bonus=True)
    assert q.points("full_house") == 125 and q.points("large_straight") == 140
    assert "ones" not in q.box_points()


# ---- the ranking itself -----------------------------------------------------------------------

@pytest.mark.parametrize("dice, n", [("11112", 10), ("12345", 32), ("66666", 6), ("11223", 18)])
def test_one_advice_per_distinct_keeper(solutions, dice, n):
    """n distinct keepers, less keeping all five, which is one "score BOX now" per open box."""
    ranked = advise(Position.make("yahtzee", dice=dice, rolls_left=1), solutions("yahtzee"))
    keeps = [a.keep for a in ranked if a.action == "keep"]
    assert len(keeps) == n - 1 == len(set(keeps)) and all(len(k) < 5 for k in keeps)
    boxes = [a for a in ranked if a.action == "box"]
    assert sorted(a.box for a in boxes) == sorted(get_rules("yahtzee").box_names)
    assert all(a.now and a.keep is None and a.label == f"score {a.box} now" for a in boxes)


def test_ranking_is_sorted_with_losses_against_the_best(solutions):
    p = Position.make("yatzy", used="ones,chance", upper_total=2, dice="23356", rolls_left=2)
    ranked = advise(p, solutions("yatzy"))
    expected = [a.expected for a in ranked]
    assert expected == sorted(expected, reverse=True)
    assert ranked[0].loss == 0.0
    assert all(a.loss == pytest.approx(expected[0] - a.expected, abs=1e-12) for a in ranked)


def test_ties_keep_more_dice_first_then_by_dice(solutions):
    """With only the Yahtzee box left, keeping any one of five different faces is equally good."""
    p = Position.make("yahtzee-no-bonus", used=ALL_BUT_YAHTZEE, upper_total=63, dice="12345", rolls_left=2)
    ranked = advise(p, solutions("yahtzee-no-bonus"))
    singles = [a for a in ranked if a.keep is not None and len(a.keep) == 1]
    assert [a.keep for a in singles] == [(1,), (2,), (3,), (4,), (5,)]
    assert max(a.expected for a in singles) - min(a.expected for a in singles) < 1e-12
    first = ranked.index(singles[0])
    assert ranked[first:first + 5] == singles           # adjacent, in the documented order


def test_to_dict_is_json_ready():
    keep = Advice("keep", (1, 1, 1, 1), None, 270.298634, 0.0)
    box = Advice("box", None, "full_house", 12.34567, 1.00004)
    assert json.loads(json.dumps(keep.to_dict())) == {"action": "keep", "keep": [1, 1, 1, 1],
                                                     "expected": 270.298634, "loss": 0.0}
    assert box.to_dict() == {"action": "box", "box": "full_house", "expected": 12.34567, "loss": 1.00004}  # unrounded
    assert (keep.label, box.label, Advice("keep", (), None, 0, 0).label) == \
        ("keep 1 1 1 1", "score full_house", "reroll all")


def test_advice_needs_the_matching_solution(solutions):
    with pytest.raises(ValueError, match="solution is for rules 'yahtzee'"):
        advise(Position.make("yatzy", dice="12345"), solutions("yahtzee"))


def test_upper_total_above_the_cap_is_looked_up_capped(solutions):
    upper = [b.name for b in get_rules("yahtzee").boxes if b.is_upper]
    high = Position.make("yahtzee", used=upper, upper_total=80, dice="12345", rolls_left=0)
    capped = Position.make("yahtzee", used=upper, upper_total=63, dice="12345", rolls_left=0)
    assert (high.upper_total, high.upper, high.state()) == (80, 63, capped.state())
    assert advise(high, solutions("yahtzee")) == advise(capped, solutions("yahtzee"))


# ---- positions: parsing, validation, stepping ------------------------------------------------

def test_make_reads_names_and_strings():
    p = Position.make("yahtzee", used="ones, full_house", upper_total=3, dice="2,1 6 6 3", rolls_left=1)
    assert p.used == {"ones", "full_house"} and p.dice == (1, 2, 3, 6, 6)
    assert p.mask == 1 | (1 << get_rules("yahtzee").box_index("full_house"))
    assert parse_dice("11112") == parse_dice([2, 1, 1, 1, 1]) == (1, 1, 1, 1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.rolls_left = 0


@pytest.mark.parametrize("kwargs, message", [
    (dict(dice="1111"), "expected 5 dice, got 4"),
    (dict(dice="111127"), "expected 5 dice, got 6"),
    (dict(dice="11117"), r"dice must be whole numbers 1..6, got \[7\]"),
    (dict(dice="1111x"), "cannot read dice '1111x'"),
    (dict(used={"ones", "fullhouse"}), "unknown box 'fullhouse'.*boxes are: ones, twos"),
    (dict(used={"twos", "sixes"}, upper_total=3), r"upper total 3 cannot be made .*\(twos, sixes\)"),
    (dict(upper_total=5), r"upper total 5 cannot be made .*\(none\)"),
    (dict(upper_total=-3, used={"ones"}), "upper total -3"),
    (dict(rolls_left=3), "rolls_left counts the rerolls still allowed: 0..2, got 3"),
    (dict(rolls_left=-1), "0..2, got -1"),
    (dict(yahtzee_bonus=True), "needs the 'yahtzee' box used"),
    (dict(used=get_rules("yahtzee").box_names, upper_total=0), "all boxes are used"),
])
def test_bad_positions_are_named(kwargs, message):
    args = dict(rules="yahtzee", dice="11112", rolls_left=2) | kwargs
    with pytest.raises(ValueError, match=message):
        Position.make(**args)


@pytest.mark.parametrize("name", ["yatzy", "yahtzee-no-bonus"])
def test_yahtzee_bonus_flag_needs_rules_with_the_bonus(name):
    yahtzee_box = "yatzy" if name == "yatzy" else "yahtzee"
    with pytest.raises(ValueError, match=f"rules '{name}' have no Yahtzee bonus"):
        Position.make(name, used={yahtzee_box}, dice="11112", yahtzee_bonus=True)


def test_upper_totals_agree_with_the_state_space():
    rules = get_rules("yahtzee")
    space, cap = StateSpace(rules), rules.upper_cap
    for mask in range(64):                                       # every set of used upper boxes
        used = {rules.box_names[b] for b in range(6) if mask >> b & 1}
        capped = {min(t, cap) for t in upper_totals(rules, used)}
        assert capped == set(np.flatnonzero(space.upper_reach[mask]).tolist())
    assert max(upper_totals(rules, rules.box_names)) == 5 * 21


def test_keep_rerolls_the_rest():
    p = Position.make("yahtzee", dice="11256", rolls_left=2)
    q = p.keep("11", rolled="636")
    assert (q.dice, q.rolls_left, q.used) == ((1, 1, 3, 6, 6), 1, frozenset())
    drawn = p.keep([5, 6], rng=np.random.default_rng(7))
    assert drawn.rolls_left == 1 and len(drawn.dice) == 5 and {5, 6} <= set(drawn.dice)
    with pytest.raises(ValueError, match=r"cannot keep \[3\]"):
        p.keep([3], rolled="1111")
    with pytest.raises(ValueError, match="keeping 2 dice rerolls 3, got 2 new dice"):
        p.keep("11", rolled="66")
    with pytest.raises(ValueError, match="keeping 1 die rerolls 4, got 1 new die$"):
        p.keep("1", rolled="6")
    with pytest.raises(ValueError, match="no rerolls left"):
        Position.make("yahtzee", dice="11256", rolls_left=0).keep("11", rolled="111")


def test_score_updates_the_card():
    p = Position.make("yahtzee", used={"ones"}, upper_total=3, dice="66666", rolls_left=0)
    after_yahtzee = p.score("yahtzee", next_dice="12345")
    assert after_yahtzee.yahtzee_bonus and after_yahtzee.used == {"ones", "yahtzee"}
    assert after_yahtzee.rolls_left == 2 and after_yahtzee.dice == (1, 2, 3, 4, 5)
    after_sixes = p.score("sixes", next_dice="12345")
    assert (after_sixes.upper_total, after_sixes.yahtzee_bonus) == (33, False)
    scratched = Position.make("yahtzee", dice="12346", rolls_left=0).score("yahtzee", next_dice="11111")
    assert not scratched.yahtzee_bonus and scratched.used == {"yahtzee"}
    with pytest.raises(ValueError, match="'ones' is already used"):
        p.score("ones", next_dice="12345")


def test_upper_bonus_is_paid_once_when_crossing():
    upper = ["ones", "twos", "threes", "fours", "fives"]
    p = Position.make("yahtzee", used=upper, upper_total=45, dice="66661", rolls_left=0)
    assert p.points("sixes") == 24 + 35
    q = Position.make("yahtzee", used=upper, upper_total=63 + 2, dice="66661", rolls_left=0)
    assert q.points("sixes") == 24


def test_scoring_the_last_box_ends_the_game():
    p = Position.make("yahtzee", used=ALL_BUT_YAHTZEE, upper_total=63, dice="33333", rolls_left=0)
    assert p.points("yahtzee") == 50 and p.score("yahtzee") is None


def test_keepers_offered_are_every_sub_multiset_once():
    """1 1 2 2 3 has 3 * 3 * 2 distinct keepers, all offered once; 6 6 6 6 6 has 6."""
    for dice, count in (("11223", 18), ("66666", 6), ("12345", 32)):
        offered = [a.keep for a in advise(Position.make("yatzy", dice=dice, rolls_left=1)) if a.action == "keep"]
        assert len(offered) == len(set(offered)) == count - 1          # keeping all five: score now
        assert all(all(k.count(d) <= dice.count(str(d)) for d in k) for k in offered)


def test_forced_order_positions_are_prefixes_of_the_card(solutions):
    """Under forced order only the first k boxes can be used: any other set is refused (its
    table entries are unreachable, so a value would be wrong), and a prefix is valued by the table."""
    with pytest.raises(ValueError, match=r"first 2 of the card \(ones, twos\)"):
        Position.make("forced-yatzy", used=["twos", "threes"], dice="11356", rolls_left=0)
    position = Position.make("forced-yatzy", used=["ones", "twos"], dice="33356", rolls_left=0)
    solution = solutions("forced-yatzy")
    (only,) = advise(position, solution)
    assert only.box == "threes"
    assert only.value == pytest.approx(9 + solution.value(0b111, 9), abs=1e-9)
