"""Chapter 3's augmentation lab (yatzy_core/labs/augment.py): the course's own writing stage on the
state (open boxes, capped upper total) passes on every move of every reachable state, a stub is
not written yet, and the usual mistakes (no cap, the bonus paid again, the bonus never paid, the
bonus paid without its points) fail on the move that names them."""
import pytest

from yatzy_core import get_rules
from yatzy_core.labs import check_augmented_writing
from yatzy_core.labs.augment import augmented_moves

from test_labs import stub

BASE = get_rules("yahtzee-no-bonus")
TINY = BASE.with_(name="ones-twos-threes", n_dice=2, upper_bonus_threshold=5, upper_bonus=10,   # chapter 3's
                  yahtzee_box=None, boxes=tuple(b for b in BASE.boxes if b.name in ("ones", "twos", "threes")))
FACE = {"ones": 1, "twos": 2, "threes": 3}


def writer(cap=True, once=True, bonus=10):
    def write(state, box, dice):
        open_boxes, total = state
        points = FACE[box] * dice.count(FACE[box])
        after = min(5, total + points) if cap else total + points
        paid = bonus if (total < 5 <= total + points if once else total + points >= 5) else 0
        return (open_boxes - {box}, after), points + paid
    return write


def test_every_reachable_state_and_move_is_checked():
    moves = augmented_moves(TINY)
    assert len(moves) == 27 and sum(len(row) for row in moves.values()) == 798
    assert moves[(frozenset({"ones"}), 4)][("ones", (1, 1))] == ((frozenset(), 5), 12)


def test_the_check_passes_the_solution():
    assert str(check_augmented_writing(writer(), TINY)) == "write: all 27 checks passed"


@pytest.mark.parametrize("wrong, message", [
    (writer(cap=False), "6 of 27 checks passed; write(({ones} open, upper total 4), 'ones', (1, 1)): "
                        "expected the next state (no box open, upper total 5), got (no box open, upper total 6)"),
    (writer(once=False), "23 of 27 checks passed; write(({ones} open, upper total 5), 'ones', (1, 1)), "
                         "points now: expected 2, got 12"),
    (writer(bonus=0), "8 of 27 checks passed; write(({ones} open, upper total 3), 'ones', (1, 1)), "
                      "points now: expected 12, got 2"),
])
def test_the_check_names_the_first_wrong_move(wrong, message):
    assert str(check_augmented_writing(wrong, TINY)) == "write: " + message


def test_a_stub_a_wrong_shape_and_a_wrong_game_are_named():
    assert "not written yet" in str(check_augmented_writing(stub, TINY))
    assert "write must return ((open boxes, capped upper total), points)" in str(
        check_augmented_writing(lambda state, box, dice: 3, TINY))
    with pytest.raises(ValueError, match="rules must be a small game with an upper bonus"):
        check_augmented_writing(writer(), get_rules("yatzy"))
