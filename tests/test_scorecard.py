"""The score card: the pad's lines with exact sums, bonuses split as the pad splits them."""
import pytest

from yatzy_core.advice.coach import Game
from yatzy_core.game.rules import get_rules
from yatzy_core.ui.scorecard import box_options, card_lines, game_card_html, scorecard_html


def values(lines):
    return {l.label: l.value for l in lines}


def test_three_yahtzee_bonuses_and_the_upper_bonus(solutions):
    game = Game("yahtzee", dice="66666", solution=solutions("yahtzee"))
    game.score("yahtzee", next_dice="66666")
    for box, after in [("sixes", "55555"), ("fives", "44444"), ("fours", "12345")]:
        game.score(box, next_dice=after)           # forced joker: each five alike in its upper box
    assert game.total == 460 and game.bonus == 335
    lines = card_lines(game.rules, game.scores, game.bonus, box_options(game.position))
    sums = {l.label: l.value for l in lines if l.kind != "box"}
    assert sums == {"Upper subtotal": 75, "To go for the bonus": 0, "Bonus (35 at 63)": 35,
                    "Upper total": 110, "Yahtzee bonus (100 each)": 300, "Lower total": 350,
                    "Grand total": 460}
    assert [l.box for l in lines if l.kind == "box"] == list(game.rules.box_names)
    options = {l.box: l.option for l in lines if l.option}
    assert options["large_straight"] == (40, 0) and options["chance"] == (15, 0) and "sixes" not in options
    card = game_card_html(game, selected="chance")
    assert '<tr class="yc-pad-to-go"><td colspan="2">bonus made</td></tr>' in card
    assert ('<tr class="yc-pad-box yc-pad-open yc-pad-can yc-pad-selected" data-box="chance">'
            '<td>Chance</td><td class="yc-pad-score"><span class="yc-pad-option">15</span></td></tr>') in card
    assert ('<tr class="yc-pad-box yc-pad-filled" data-box="sixes"><td>Sixes</td>'
            '<td class="yc-pad-score">30</td></tr>') in card
    assert '<td>Grand total</td><td class="yc-pad-score">460</td>' in card


def test_the_bonus_line_waits_until_made_or_missed():
    yatzy = get_rules("yatzy")
    upper = ["ones", "twos", "threes", "fours", "fives", "sixes"]
    going = values(card_lines(yatzy, {"sixes": 24, "fives": 20}, 0))
    assert (going["To go for the bonus"], going["Bonus (50 at 63)"]) == (19, None)
    missed = {name: 2 * i for i, name in enumerate(upper, 1)}            # 2+4+...+12 = 42
    lines = card_lines(yatzy, missed, 0)
    assert values(lines)["Bonus (50 at 63)"] == 0 and values(lines)["Upper total"] == 42
    assert "bonus missed" in scorecard_html(yatzy, missed, 0)
    partial = {k: v for k, v in missed.items() if k != "sixes"}          # 30 so far
    assert "33 to go for the bonus" in scorecard_html(yatzy, partial, 0)
    assert not any("bonus (" in l.label for l in card_lines(yatzy, {}, 0))   # Yatzy has no Yatzy bonus


def test_an_upper_bonus_crossing_move_shows_its_bonus_apart(solutions):
    game = Game("yatzy", dice="66666", solution=solutions("yatzy"))
    for box, after in [("sixes", "55555"), ("fives", "44444"), ("fours", "33333")]:
        game.score(box, next_dice=after)                                  # 30 + 25 + 20 = 75
    assert box_options(game.position)["threes"] == (15, 0)
    crossing = Game("yatzy", dice="66666", solution=solutions("yatzy"))
    crossing.score("sixes", next_dice="55555")
    crossing.score("fives", next_dice="44444")                            # 55 so far
    assert box_options(crossing.position)["fours"] == (20, 50)            # 75 >= 63: the bonus
    assert '<span class="yc-pad-option">20</span> <span class="yc-pad-extra">+50</span>' in \
        game_card_html(crossing)


@pytest.mark.parametrize("scores, bonus, message", [
    ({"tens": 3}, 0, "scores"), ({}, -1, "bonus"), ({}, 1.5, "bonus")])
def test_bad_input_names_the_argument(scores, bonus, message):
    with pytest.raises(ValueError, match=message):
        card_lines(get_rules("yatzy"), scores, bonus)
