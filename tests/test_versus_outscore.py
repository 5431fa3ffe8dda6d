"""The outscore approximation (objectives/outscore.py): its table against an independent brute
force in Fractions, the compiled path against the numpy reference, the objective in the registry."""
import re
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest

from yatzy_core.engine.bruteforce import _enumerated, moves, turn_start
from yatzy_core.engine.position import Position
from yatzy_core.game.states import StateSpace
from yatzy_core.objectives.opponent_card import OpponentCard
from yatzy_core.objectives.outscore import Outscore, beat_chances, opponent_final, outscore_table
from yatzy_core.objectives.registry import objective_for

from test_two_player import GAMES


def brute_force_outscore(rules, final, lead):
    """max P(own points to come + lead > G) + 1/2 P(=) from the empty card, G ~ `final` (Fractions)."""
    n, faces, full, rolls, choices, scores = _enumerated(rules)
    final = [Fraction(p).limit_denominator(10 ** 9) for p in final]

    def ended(c):            # c: own points minus the opponent's so far, own card full
        return sum(p * (1 if c > g else Fraction(1, 2) if c == g else 0) for g, p in enumerate(final))

    @lru_cache(maxsize=None)
    def value(state, c):
        if state[0] == full:
            return ended(c)
        scored = {dice: max(value(after, c + points) for points, after in moves(rules, dice, scores[dice], state))
                  for dice in rolls}
        return turn_start(rules, scored, choices, faces, n)

    return value((0, 0, 0), lead)


@pytest.mark.parametrize("name", ["chance-2rolls", "upper-bonus", "forced", "pair-or-chance"])
def test_the_table_equals_a_brute_force(name):
    rules = GAMES[name]
    space = StateSpace(rules)
    opponent = OpponentCard(frozenset(rules.box_names[:1]), upper_total=0)     # one box filled with a zero
    final = opponent_final(rules, opponent.state(space))
    table = outscore_table(rules, opponent, lead=-6, compiled=False)
    for lead in (-6, -1, 0, 3):
        exact = brute_force_outscore(rules, final, lead)
        assert table.value(0, lead=lead) == pytest.approx(float(exact), abs=1e-9), lead


@pytest.mark.parametrize("name", ["upper-bonus", "forced", "three-dice"])
def test_the_compiled_table_equals_the_numpy_reference(name):
    rules = GAMES[name]
    compiled = outscore_table(rules, OpponentCard(), compiled=True)
    reference = outscore_table(rules, OpponentCard(), compiled=False)
    reached = np.flatnonzero(StateSpace(rules).reachable)
    assert np.abs(compiled.values[reached] - reference.values[reached]).max() < 1e-12


def test_the_full_cards_lanes_are_the_opponents_cdf():
    # G = 0, 1 or 2 with chances 1/4, 1/2, 1/4: lane n = 3 - c, c the final lead
    chances = beat_chances(np.array([0.25, 0.5, 0.25]), 6)
    # c = 3, 2, 1, 0, -1, -2: sure; 3/4 + 1/8; 1/4 + 1/4; 1/8; 0; 0
    assert chances.tolist() == [1.0, 0.875, 0.5, 0.125, 0.0, 0.0]


def test_the_objective_is_registered_and_advises():
    rules = GAMES["pair-or-chance"]
    objective = objective_for("outscore", opponent=OpponentCard.parse("used=pair"), lead=-2)
    assert objective == Outscore(OpponentCard(frozenset({"pair"})), -2)
    assert "APPROXIMATION" in objective.aim()
    from yatzy_core import advise
    ranked = advise(Position.make(rules, used="pair", dice="16", rolls_left=1), objective=objective)
    # chance only, 2 behind the opponent's chance of two dice: keep the 6, reroll the 1
    assert ranked[0].label == "keep 6"



@pytest.mark.parametrize("lead, value", [(10**30, 1.0), (2**63, 1.0), (-10**30, 0.0), (-2**63, 0.0)])
def test_a_lead_past_either_end_is_a_sure_win_or_loss(lead, value):
    # pair-or-chance, chance open, the opponent with chance open (at most 12 more): a lead of 10**30
    # overflowed numpy and 2**63 was called "further behind than this table answers"
    rules = GAMES["pair-or-chance"]
    position = Position.make(rules, used="pair", dice="16", rolls_left=1)
    from yatzy_core import advise
    ranked = advise(position, objective=Outscore(OpponentCard.parse("used=pair"), lead))
    assert [advice.value for advice in ranked] == [value] * len(ranked)
    assert ranked[0].label == "keep 6"          # the mean orders choices of equal value


@pytest.mark.parametrize("text, message", [
    ("used=ones;upper=x", "upper total must be a whole number, got 'x'"),
    ("ones,twos upper=5 yahtzee50", "unknown card field 'ones,twos upper=5 yahtzee50'"),
    ("used=ones;yahtzee50", "unknown card field 'yahtzee50'"),
    ("open=chance;open=ones", "opponent's card: open= given twice"),
    ("used=ones;upper=3; Upper=4", "opponent's card: upper= given twice"),
    ("yahtzee-bonus;used=yahtzee;yahtzee-bonus", "opponent's card: yahtzee-bonus given twice")])
def test_a_malformed_card_is_refused_by_name(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        OpponentCard.parse(text)


def test_a_card_foreign_to_the_rules_is_refused():
    rules = GAMES["pair-or-chance"]
    with pytest.raises(ValueError, match="opponent's card: upper total 3"):
        OpponentCard(frozenset({"pair"}), upper_total=3).check(rules)
    with pytest.raises(ValueError, match="opponent's card: .*sixes"):
        OpponentCard(frozenset({"sixes"})).check(rules)
    with pytest.raises(ValueError, match="not the string"):
        OpponentCard("pair")
    forced = rules.with_(forced_order=True)                  # pair, then chance
    with pytest.raises(ValueError, match="^opponent's card: these rules fill the boxes in card order$"):
        Outscore(OpponentCard(frozenset({"chance"})), 0).check(forced)
    Outscore(OpponentCard(frozenset({"pair"})), 0).check(forced)


def test_both_objectives_take_one_lead_range_and_wording():
    from yatzy_core.objectives.versus_objective import Versus
    versus, outscore = Versus.parameters[1], Outscore.parameters[1]
    assert (versus.flag, outscore.flag) == ("--lead", "--outscore-lead")
    assert (versus.low, versus.high) == (outscore.low, outscore.high) == (-2000, 2000)
    assert versus.missing.replace("--lead", "FLAG") == outscore.missing.replace("--outscore-lead", "FLAG")
    assert versus.help.replace("--versus", "CARD") == outscore.help.replace("--outscore", "CARD")


def test_both_objectives_take_the_one_card_type():
    from yatzy_core.objectives import opponent_card, outscore, versus_objective
    assert versus_objective.OpponentCard is outscore.OpponentCard is opponent_card.OpponentCard
    assert not hasattr(versus_objective, "_card")


def brute_force_approximation_value(rules):
    """The first player's P(win) + 1/2 P(tie) when it plays the approximation (its choices by
    `brute_force_outscore`'s values against the waiter's max-mean distribution; ties: the most dice
    kept, the first box) and the second replies exactly: whole game trees, in Fractions."""
    from yatzy_core.engine.solutions import solution_for
    n, faces, full, rolls, choices, scores = _enumerated(rules)
    space, solution = StateSpace(rules), solution_for(rules, None, use_cache=False, progress=False)
    near = Fraction(1, 10 ** 9)

    @lru_cache(maxsize=None)
    def approximation(waiter):
        mask, up, flag = waiter
        upper = min(up, rules.upper_cap) if rules.tracks_upper else 0
        final = [Fraction(p).limit_denominator(10 ** 9)
                 for p in opponent_final(rules, int(space.index(mask, upper, flag)), solution)]

        @lru_cache(maxsize=None)
        def value(state, c):
            if state[0] == full:
                return sum(p * (1 if c > g else Fraction(1, 2) if c == g else 0) for g, p in enumerate(final))
            scored = {dice: max(value(after, c + pts) for pts, after in moves(rules, dice, scores[dice], state))
                      for dice in rolls}
            return turn_start(rules, scored, choices, faces, n)
        return value

    def ended(waiter, after, lead, reply):
        if after[0] == full and waiter[0] == full:
            return Fraction(1) if lead > 0 else Fraction(1, 2) if lead == 0 else Fraction(0)
        return 1 - reply(waiter, after, -lead)

    def chosen(options):          # (approximation, value, dice kept): the best, ties as the engine
        best = max(a for a, _, _ in options)
        tied = [o for o in options if best - o[0] <= near]
        most = max(k for _, _, k in tied)
        values = {v for _, v, k in tied if k == most}
        assert len(values) == 1, "an ambiguous tie: choose another game"
        return best, values.pop()

    @lru_cache(maxsize=None)
    def first(mover, waiter, lead):
        approx = approximation(waiter)
        stage = {}
        for dice in rolls:
            opts = [(approx(after, lead + p), ended(waiter, after, lead + p, second))
                    for p, after in moves(rules, dice, scores[dice], mover)]       # in box order
            best = max(a for a, _ in opts)
            stage[dice] = next(o for o in opts if best - o[0] <= near)           # ties: the first box
        for _ in range(rules.rolls_per_turn - 1):
            stage = {dice: chosen([(*stage[dice], n)] + [
                (sum(stage[d][0] for d in out) / len(out), sum(stage[d][1] for d in out) / len(out), n - k)
                for k, out in choices[dice]]) for dice in rolls}
        return sum(v for _, v in stage.values()) / len(rolls)

    @lru_cache(maxsize=None)
    def second(mover, waiter, lead):
        scored = {dice: max(ended(waiter, after, lead + p, first) for p, after in moves(rules, dice, scores[dice], mover))
                  for dice in rolls}
        return turn_start(rules, scored, choices, faces, n)

    return first((0, 0, 0), (0, 0, 0), 0)


@pytest.mark.parametrize("name", ["chance-2rolls", "pair-or-chance"])   # also upper-bonus, forced: 14-29 s
def test_the_loss_evaluation_equals_a_brute_force(name):
    from yatzy_core.engine.bruteforce import brute_force_versus
    from yatzy_core.objectives.outscore_loss import outscore_loss
    rules = GAMES[name]
    measured = outscore_loss(rules, "first", ties="engine")      # the brute force's tie rule
    assert measured.approximate == pytest.approx(float(brute_force_approximation_value(rules)), abs=1e-9)
    assert measured.exact == pytest.approx(float(brute_force_versus(rules)), abs=1e-12)
    assert measured.loss >= -1e-12


def test_the_advice_says_the_measured_loss():
    import json
    from pathlib import Path
    from yatzy_core.objectives.outscore import MEASURED_LOSS
    readings = json.loads((Path(__file__).parents[1] / "results" / "outscore_loss.json").read_text())["readings"]
    five = [r["loss"] for key, r in readings.items() if "(5 boxes)" in key]
    assert len(five) >= 4 and f"at most {max(five):.4f} of P(win)" in MEASURED_LOSS


def test_no_whole_game_pass_or_outlook_is_promised(tmp_path):
    from test_dataset_export import call
    status, out, err = call("distribution", "--rules", "yahtzee", "--outscore", "used=ones", "--outscore-lead", "0")
    assert (status, out) == (2, "") and "objective outscore: its table depends on the opponent" in err
