"""The explorer and the coach offer "versus": a text box for the opponent's card and a signed lead,
generated from the registry; the ranking is P(win) + 1/2 P(tie), exact in the endgame (checked by
enumerating the dice) and labelled as the approximation with its loss before it; a bad card is one
line in the widget; no final-score outlook is drawn for it, a line says why."""
from fractions import Fraction
from itertools import product

import pytest
from traitlets import TraitError

from yatzy_core.advice.advisor import advise
from yatzy_core.engine.position import Position
from yatzy_core.game.rules import get_rules
from yatzy_core.objectives.opponent_card import OpponentCard
from yatzy_core.objectives.outscore import Outscore
from yatzy_core.objectives.registry import objective_class, slot_values
from yatzy_core.ui.objective_inputs import menu
from yatzy_core.ui.play_for import objective_rows, ranking_note
from yatzy_core.ui.widgets import Explorer
from yatzy_core.ui.widgets_coach import CoachApp

from test_endgame_versus import _brute_choices
from test_two_player import GAMES

CHANCE_ONLY = tuple(n for n in get_rules("yatzy").box_names if n != "chance")   # the last turn: chance open
NO_OUTLOOK = "objective versus: no final-score outlook (it ranks choices by the chance to win only)"


def last_turn_value(kept: list[int], rerolled: int, lead: int) -> Fraction:
    """P(win) + 1/2 P(tie) of keeping `kept` and scoring chance after one reroll of the rest,
    `lead` points ahead of an opponent whose card is full: every outcome of the dice counted."""
    outcomes = list(product(range(1, 7), repeat=rerolled))
    worth = sum(Fraction(1) if lead + sum(kept) + sum(o) > 0 else Fraction(1, 2) if lead + sum(kept) + sum(o) == 0
                else Fraction(0) for o in outcomes)
    return worth / len(outcomes)


@pytest.fixture
def explorer(solutions):
    solutions("yatzy")
    return Explorer(rules="yatzy", dice=(6, 6, 6, 1, 1), rolls_left=1, used=CHANCE_ONLY, upper_total=63)


def test_versus_is_offered_with_a_card_box_and_a_signed_lead(explorer):
    assert ("beat an opponent's card", "versus") in menu()
    assert "outscore" not in [key for _, key in menu()]                 # versus hands over to it itself
    explorer.objective_w.value = "versus"
    assert explorer.objective == "versus"
    shown = {name: w.layout.display for name, w in (("goal", explorer.goal_w), ("theta", explorer.theta_w),
                                                     ("card", explorer.card_text_w), ("lead", explorer.lead_w))}
    assert shown == {"goal": "none", "theta": "none", "card": "", "lead": ""}
    assert (explorer.card_text_w.description, explorer.lead_w.description) == ("Their card", "Your lead")
    assert explorer.card_text_w.placeholder == "used=ones,chance;upper=3"
    lead = objective_class("versus").parameters[1]                    # the box takes the flag's range
    assert (explorer.lead_w.min, explorer.lead_w.max) == (lead.low, lead.high) and lead.low < 0
    coach = CoachApp("yatzy", seed=2, outlook=False)
    assert "versus" in [key for _, key in coach.outlook.play_w.options]
    coach.outlook.play_w.value = "versus"
    assert (coach.outlook.card_w.layout.display, coach.outlook.lead_w.layout.display,
            coach.outlook.theta_w.layout.display) == (None, None, "none")


def test_typing_a_card_and_a_lead_ranks_the_last_turn_exactly(explorer):
    explorer.objective_w.value = "versus"
    explorer.card_text_w.value = "open="                               # the opponent has finished
    explorer.lead_w.value = -25                                        # and is 25 points ahead
    assert (explorer.card, explorer.lead, explorer.message, explorer.note) == ("open=", -25, "", "")
    assert explorer.value_heading == "P(win) + ½P(tie)"
    assert explorer.best_label == "keep 6 6 6" and explorer.rows[0].value == pytest.approx(0.5, abs=1e-12)   # 18/36
    for row in explorer.rows:                                          # every choice, by counting the dice
        if row.label.startswith("score"):
            exact = Fraction(0)                                        # 20 points: 5 short
        else:
            kept = [] if row.label == "reroll all" else [int(d) for d in row.label.split()[1:]]
            exact = last_turn_value(kept, 5 - len(kept), -25)
        assert row.value == pytest.approx(float(exact), abs=1e-12), row.label
    assert "Best: keep 6 6 6" in explorer.best_w.value and "0.5000" in explorer.best_w.value
    explorer.update(lead=-20)                                          # a tie at 20: score now is worth 1/2
    assert [(r.label, round(r.value, 12)) for r in explorer.rows if r.label.startswith("score")] == [
        ("score chance now", 0.5)]


def test_a_bad_card_is_one_line_and_the_best_average_stays(explorer):
    explorer.update(objective="versus", lead=-25, card="used=ones;colour=red")
    assert explorer.message == ("beat an opponent's card: unknown card field 'colour=red': write "
                                "used=BOX,BOX,...;upper=N;yahtzee-bonus (or open=BOX,BOX instead of used=)")
    assert explorer.value_heading == "expected points still to come"   # the best average is shown meanwhile
    assert "colour=red" in explorer.message_w.value
    explorer.card_text_w.value = "used=sevens"
    assert explorer.message.startswith("beat an opponent's card: ") and "sevens" in explorer.message
    assert "\n" not in explorer.message
    explorer.card_text_w.value = "open="
    assert explorer.message == "" and explorer.best_label == "keep 6 6 6"


@pytest.mark.parametrize("lead", [10**30, -10**30, 2001, -2001])
def test_a_lead_past_the_box_is_said_and_not_taken_either_way(explorer, lead):
    explorer.update(objective="versus", card="open=", lead=-20)
    ranked = [(r.label, r.value) for r in explorer.rows]
    explorer.update(lead=lead)
    assert explorer.message == f"lead must be between -2000 and 2000, got {lead}"
    assert explorer.lead == explorer.lead_w.value == -20                # the box and the model agree
    assert [(r.label, r.value) for r in explorer.rows] == ranked         # still ranked for a lead of -20
    with pytest.raises(TraitError, match=f"^lead must be between -2000 and 2000, got {lead}$"):
        explorer.lead = lead                                             # set as an attribute: refused too
    assert explorer.lead == explorer.lead_w.value == -20
    explorer.update(lead=2000)                                           # the bound itself is taken
    assert explorer.message == "" and explorer.lead == explorer.lead_w.value == 2000


def test_no_outlook_is_drawn_for_versus_a_line_says_why(explorer):
    explorer.update(objective="versus", card="open=", lead=-25, scored=200)
    assert explorer.outlook.wait(60)
    assert explorer.outlook.distribution is None
    assert explorer.outlook.chance_w.value == f"<i>{NO_OUTLOOK}</i>"
    coach = CoachApp("yatzy", seed=2)
    coach.outlook.play_w.value = "versus"                              # a new pass for the policy chosen
    assert coach.outlook.wait(60) and coach.outlook.distribution is None
    assert coach.outlook.chance_w.value == f"<i>{NO_OUTLOOK}</i>"
    coach.outlook.card_w.value = "upper=lots"                          # a bad card: its one line instead
    assert coach.outlook.wait(60) and coach.outlook.distribution is None
    assert coach.outlook.chance_w.value == "<i>upper total must be a whole number, got &#x27;lots&#x27;</i>"


def test_the_model_ranks_a_small_game_exactly_and_labels_the_approximation(private_cache):
    """Forced joker game (3 boxes, its endgame tables built in a second): with 2 boxes open each
    the rows are the brute force's Fractions; with 3 open the approximation's, headed and noted so."""
    rules = GAMES["forced"]
    values = slot_values("versus", {"card": "used=ones", "lead": -1, "goal": 0, "theta": 0.0})
    card = OpponentCard(used=frozenset({"ones"}))
    assert values == {"opponent": card, "lead": -1}
    inside = Position.make(rules, used=("chance",), dice="12", rolls_left=0)
    ranked, rows, heading = objective_rows(inside, "versus", **values)
    exact = _brute_choices(rules, inside, card, -1)
    assert heading == "P(win) + ½P(tie)" and ranking_note(inside, "versus", **values) == ""
    assert {a.box: r.value for a, r in zip(ranked, rows)} == pytest.approx(
        {box: float(v) for box, v in exact.items()}, abs=1e-12)
    beyond = Position.make(rules, dice="11", rolls_left=1)
    ranked, rows, heading = objective_rows(beyond, "versus", **values)
    assert heading == "P(outscore), approximate"
    assert [(r.label, r.value) for r in rows] == [
        (a.label, a.value) for a in advise(beyond, objective=Outscore(card, -1))]
    note = ranking_note(beyond, "versus", **values)
    assert "APPROXIMATION" in note and "loses at most 0.0016" in note
