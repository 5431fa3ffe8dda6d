"""Rules of thumb: decisions of a list, its exact expected score (against an independent backward
evaluation and the solver), the learned list's exact value, folk-rule vetoes, the coach's hook."""
import numpy as np
import pytest

from yatzy_core.advice.advisor import Advice
from yatzy_core.engine.position import Position
from yatzy_core.game.rules import get_rules
from yatzy_core.engine.solutions import solution_for
from yatzy_core.game.states import StateSpace
from yatzy_core.players.policy_iteration import LookAhead, evaluate_policy
from yatzy_core.players.thumb import DecisionList, View, broken_rule, decide, on_pace
from yatzy_core.players.thumb_catalogue import (box_dump, box_made, box_sum_at_least, box_upper_kind,
                                                catalogue, keep_kind_upper, keep_two_pairs, never_below)
from yatzy_core.players.thumb_exact import (OptimalPolicy, ablation, exact_play, learn, optimal_positions,
                                            look_ahead, own_positions, prune)
from yatzy_core.engine.turn import score_box

BASE = get_rules("yahtzee-no-bonus")


def tiny():
    """Ones, twos, full house and chance; a bonus of 10 at 5 in the upper boxes."""
    keep = [BASE.box_index(n) for n in ("ones", "twos", "full_house", "chance")]
    return BASE.with_(name="tiny-thumb", boxes=tuple(BASE.boxes[b] for b in keep),
                      upper_bonus_threshold=5, upper_bonus=10, yahtzee_box=None)


def backward_value(dl: DecisionList) -> float:
    """The list's expected score by backward recursion over states (no forward pass)."""
    return float(backward_values(dl)[StateSpace(dl.rules).index(0, 0)])


def backward_values(dl: DecisionList) -> np.ndarray:
    """The list's value of every state by backward recursion: a roll with j rerolls left is
    worth the mean of the rolls its chosen keeper leads to."""
    rules = dl.rules
    space, dice = StateSpace(rules), rules.dice
    R = dice.n_rolls
    value = np.zeros(space.size)
    for k in range(rules.n_boxes - 1, -1, -1):
        for state in space.layer(k):
            mask, upper, _ = space.decode(int(state))
            pace = on_pace(rules, np.array([mask]), np.array([[upper]]))[0]
            box = decide(dl, View.of(rules, [mask], pace, np.arange(R), 0))[0][0]
            s = score_box(space, state, np.arange(R), box)
            w = s.points + value[s.next_state]
            for j in range(1, rules.rolls_per_turn):
                keep = decide(dl, View.of(rules, [mask], pace, np.arange(R), j))[0][0]
                w = dice.transition[keep] @ w
            value[state] = dice.transition[0] @ w
    return value


def test_exact_play_of_the_optimal_policy_is_the_solvers_value():
    rules = tiny()
    solution = solution_for(rules, use_cache=False)
    play = exact_play(OptimalPolicy(solution))
    assert play.total == pytest.approx(solution.expected_score, abs=1e-9)
    assert sum(v for k, v in play.box_expectations.items() if k != "total") == pytest.approx(play.total)


def test_exact_play_of_a_list_equals_backward_evaluation():
    rules = tiny()
    dl = DecisionList(rules, (box_made(rules, "full_house"), keep_two_pairs(rules, "full_house"),
                              keep_kind_upper(rules, 2), box_upper_kind(rules, 2),
                              box_dump(rules, "ones", 5)), (never_below(rules, "chance", 15),))
    play = exact_play(dl)
    assert play.total == pytest.approx(backward_value(dl), abs=1e-9)
    assert round(play.total, 6) == round(backward_value(dl), 6)
    empty = DecisionList(rules)
    assert exact_play(empty).total == pytest.approx(backward_value(empty), abs=1e-9)
    assert exact_play(empty).total < play.total < solution_for(rules, use_cache=False).expected_score


def test_look_ahead_improves_a_list_and_keeps_optimal_play():
    """Rollout: one step of look-ahead on the fallback's values V^pi lifts it from 32.9577 to
    59.1886 of the optimal 59.7983; on the solver's values it is optimal play."""
    rules = tiny()
    solution = solution_for(rules, use_cache=False)
    values = backward_values(DecisionList(rules))
    improved = exact_play(look_ahead(rules, values)).total
    assert round(values[StateSpace(rules).index(0, 0)], 4) == 32.9577 and round(improved, 4) == 59.1886
    assert improved < solution.expected_score
    backwards = evaluate_policy(LookAhead(rules, values))[StateSpace(rules).index(0, 0)]   # the same policy,
    assert improved == pytest.approx(backwards, abs=1e-9)                                 # evaluated backwards
    assert exact_play(look_ahead(rules, solution.values)).total == pytest.approx(solution.expected_score, abs=1e-9)


def test_chance_only_fallback_keeps_the_most_common_face():
    only = BASE.with_(name="chance-only", boxes=BASE.boxes[-1:], upper_bonus=0, yahtzee_box=None)
    assert round(exact_play(DecisionList(only)).total, 6) == 18.760681
    assert round(exact_play(OptimalPolicy(solution_for(only, use_cache=False))).total, 6) == round(70 / 3, 6)


def test_decide_first_rule_wins_and_vetoes_forbid():
    rules = BASE
    roll = rules.dice.roll_index[(0, 2, 3, 0, 0, 0)]          # 2 2 3 3 3
    dl = DecisionList(rules, (box_made(rules, "full_house"), box_upper_kind(rules, 3)))
    choice, which = decide(dl, View.of(rules, [0], [True], [roll], 0))
    assert (rules.box_names[choice[0, 0]], which[0, 0]) == ("full_house", 0)
    low = rules.dice.roll_index[(1, 1, 1, 1, 1, 0)]           # 1 2 3 4 5: 15 in chance
    only_chance_and_ones = (1 << rules.n_boxes) - 1 - (1 << rules.box_index("chance")) - 1
    veto = DecisionList(rules, (box_sum_at_least(rules, "chance", 10),), (never_below(rules, "chance", 22),))
    got = decide(veto, View.of(rules, [only_chance_and_ones, only_chance_and_ones | 1], [True, True], [low], 0))[0]
    assert [rules.box_names[b] for b in got[:, 0]] == ["ones", "chance"]   # chance only when nothing else


def test_on_pace_and_bad_rules():
    assert on_pace(BASE, np.array([0b111]), np.array([[17, 18]])).tolist() == [[False, True]]
    with pytest.raises(ValueError, match="policy"):
        exact_play(DecisionList(get_rules("yahtzee")))


def test_broken_rule_names_the_rule_or_none():
    rules = BASE
    dl = DecisionList(rules, (box_made(rules, "full_house"), keep_kind_upper(rules, 3)))
    house = Position.make(rules, dice=(2, 2, 3, 3, 3), rolls_left=0)
    assert str(broken_rule(dl, house, Advice("box", None, "threes", 0.0, 0.0))) == "Score a made full house"
    assert broken_rule(dl, house, Advice("box", None, "full_house", 0.0, 0.0)) is None
    three = Position.make(rules, dice=(1, 4, 4, 4, 6), rolls_left=2)
    assert str(broken_rule(dl, three, Advice("keep", (4, 4), None, 0.0, 0.0))).startswith("Keep 3+ of a face")
    assert broken_rule(dl, three, Advice("keep", (4, 4, 4), None, 0.0, 0.0)) is None
    junk = Position.make(rules, dice=(1, 2, 4, 5, 6), rolls_left=0)
    assert broken_rule(dl, junk, Advice("box", None, "ones", 0.0, 0.0)) is None   # fallback decides


def test_learned_list_exact_score():
    positions = optimal_positions(BASE, games=200, seed=0)
    dl, losses = learn(positions)
    assert len(dl.items) <= 15 and all(a >= b for a, b in zip(losses, losses[1:]))
    memo = {}
    pruned, score = prune(dl, memo)
    assert round(exact_play(dl, memo=memo).total, 4) == 223.7832
    assert round(score, 4) == 224.2562
    assert str(pruned.items[0]) == "Keep 4 or more in a row while a straight is open"
    costs = ablation(pruned, memo)
    assert all(s < score for _, s in costs)   # after pruning, every rule earns its place
    assert round(exact_play(DecisionList(BASE)).total, 4) == 191.8675


def test_a_lists_loss_on_its_own_states_is_its_gap_to_optimal_play():
    """Distribution shift: judged on the states it reaches itself, the fallback's losses add up to
    its exact gap to optimal play (the regret identity, up to the sample of turn starts); judged on
    optimal play's states they do not."""
    rules = tiny()
    dl = DecisionList(rules)
    gap = solution_for(rules, use_cache=False).expected_score - exact_play(dl).total
    own = own_positions(dl, games=1_000, seed=0).loss_of(dl)
    on_optimal = optimal_positions(rules, games=1_000, seed=0).loss_of(dl)
    assert round(gap, 4) == 26.8406
    assert round(own, 4) == 26.9724 and abs(own - gap) < 0.2   # 1,000 seeded games: within their noise
    assert round(on_optimal, 4) == 32.0336                     # optimal play's states overstate it by 5


def test_catalogue_is_readable_and_unique():
    texts = [str(r) for r in catalogue(BASE)]
    assert len(texts) == len(set(texts)) and "Chance when the dice sum to 22 or more" in texts


def test_coach_decision_names_the_broken_rule():
    from yatzy_core.advice.coach import Game
    rules = BASE
    game = Game(rules, dice="22333")
    decision = game.keep("22333")
    dl = DecisionList(rules, (box_made(rules, "full_house"),))
    assert decision.broken_rule(dl) is None
    assert str(game.score("threes", next_dice="11111").broken_rule(dl)) == "Score a made full house"
