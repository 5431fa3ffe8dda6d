"""House-rule variants (variants.py): built like a rule file, solved like any rule set, and the
classic what-if questions answered with exact values."""
import pytest

from yatzy_core import get_rules, solve
from yatzy_core.game.scoring import Box, make_scorer
from yatzy_core.game.variants import QUESTIONS, answer, knobs, point_boxes, rules_for, variant


def value(rules) -> float:
    return solve(rules, progress=False).expected_score


def test_a_variant_changes_only_what_it_names():
    v = variant("yahtzee", upper_bonus=0, rolls_per_turn=2)
    y = get_rules("yahtzee")
    assert v.name == "yahtzee, upper_bonus 0, rolls_per_turn 2"
    assert (v.upper_bonus, v.rolls_per_turn) == (0, 2)
    assert v.description == "yahtzee with upper_bonus 0, rolls_per_turn 2"   # not "upper bonus 35"
    assert v.with_(name="yahtzee", upper_bonus=35, rolls_per_turn=3, description=y.description) == y
    assert variant("yatzy", upper_bonus=50) == get_rules("yatzy")          # no change, same rules


def test_box_points_move_the_joker_value_and_the_score():
    v = variant("yahtzee", points={"full_house": 40, "large_straight": 45})
    box = v.boxes[v.box_index("full_house")]
    assert (box.joker_value, box.max_score) == (40, 40)
    assert v.score("full_house", [2, 2, 5, 5, 5]) == 40 and v.score("full_house", [2, 2, 5, 5, 6]) == 0
    assert v.score("large_straight", [2, 3, 4, 5, 6]) == 45
    assert point_boxes(v) == {"full_house": 40, "small_straight": 30, "large_straight": 45, "yahtzee": 50}
    assert knobs(v)["points"] == point_boxes(v)


def test_a_yahtzee_bonus_on_yatzy_is_paid_on_the_yatzy_box_with_no_joker():
    v = variant("yatzy", yahtzee_bonus=100)
    assert (v.yahtzee_box, v.joker, v.tracks_yahtzee_bonus) == ("yatzy", "none", True)
    by_hand = get_rules("yatzy").with_(name="by hand", yahtzee_box="yatzy", yahtzee_bonus=100)
    assert value(v) == pytest.approx(value(by_hand), abs=1e-9)
    assert value(v) > value("yatzy") + 1                                      # extra Yatzys pay


def test_bad_changes_name_the_argument():
    with pytest.raises(ValueError, match="upper_bonus_threshold: 200 is out of range.*1 to 105"):
        variant("yatzy", upper_bonus_threshold=200)
    with pytest.raises(ValueError, match="forced_order needs joker 'none'"):
        variant("yahtzee", forced_order=True)
    with pytest.raises(ValueError, match="variant cannot change 'faces'"):
        variant("yatzy", faces=8)
    with pytest.raises(TypeError, match="upper_bonus must be a whole number"):
        variant("yatzy", upper_bonus="50")
    with pytest.raises(TypeError, match="forced_order must be true or false"):
        variant("yatzy", forced_order=1)
    with pytest.raises(ValueError, match="box 'chance' of 'yatzy' does not score fixed points"):
        variant("yatzy", points={"chance": 30})
    with pytest.raises(ValueError, match="rolls_per_turn: 0 is out of range"):
        variant("yatzy", rolls_per_turn=0)


def test_forced_order_without_the_bonus_is_the_sum_of_one_box_games():
    """With forced order and no upper bonus the turns do not interact: each turn plays one box
    alone, so the game is worth the sum of fifteen one-box games (an independent check)."""
    yatzy = get_rules("yatzy")
    one_box_games = sum(value(yatzy.with_(name=f"only {b.name}", boxes=(b,), upper_bonus=0))
                        for b in yatzy.boxes)
    assert value(variant("forced-yatzy", upper_bonus=0)) == pytest.approx(one_box_games, abs=1e-9)
    assert round(one_box_games, 4) == 120.3797
    assert variant("yatzy", forced_order=True).with_(name="forced-yatzy",
                                                     description=get_rules("forced-yatzy").description) \
        == get_rules("forced-yatzy")


def test_changed_points_equal_a_hand_built_rule_set():
    y = get_rules("yahtzee")
    boxes = tuple(Box(b.name, make_scorer("full_house", points=40), None, 40, 40)
                  if b.name == "full_house" else b for b in y.boxes)
    by_hand = y.with_(name="by hand", boxes=boxes)
    assert value(variant(y, points={"full_house": 40})) == pytest.approx(value(by_hand), abs=1e-9)


def test_the_classic_questions():
    answers = {q.question: answer(q, value) for q in QUESTIONS}
    rounded = {q: (a[1], round(a[2], 4), a[3], round(a[4], 4), round(a[5], 4)) for q, a in answers.items()}
    assert rounded == {
        "What is the upper bonus worth? (Yatzy)": ("yatzy", 248.44, "yatzy, upper_bonus 0", 211.1487, 37.2913),
        "What is the upper bonus worth? (Yahtzee)": ("yahtzee", 254.5877, "yahtzee, upper_bonus 0",
                                                     237.8245, 16.7632),
        "What does a third reroll add?": ("yahtzee-3-rerolls", 328.9553, "yahtzee", 254.5877, 74.3676),
        "What does the second reroll add?": ("yahtzee", 254.5877, "yahtzee, rolls_per_turn 2",
                                             190.1297, 64.4581),
        "What does the first reroll add?": ("yahtzee, rolls_per_turn 2", 190.1297,
                                            "yahtzee, rolls_per_turn 1", 127.5156, 62.6141),
        "What does forced order cost?": ("yatzy", 248.44, "forced-yatzy", 122.5585, 125.8815),
        "What are the Yahtzee bonus and joker worth?": ("yahtzee", 254.5877, "yahtzee-no-bonus",
                                                        245.8708, 8.717),
    }
    assert rules_for(("yahtzee", {"rolls_per_turn": 4})).with_(
        name="yahtzee-3-rerolls", description=get_rules("yahtzee-3-rerolls").description) \
        == get_rules("yahtzee-3-rerolls")                      # the rule file is that variant
