"""Chapter 6's forward-pass lab (yatzy_core/labs/forward.py): the course's own push passes on every
turn, in Fractions and in floats, its final distribution's mean is greedy play's value evaluated
backwards (chapter 6b), a stub is reported as not written yet, and common wrong pushes fail on the
state that names their mistake."""
from collections import defaultdict
from fractions import Fraction
from itertools import product

import pytest

from yatzy_core.labs import check_forward_pass
from yatzy_core.labs.forward import greedy_layers
from yatzy_core.players.policy_iteration import evaluate_policy
from yatzy_core.players.strategies import Greedy

from test_labs import LAB, stub     # chapter 5's three-dice lab game, one definition

ORDER = ("sixes", "three_alike", "chance")


def score(box, dice):
    return {"sixes": 6 * dice.count(6), "three_alike": 15 * (len(set(dice)) == 1), "chance": sum(dice)}[box]


def keep_greedy(dice):
    face = max(set(dice), key=lambda f: (dice.count(f), f))
    return (face,) * dice.count(face)


def pusher(rerolls=True, shift=0):
    """The notebook's solution; `rerolls=False` scores the first roll, `shift` adds points."""
    def push(layer):
        after = defaultdict(Fraction)
        for (open_boxes, points), p in layer.items():
            for first in product(range(1, 7), repeat=3):
                kept = keep_greedy(tuple(sorted(first))) if rerolls else tuple(sorted(first))
                for rest in product(range(1, 7), repeat=3 - len(kept)):
                    dice = tuple(sorted(kept + rest))
                    box = max((b for b in ORDER if b in open_boxes), key=lambda b: (score(b, dice), -ORDER.index(b)))
                    after[(open_boxes - {box}, points + score(box, dice) + shift)] += p / 6 ** (6 - len(kept))
        return dict(after)
    return push


def test_the_forward_pass_ends_at_greedy_plays_backward_value():
    final = greedy_layers(LAB)[-1]
    assert sum(final.values()) == 1 and len(final) == 48
    mean = sum(points * p for (_, points), p in final.items())
    assert mean == Fraction(7341184241, 362797056)                 # chapter 6b's V_greedy, exactly
    assert abs(float(mean) - evaluate_policy(Greedy(LAB))[0]) < 1e-12


def test_the_check_passes_the_solution_exact_or_float():
    push = pusher()
    assert str(check_forward_pass(push, LAB)) == "push: all 3 checks passed"
    assert check_forward_pass(lambda layer: {k: float(v) for k, v in push(layer).items()}, LAB).ok


@pytest.mark.parametrize("wrong, message", [
    (pusher(rerolls=False), "0 of 3 checks passed; turn 1, state ({chance, sixes} open, 15 points): "
                            "expected 115/1296, got 5/216"),
    (pusher(shift=1), "0 of 3 checks passed; turn 1, state ({chance, sixes} open, 15 points): "
                      "expected 115/1296, got no entry"),
])
def test_the_check_names_the_first_wrong_state(wrong, message):
    assert str(check_forward_pass(wrong, LAB)) == "push: " + message


def test_a_stub_an_unreachable_entry_and_a_wrong_shape_are_named():
    assert "not written yet" in str(check_forward_pass(stub, LAB))
    push = pusher()

    def extra(layer):
        return {**push(layer), (frozenset(), 999): Fraction(1, 2)}
    assert str(check_forward_pass(extra, LAB)).endswith(
        "turn 1: (frozenset(), 999) has probability 1/2, but greedy play never reaches it")
    assert "push must return a dict" in str(check_forward_pass(lambda layer: 0.5, LAB))
    with pytest.raises(TypeError, match="push must be a function"):
        check_forward_pass(3, LAB)
