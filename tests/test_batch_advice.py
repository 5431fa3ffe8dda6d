"""advise_batch: every option of many positions at once equals `advise`, position by position
(values to 1e-9, the best option under the same tie rule), for built-in rule sets and rule files;
bad input is a ValueError naming the argument."""
import numpy as np
import pytest

from yatzy_core import Position, advise, advise_batch, get_rules, option_labels
from yatzy_core.engine.batch_advice import option_count, option_index, position_arrays
from yatzy_core.engine.position import upper_totals
from yatzy_core.engine.solutions import solution_for
from yatzy_core.engine.solver import solve
from yatzy_core.engine.turn import TIE
from yatzy_core.game.dice import counts_of
from yatzy_core.game.rulefile import loads

TWO_DICE = loads(   # 2 dice, 4 rolls a turn (3 reroll stages), a Yahtzee box with its bonus
    'name = "two-dice"\nn_dice = 2\nrolls_per_turn = 4\nupper_bonus = 4\nupper_bonus_threshold = 5\n'
    'yahtzee_box = "doubles"\nyahtzee_bonus = 10\n'
    '[[boxes]]\nname = "twos"\nscorer = "upper"\nface = 2\n'
    '[[boxes]]\nname = "doubles"\nscorer = "all_same"\npoints = 8\n'
    '[[boxes]]\nname = "sixes"\nscorer = "upper"\nface = 6\n'
    '[[boxes]]\nname = "straight"\nscorer = "straight"\nfaces = [3, 4]\npoints = 7\n')
THREE_BOXES = loads(   # 3 dice of 4 faces, forced order
    'name = "three-boxes"\nn_dice = 3\nfaces = 4\nupper_bonus = 0\nforced_order = true\n'
    '[[boxes]]\nname = "fours"\nscorer = "upper"\nface = 4\n'
    '[[boxes]]\nname = "pair"\nscorer = "pairs"\ncount = 1\n'
    '[[boxes]]\nname = "chance"\nscorer = "chance"\n')


def random_position(rules, rng) -> Position:
    """A legal position: used boxes, an upper total they can hold, the flag, dice, rerolls left."""
    while True:
        used = [b for b in rules.box_names if rng.random() < rng.random()]
        if len(used) < rules.n_boxes:
            break
    if rules.forced_order:
        used = rules.box_names[:len(used)]
    upper = int(rng.choice(sorted(upper_totals(rules, used))))
    flag = bool(rules.tracks_yahtzee_bonus and rules.yahtzee_box in used and rng.random() < 0.5)
    dice = sorted(int(d) for d in rng.integers(1, rules.faces + 1, rules.n_dice))
    if rng.random() < 0.2:   # n of a kind: the joker rule and the Yahtzee bonus
        dice = [dice[0]] * rules.n_dice
    return Position.make(rules, used=used, upper_total=upper, dice=dice,
                         rolls_left=int(rng.integers(0, rules.rolls_per_turn)), yahtzee_bonus=flag)


def option_of(rules, advice) -> int:
    return option_index(rules, advice.action, advice.keep, advice.box)


@pytest.mark.parametrize("rules, n", [(get_rules("yahtzee"), 2000), (get_rules("yatzy"), 1500),
                                      (TWO_DICE, 1500), (THREE_BOXES, 300)],
                         ids=["yahtzee", "yatzy", "two-dice", "three-boxes"])
def test_equals_advise_position_by_position(rules, n):
    solution = solution_for(rules) if rules.name in ("yahtzee", "yatzy") else solve(rules, progress=False)
    rng = np.random.default_rng(40)
    positions = [random_position(rules, rng) for _ in range(n)]
    choice = rng.integers(0, rules.n_boxes, n)   # a box each: legal where allowed, else swapped below
    batch = advise_batch(rules, **position_arrays(positions), solution=solution)
    assert batch.values.shape == (n, option_count(rules))
    choice = np.where(batch.legal[np.arange(n), choice], choice, batch.best)
    regret = advise_batch(rules, **position_arrays(positions), solution=solution, choice=choice).regret
    for i, p in enumerate(positions):
        ranked = advise(p, solution)
        want = np.full(option_count(rules), -np.inf)
        for a in ranked:
            want[option_of(rules, a)] = a.value
        assert np.array_equal(np.isfinite(batch.values[i]), np.isfinite(want)), (i, str(p))
        legal = np.isfinite(want)
        assert np.abs(batch.values[i, legal] - want[legal]).max() <= 1e-9, (i, str(p))
        best = option_of(rules, ranked[0])
        assert batch.best[i] == best or abs(batch.values[i, batch.best[i]] - want[best]) <= TIE, (i, str(p))
        assert batch.value[i] == pytest.approx(ranked[0].value, abs=1e-9)
        loss = {option_of(rules, a): a.loss for a in ranked}[int(choice[i])]
        assert regret[i] == pytest.approx(loss, abs=1e-9)


def test_tie_rule_and_labels():
    """A keeper tie (85/18 both, module docstring of turn.py) goes to the keeper with more dice;
    labels name the fixed index."""
    rules = get_rules("yahtzee-no-bonus")
    used = (1 << rules.n_boxes) - 1 - (1 << rules.box_index("three_of_a_kind"))
    b = advise_batch(rules, counts=[list(counts_of((1, 1, 2, 3, 6)))], used=[used], upper_total=[63],
                     yahtzee_bonus=[0], rolls_left=[1])
    labels = option_labels(rules)
    tied = [labels[i] for i in np.flatnonzero(b.values[0] >= b.value[0] - TIE)]
    assert sorted(tied) == ["keep 1 1", "keep 6"] and labels[b.best[0]] == "keep 1 1"
    assert b.value[0] == pytest.approx(85 / 18, abs=1e-12)
    assert b.regret is None


def test_best_follows_the_tie_rule_not_the_rounding():
    """Within TIE the order decides: a box before a keeper, boxes in card order, then keepers
    with more dice first (what `advise` ranks first), whichever is larger by rounding."""
    from yatzy_core.engine.batch_advice import _best
    rules = get_rules("yahtzee")
    labels = option_labels(rules)
    at = {label: i for i, label in enumerate(labels)}
    values = np.full((3, option_count(rules)), -np.inf)
    values[0, [at["score chance"], at["score ones"], at["keep 1"]]] = [20.0, 20.0 - 3e-10, 20.0 + 5e-10]
    values[1, [at["keep 6"], at["keep 1 1"], at["reroll all"]]] = [7.0 + 5e-10, 7.0, 7.0 + 9e-10]
    values[2, [at["keep 6"], at["keep 1 1"], at["score chance"]]] = [7.0 + 2e-9, 7.0, 3.0]
    assert [labels[i] for i in _best(rules, values)] == ["score ones", "keep 1 1", "keep 6"]


def test_saved_rolls_refused():
    with pytest.raises(ValueError, match="save rolls"):
        advise_batch("maxi-yatzy", counts=[[6, 0, 0, 0, 0, 0]], used=[0], upper_total=[0],
                     yahtzee_bonus=[0], rolls_left=[2])


GOOD = dict(counts=[[4, 1, 0, 0, 0, 0]], used=[0], upper_total=[0], yahtzee_bonus=[0], rolls_left=[2])


@pytest.mark.parametrize("change, name", [
    ({"counts": [[4, 0, 0, 0, 0, 0]]}, "counts"), ({"counts": [[4, 1, 0, 0, 0]]}, "counts"),
    ({"counts": [[6, -1, 0, 0, 0, 0]]}, "counts"), ({"counts": [4, 1, 0, 0, 0, 0]}, "counts"),
    ({"counts": [[2 ** 62] * 4 + [5, 0]]}, "counts"),    # adds up to 5 only by wrapping round 2**64
    ({"counts": [[]]}, "counts"),
    ({"used": [(1 << 13) - 1]}, "used"), ({"used": [-1]}, "used"), ({"used": [0.5]}, "used"),
    ({"used": [0, 0]}, "used"), ({"upper_total": [4]}, "upper_total"),
    ({"upper_total": [-3]}, "upper_total"), ({"yahtzee_bonus": [1]}, "yahtzee_bonus"),
    ({"yahtzee_bonus": [2]}, "yahtzee_bonus"), ({"rolls_left": [3]}, "rolls_left"),
    ({"rolls_left": ["2"]}, "rolls_left"), ({"choice": [19]}, "choice"), ({"choice": [500]}, "choice"),
    ({"choice": [0, 1]}, "choice")])
def test_bad_input_names_the_argument(change, name):
    rules = get_rules("yahtzee")
    with pytest.raises(ValueError, match=f"^{name}"):
        advise_batch(rules, **{**GOOD, **change}, solution=solution_for(rules))


@pytest.mark.parametrize("upper", [64, 500, 2 ** 63 - 1, 106])
def test_an_upper_total_the_boxes_cannot_hold_is_refused_by_positions_rule(upper):
    """Every upper box used: the total is at most 5 * (1 + ... + 6) = 105; 64 can be made, the
    others cannot, and advise_batch answers as Position.make does (it answered 500 as 63+)."""
    rules = get_rules("yahtzee")
    uppers = sum(1 << b for b, box in enumerate(rules.boxes) if box.is_upper)
    names = [b.name for b in rules.boxes if b.is_upper]
    makeable = upper in upper_totals(rules, names)
    arrays = {**GOOD, "used": [uppers], "upper_total": [upper]}
    if makeable:
        assert advise_batch(rules, **arrays, solution=solution_for(rules)).value.shape == (1,)
        Position.make(rules, used=names, upper_total=upper, dice="11112")
        return
    with pytest.raises(ValueError, match="upper_total: position 0: the used upper boxes cannot make this upper total"):
        advise_batch(rules, **arrays, solution=solution_for(rules))
    with pytest.raises(ValueError, match=f"upper total {upper} cannot be made"):
        Position.make(rules, used=names, upper_total=upper, dice="11112")


def test_lists_behave_as_the_arrays_they_stand_for():
    rules = get_rules("yahtzee")
    empty = advise_batch(rules, counts=[], used=[], upper_total=[], yahtzee_bonus=[], rolls_left=[], choice=[],
                         solution=solution_for(rules))
    assert empty.values.shape == (0, option_count(rules)) and empty.best.shape == (0,) and empty.regret.shape == (0,)
    typed = advise_batch(rules, counts=np.zeros((0, 6), dtype=int), used=np.zeros(0, dtype=int),
                         upper_total=np.zeros(0, dtype=int), yahtzee_bonus=np.zeros(0, dtype=int),
                         rolls_left=np.zeros(0, dtype=int), solution=solution_for(rules))
    assert typed.values.shape == empty.values.shape


def test_every_choice_is_checked_before_any_work(monkeypatch):
    """One illegal choice among many is named by its row before the table is read or the keepers
    are valued."""
    import yatzy_core.engine.batch_advice as batch
    rules = get_rules("yahtzee")
    n = 4096
    arrays = {"counts": [[4, 1, 0, 0, 0, 0]] * n, "used": [1] * n, "upper_total": [3] * n,
              "yahtzee_bonus": [0] * n, "rolls_left": [2] * n}
    choice = np.full(n, option_index(rules, "keep", keep=(1, 1, 1, 1)))
    choice[3000] = option_index(rules, "box", box="ones")                     # used already
    choice[3500] = option_index(rules, "keep", keep=(6,))                     # not in the dice

    def no_work(*args, **kwargs):
        raise AssertionError("the table was asked for before the choices were checked")
    monkeypatch.setattr(batch, "solution_for", no_work)
    with pytest.raises(ValueError, match=r"^choice: position 3000: option 0 \(score ones\) is not legal there"):
        advise_batch(rules, **arrays, choice=choice)
    choice[3000] = 0 + 1
    with pytest.raises(ValueError, match=r"^choice: position 3500: option \d+ \(keep 6\) is not legal there"):
        advise_batch(rules, **arrays, choice=choice)
    arrays["rolls_left"] = [0] * n
    with pytest.raises(ValueError, match=r"^choice: position 0: option \d+ \(keep 1 1 1 1\) is not legal"):
        advise_batch(rules, **arrays, choice=choice)


@pytest.mark.parametrize("n", [-1, 2.5, "3"])
def test_random_positions_checks_its_arguments(n):
    from yatzy_core.engine.batch_advice import random_positions
    with pytest.raises(ValueError, match=f"^n must be a whole number >= 0, got {n!r}$"):
        random_positions(get_rules("yahtzee"), n, np.random.default_rng(0))
    with pytest.raises(TypeError, match="rng must be a numpy Generator"):
        random_positions(get_rules("yahtzee"), 3, 0)


def test_a_capped_upper_total_the_boxes_reach_is_accepted():
    """The tables store an upper total at or past the threshold as the cap (63): sixes, fives
    and threes cannot make exactly 63, yet reach it, so 63 is their stored total (random
    positions and the Gymnasium environment give it); 500 stays refused."""
    from yatzy_core.engine.batch_advice import _makeable
    rules = get_rules("yahtzee")
    used = sum(1 << rules.box_index(n) for n in ("sixes", "fives", "threes"))
    makes = {6 * a + 5 * b + 3 * c for a in range(6) for b in range(6) for c in range(6)}
    assert 63 not in makes and 66 not in makes and 62 in makes and max(makes) == 70
    ok = _makeable(rules, np.array([used] * 4), np.array([63, 62, 500, 66]))
    assert ok.tolist() == [True, True, False, False]      # 66 uncapped cannot be made: refused


def test_random_positions_of_the_real_games_are_advised():
    """Seeded random positions (capped totals included) pass advise_batch's checks: 400 yahtzee rows."""
    from numpy.random import default_rng
    from yatzy_core.engine.batch_advice import random_positions
    rules = get_rules("yahtzee")
    rows = random_positions(rules, 400, default_rng(0))
    advice = advise_batch(rules, **rows)
    assert len(advice.best) == 400


def test_a_small_batch_says_its_kernel_s_compilation_once(capsys, monkeypatch):
    """A small batch runs the serial kernel: the parallel one, never compiled by it, must not be
    announced as compiling at every call (a chapter's loop printed the line 7,246 times)."""
    from types import SimpleNamespace
    from yatzy_core.engine.compiled import option_kernel
    monkeypatch.setattr(option_kernel, "_groups", SimpleNamespace(signatures=[], _cache=SimpleNamespace(
        _cache_file=SimpleNamespace(_index_path="/nonexistent/option_kernel.nbi"))))   # never compiled
    rules = get_rules("yahtzee-no-bonus")
    used = (1 << rules.n_boxes) - 1 - (1 << rules.box_index("three_of_a_kind"))
    for _ in range(2):
        b = advise_batch(rules, counts=[list(counts_of((1, 1, 2, 3, 6)))], used=[used], upper_total=[63],
                         yahtzee_bonus=[0], rolls_left=[1])
        assert b.value[0] == pytest.approx(85 / 18, abs=1e-12)
    capsys.readouterr()                                 # the first call may compile the serial kernel
    advise_batch(rules, counts=[list(counts_of((1, 1, 2, 3, 6)))], used=[used], upper_total=[63],
                 yahtzee_bonus=[0], rolls_left=[1])
    assert "compiling" not in capsys.readouterr().err
