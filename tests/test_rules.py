"""Scoring by hand examples, and properties every box of every built-in rule set must keep."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from yatzy_core.game.rules import get_rules, rule_names
from yatzy_core.game.scoring import CATALOGUE, make_scorer

YATZY, YAHTZEE, THESIS = get_rules("yatzy"), get_rules("yahtzee"), get_rules("yatzy-thesis")
MAXI = get_rules("maxi-yatzy")

HAND = [  # (rules, box, dice, score)
    (YATZY, "two_pairs", [1, 2, 2, 4, 4], 12),
    (YATZY, "two_pairs", [1, 2, 2, 2, 2], 0),       # four alike is one pair, not two
    (YATZY, "two_pairs", [3, 3, 3, 6, 6], 18),
    (YATZY, "full_house", [5, 5, 6, 6, 6], 28),
    (YATZY, "full_house", [6, 6, 6, 6, 6], 0),      # five alike is not three plus two
    (YATZY, "one_pair", [3, 3, 5, 5, 6], 10),       # the higher pair
    (YATZY, "three_of_a_kind", [2, 4, 4, 4, 4], 12),
    (YATZY, "four_of_a_kind", [2, 4, 4, 4, 4], 16),
    (YATZY, "four_of_a_kind", [2, 2, 4, 4, 4], 0),
    (YATZY, "small_straight", [1, 2, 3, 4, 5], 15),
    (YATZY, "small_straight", [2, 3, 4, 5, 6], 0),
    (YATZY, "large_straight", [2, 3, 4, 5, 6], 20),
    (YATZY, "large_straight", [1, 2, 3, 4, 5], 0),
    (YATZY, "yatzy", [4, 4, 4, 4, 4], 50),
    (YATZY, "yatzy", [4, 4, 4, 4, 3], 0),
    (YAHTZEE, "three_of_a_kind", [3, 3, 3, 4, 5], 18),
    (YAHTZEE, "four_of_a_kind", [3, 3, 3, 4, 5], 0),
    (YAHTZEE, "four_of_a_kind", [6, 6, 6, 6, 2], 26),
    (YAHTZEE, "full_house", [2, 2, 3, 3, 3], 25),
    (YAHTZEE, "full_house", [2, 2, 3, 3, 4], 0),
    (YAHTZEE, "small_straight", [1, 2, 3, 4, 6], 30),
    (YAHTZEE, "small_straight", [3, 4, 5, 6, 6], 30),
    (YAHTZEE, "small_straight", [1, 2, 3, 5, 6], 0),
    (YAHTZEE, "large_straight", [1, 2, 3, 4, 6], 0),
    (YAHTZEE, "large_straight", [5, 3, 4, 2, 6], 40),
    (YAHTZEE, "yahtzee", [2, 2, 2, 2, 2], 50),
    (YAHTZEE, "chance", [1, 3, 3, 5, 6], 18),
    (THESIS, "two_pairs", [1, 2, 2, 4, 5], 4),      # the thesis variant scores a single pair
    (YATZY, "two_pairs", [1, 2, 2, 4, 5], 0),
    (THESIS, "two_pairs", [1, 2, 2, 4, 4], 12),
    # Maxi Yatzy, six dice: pairs, groups and straights leave the other dice out
    (MAXI, "sixes", [6, 6, 6, 1, 2, 3], 18),
    (MAXI, "one_pair", [1, 1, 2, 2, 6, 6], 12),
    (MAXI, "two_pairs", [1, 1, 2, 2, 6, 6], 16),     # the two highest pairs
    (MAXI, "two_pairs", [3, 3, 3, 3, 5, 5], 16),
    (MAXI, "two_pairs", [3, 3, 3, 3, 3, 5], 0),      # five alike is one pair
    (MAXI, "three_pairs", [1, 1, 2, 2, 3, 3], 12),
    (MAXI, "three_pairs", [3, 3, 3, 3, 5, 5], 0),    # four alike is not two pairs
    (MAXI, "three_of_a_kind", [2, 2, 2, 5, 5, 5], 15),
    (MAXI, "four_of_a_kind", [4, 4, 4, 4, 4, 1], 16),
    (MAXI, "five_of_a_kind", [4, 4, 4, 4, 4, 1], 20),
    (MAXI, "five_of_a_kind", [4, 4, 4, 4, 1, 1], 0),
    (MAXI, "small_straight", [1, 2, 3, 4, 5, 5], 15),  # the sixth die is free
    (MAXI, "small_straight", [1, 2, 3, 4, 6, 6], 0),
    (MAXI, "large_straight", [6, 5, 4, 3, 2, 1], 20),
    (MAXI, "full_straight", [1, 2, 3, 4, 5, 6], 21),
    (MAXI, "full_straight", [1, 2, 3, 4, 5, 5], 0),
    (MAXI, "full_house", [2, 2, 2, 5, 5, 5], 19),    # 5+5+5 + 2+2: the best three plus two
    (MAXI, "full_house", [1, 1, 1, 2, 2, 6], 7),     # the sixth die does not count
    (MAXI, "full_house", [4, 4, 4, 4, 4, 4], 0),
    (MAXI, "villa", [2, 2, 2, 5, 5, 5], 21),
    (MAXI, "villa", [2, 2, 2, 2, 5, 5], 0),
    (MAXI, "tower", [3, 3, 3, 3, 5, 5], 22),
    (MAXI, "tower", [5, 5, 5, 5, 3, 3], 26),
    (MAXI, "tower", [6, 6, 6, 6, 6, 6], 0),          # six alike is not four plus two
    (MAXI, "chance", [1, 2, 3, 4, 5, 6], 21),
    (MAXI, "maxi_yatzy", [5, 5, 5, 5, 5, 5], 100),
    (MAXI, "maxi_yatzy", [5, 5, 5, 5, 5, 4], 0),
]


@pytest.mark.parametrize("rules, box, dice, score", HAND, ids=lambda v: getattr(v, "name", None))
def test_hand_examples(rules, box, dice, score):
    assert rules.score(box, dice) == score


def test_every_catalogue_scorer_has_a_hand_example():
    used = {rules.boxes[rules.box_index(box)].spec["scorer"] for rules, box, _, _ in HAND}
    assert used == set(CATALOGUE)


def test_fixed_points_readings_of_the_groups():
    two_and_five = np.array([0, 3, 0, 0, 3, 0])           # 2,2,2,5,5,5
    assert [int(make_scorer(k, points=p)(two_and_five)) for k, p in
            [("full_house", 25), ("villa", 40), ("tower", 50)]] == [25, 40, 0]


RULES = [get_rules(name) for name in rule_names(include_new=True)]
DICE = st.lists(st.integers(1, 6), min_size=6, max_size=6)


def dealt(rules, dice):
    """The first n_dice of six drawn dice."""
    return dice[:rules.n_dice]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(dice=DICE, data=st.data())
def test_order_never_matters(dice, data):
    for rules in RULES:
        mine = dealt(rules, dice)
        shuffled = data.draw(st.permutations(mine))
        for box in rules.box_names:
            assert rules.score(box, mine) == rules.score(box, shuffled)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(full=DICE)
def test_chance_upper_and_bounds(full):
    for rules in RULES:
        dice = dealt(rules, full)
        assert rules.score("chance", dice) == sum(dice)
        for box in rules.boxes:
            score = rules.score(box.name, dice)
            assert 0 <= score <= box.max_score, (rules.name, box.name, dice)
            if box.face is not None:
                assert score == box.face * dice.count(box.face)


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_max_score_is_the_best_roll(rules):
    """Exhaustive over the 252 rolls (462 for six dice): max_score is reached and never passed."""
    table = rules.score_table
    assert table.shape == ({5: 252, 6: 462}[rules.n_dice], rules.n_boxes)
    assert table.min() == 0
    assert list(table.max(axis=0)) == [b.max_score for b in rules.boxes]


def test_score_table_matches_score():
    for rules in RULES:
        for r, counts in enumerate(rules.dice.rolls):
            dice = [f for f, c in enumerate(counts, 1) for _ in range(c)]
            assert [rules.score(b, dice) for b in rules.box_names] == list(rules.score_table[r])


def test_box_counts():
    assert [r.n_boxes for r in RULES] == [13, 13, 13, 15, 15, 15, 20, 20, 13]
    assert np.array_equal(YATZY.upper_faces[:6], np.arange(1, 7))


def test_unknown_rules_lists_valid_names():
    with pytest.raises(ValueError) as err:
        get_rules("kniffel")
    assert "kniffel" in str(err.value)
    for name in rule_names():
        assert name in str(err.value)


def test_unknown_box_lists_boxes():
    with pytest.raises(ValueError) as err:
        YATZY.score("yahtzee", [1, 1, 1, 1, 1])
    assert "'yahtzee'" in str(err.value) and "two_pairs" in str(err.value)


def test_bad_dice_raise():
    with pytest.raises(ValueError, match="expected 5 dice"):
        YAHTZEE.score("chance", [1, 2, 3])
    with pytest.raises(ValueError, match=r"\[9\]"):
        YAHTZEE.score("chance", [1, 2, 3, 4, 9])


def test_a_card_has_at_most_twenty_boxes():
    yatzy = get_rules("yatzy")
    with pytest.raises(ValueError, match="1 to 20 boxes .* got 30"):
        yatzy.with_(boxes=yatzy.boxes * 2)
    with pytest.raises(ValueError, match="got 0"):
        yatzy.with_(boxes=())


def test_the_rule_files_are_the_builtin_list(tmp_path):
    """A rule file shipped in game/rulesets/ is a built-in, by its file name; no list to keep."""
    import shutil
    from yatzy_core.game.rules import BUILTIN, CLASSIC, RULESETS, builtin_names
    assert set(BUILTIN) == {p.stem for p in RULESETS.glob("*.toml")} and BUILTIN[:5] == CLASSIC
    assert all(get_rules(name).name == name for name in BUILTIN)       # each file names itself
    shutil.copytree(RULESETS, tmp_path, dirs_exist_ok=True)
    (tmp_path / "aaa-new.toml").write_text((RULESETS / "yatzy.toml").read_text().replace('"yatzy"', '"aaa-new"'))
    assert builtin_names(tmp_path) == CLASSIC + ("aaa-new",) + BUILTIN[5:]
