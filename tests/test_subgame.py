"""The rest of a game as a rule set (subgame.py, advisor.rest_of_game): its value is the full
game's value at that state, on 5-dice games whose full table is cheap and on a small 6-dice one;
and a late Maxi Yatzy position is advised from the CLI without the 57M-state table."""
import json

import numpy as np
import pytest

from yatzy_core.advice.advisor import advise, rest_of_game
from yatzy_core.engine.position import Position
from yatzy_core.engine.cache import cache_path
from yatzy_core.cli.command import main
from yatzy_core.game.rules import get_rules
from yatzy_core.engine.solver import solve
from yatzy_core.game.states import StateSpace
from yatzy_core.engine.subgame import full_table_at_hand, subgame_rules

MAXI = get_rules("maxi-yatzy-no-saved-rolls")


def late_states(space: StateSpace, open_boxes: int, n: int, seed: int) -> list[tuple[int, int, int]]:
    """n reachable (mask, upper, flag) states with `open_boxes` boxes open, drawn with a seed."""
    layer = space.layer(space.n_boxes - open_boxes)
    picked = np.random.default_rng(seed).choice(layer, size=min(n, len(layer)), replace=False)
    return [tuple(int(x) for x in space.decode(i)) for i in picked]


def check_state(full, mask: int, upper: int, flag: int) -> None:
    rules = full.rules
    used = {name for i, name in enumerate(rules.box_names) if mask >> i & 1}
    sub = solve(subgame_rules(rules, used, upper), progress=False)
    yahtzee_used = rules.yahtzee_box in used and rules.tracks_yahtzee_bonus
    start = StateSpace(sub.rules).index(1 << sub.rules.box_index(rules.yahtzee_box) if yahtzee_used else 0, 0, flag)
    assert sub.values[start] == pytest.approx(full.value(mask, upper, flag), abs=1e-9), (mask, upper, flag)


@pytest.mark.parametrize("name, open_boxes, seed", [
    ("yatzy", 3, 1), ("yatzy", 5, 2), ("yahtzee", 3, 3), ("yahtzee", 4, 4), ("forced-yatzy", 3, 5)])
def test_the_subgame_is_worth_the_full_value_of_its_state(solutions, name, open_boxes, seed):
    full = solutions(name)
    for mask, upper, flag in late_states(full.space, open_boxes, 6, seed):
        check_state(full, mask, upper, flag)


def test_bonus_paid_out_of_reach_and_yahtzee_flag_cases(solutions):
    yahtzee = solutions("yahtzee")
    rules = yahtzee.rules
    bit = {name: 1 << i for i, name in enumerate(rules.box_names)}
    open_ = ("sixes", "full_house", "chance")
    card = sum(b for name, b in bit.items() if name not in open_)
    for upper, flag in [(63, 0), (63, 1), (20, 1), (45, 0), (57, 1)]:   # paid, out of reach, within reach
        check_state(yahtzee, card, upper, flag)
    assert subgame_rules(rules, set(bit) - set(open_), 20).upper_bonus == 0      # 20 + 30 < 63
    assert subgame_rules(rules, set(bit) - set(open_), 57).upper_bonus_threshold == 6
    assert subgame_rules(rules, set(bit) - set(open_), 70).upper_bonus == 0      # paid already


def test_six_dice_subgames_agree_with_a_full_six_dice_table():
    boxes = ("ones", "fives", "sixes", "three_pairs", "villa", "full_straight", "maxi_yatzy")
    small = MAXI.with_(name="maxi-small", boxes=tuple(b for b in MAXI.boxes if b.name in boxes),
                       upper_bonus_threshold=40)
    full = solve(small, progress=False)
    for mask, upper, flag in late_states(full.space, 3, 5, 6):
        check_state(full, mask, upper, flag)


def test_advice_from_the_subgame_is_the_full_advice(solutions):
    full = solutions("yatzy")
    p = Position.make("yatzy", used="ones,twos,threes,fours,one_pair,two_pairs,three_of_a_kind,"
                      "small_straight,large_straight,chance", upper_total=36, dice="55662", rolls_left=1)
    rest = rest_of_game(p)
    whole = advise(p, full)
    part = advise(rest, solve(rest.rules, progress=False))
    assert [a.label for a in whole] == [a.label for a in part]
    assert np.allclose([a.expected for a in whole], [a.expected for a in part], atol=1e-9)


def test_small_or_cached_games_keep_the_full_table():
    assert full_table_at_hand(get_rules("yatzy")) and full_table_at_hand(get_rules("yahtzee"))


def maxi_advice(capsys, dice: str, used: list[str], upper: int, rolls_left: int) -> list[dict]:
    status = main(["advise", "--rules", "maxi-yatzy-no-saved-rolls", "--dice", dice, "--used", ",".join(used),
                   "--upper", str(upper), "--rolls-left", str(rolls_left), "--json"])
    assert status == 0
    return json.loads(capsys.readouterr().out)


def test_maxi_yatzy_advice_with_three_boxes_open_needs_no_full_table(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))     # no full table anywhere
    open_ = ("sixes", "villa", "maxi_yatzy")
    used = [n for n in MAXI.box_names if n not in open_]
    assert not full_table_at_hand(MAXI)
    keep = maxi_advice(capsys, "122355", used, 60, 2)
    assert {tuple(a["keep"]) for a in keep if a["action"] == "keep"} >= {(), (5, 5)}
    assert {a["box"] for a in keep if a["action"] == "box"} == set(open_)  # six dice kept: score now
    assert keep[0]["loss"] == 0 and all(a["expected"] <= keep[0]["expected"] for a in keep)
    # another position: another subgame, solved on its own (about 0.5 s), never the whole table
    maxi_advice(capsys, "112346", [n for n in used if n != "fours"] + ["sixes"], 56, 1)
    assert not cache_path(MAXI).exists()
    # the last roll: each box is worth its points now plus the value of the game left after it,
    # which is a different (two-box) subgame, solved on its own
    boxes = {a["box"]: a["expected"] for a in maxi_advice(capsys, "666655", used, 60, 0)}
    after = Position.make("maxi-yatzy-no-saved-rolls", used=used + ["sixes"], upper_total=84, dice="111111")
    later = solve(rest_of_game(after).rules, progress=False).expected_score
    assert boxes["sixes"] == pytest.approx(24 + 100 + later, abs=1e-4)    # 4 sixes reach 84: bonus
    assert boxes["villa"] == pytest.approx(0 + solve(subgame_rules(MAXI, set(used) | {"villa"}, 60),
                                                     progress=False).expected_score, abs=1e-4)
