"""Exact box expectations and score distributions of optimal play (turn_forward.py, distribution.py).

The full forward pass runs once, on yahtzee-no-bonus (the rule set with a published per-box
table); rules with Yahtzee bonuses and jokers are checked on small games built from the same
boxes, which solve in about a second.
"""
import numpy as np
import pytest

from yatzy_core.objectives.distribution import (CacheError, ScoreDistribution, forward, kind_box, ks_test,
                                                load_play, optimal_play, save_play)
from yatzy_core.engine.turn_forward import second_moments, turn_outcomes
from yatzy_core.game.rules import get_rules
from yatzy_core.players.simulation import simulate
from yatzy_core.engine.solver import solve
from yatzy_core.players.strategies import Optimal
from yatzy_core.engine.turn import TIE, box_values, evaluate, keeper_values, preferred_keeper

# the published per-box table of optimal play, Yahtzee without Yahtzee bonus or joker
PUBLISHED_NO_BONUS = {
    "ones": 1.82, "twos": 5.25, "threes": 8.57, "fours": 12.19, "fives": 15.74, "sixes": 19.29,
    "upper_bonus": 24.14, "three_of_a_kind": 22.23, "four_of_a_kind": 13.04, "full_house": 22.86,
    "small_straight": 29.53, "large_straight": 33.04, "yahtzee": 15.89, "chance": 22.26,
    "total": 245.87,
}


def small(base, name, keep, **changes):
    """A small game: some boxes of a built-in rule set, with a lower upper-bonus threshold."""
    rules = get_rules(base)
    boxes = tuple(b for b in rules.boxes if b.name in keep)
    return rules.with_(name=name, boxes=boxes, **changes)


SMALL = {
    "forced": small("yahtzee", "small-forced", ("ones", "twos", "threes", "full_house", "yahtzee",
                                                "chance"), upper_bonus_threshold=12),
    "free": small("yahtzee-verhoeff", "small-free", ("ones", "fours", "small_straight", "yahtzee",
                                                     "chance"), upper_bonus_threshold=8),
    "yatzy": small("yatzy", "small-yatzy", ("ones", "twos", "one_pair", "full_house", "yatzy"),
                   upper_bonus_threshold=6),
}


@pytest.fixture(scope="module")
def no_bonus(solutions):
    """The whole forward pass for yahtzee-no-bonus, computed here (never read from a cache)."""
    return forward(solutions("yahtzee-no-bonus"), distribution=True)


@pytest.fixture(scope="module")
def small_games():
    """(solution, forward results) of each small game."""
    out = {}
    for key, rules in SMALL.items():
        solution = solve(rules, progress=False)
        out[key] = solution, forward(solution)
    return out


# ---- the turn, run forwards --------------------------------------------------------------------

@pytest.mark.parametrize("name", ["yahtzee", "yahtzee-verhoeff", "yatzy"])
def test_turn_outcomes_reproduce_state_values(solutions, name):
    """Sum over final rolls of P * (points + value of the next state) is the solver's value."""
    solution = solutions(name)
    space = solution.space
    rng = np.random.default_rng(3)
    states = np.concatenate([rng.choice(space.layer(k), 150) for k in (1, 6, 11, 12)])
    o = turn_outcomes(space, solution.values, states)
    assert np.allclose(o.prob.sum(axis=0), 1, atol=1e-12)
    expected = (o.prob * (o.points + solution.values[o.next_state])).sum(axis=0)
    assert np.allclose(expected, solution.values[states], atol=1e-9)
    rules = solution.rules
    rolls = np.arange(rules.dice.n_rolls)[:, None]
    normal, joker = rules.score_table[rolls, o.box], rules.joker_table[rolls, o.box]
    assert ((o.box_points == normal) | (o.box_points == joker)).all()


def test_real_tie_is_broken_by_keeping_more_dice(solutions):
    """Last turn, only 3 of a kind open, 1 1 2 3 6 with one reroll left: keeping 6 and keeping
    1 1 are worth the same (85/18) and lead to different spreads; the rule keeps more dice."""
    solution = solutions("yahtzee-no-bonus")
    space, rules = solution.space, solution.rules
    dice = rules.dice
    full = (1 << rules.n_boxes) - 1
    state = np.array([space.index(full & ~(1 << rules.box_index("three_of_a_kind")), 0, 0)])
    turn = evaluate(space, box_values(space, solution.values, state))
    keep, one_left = turn.keepers[0], turn.keep[0]
    assert np.array_equal(keep, keeper_values(space, turn.final.max(axis=0)))
    six, ones = dice.keeper_index[(0, 0, 0, 0, 0, 1)], dice.keeper_index[(2, 0, 0, 0, 0, 0)]
    assert keep[six, 0] == pytest.approx(85 / 18, abs=1e-12)
    assert keep[ones, 0] == pytest.approx(85 / 18, abs=1e-12)
    roll = dice.roll_index[(2, 1, 1, 0, 0, 1)]
    assert one_left[roll, 0] == ones


def test_preferred_keeper_takes_the_biggest_within_tie(solutions):
    space = solutions("yahtzee-no-bonus").space
    dice = space.rules.dice
    keep = np.zeros((dice.n_keepers, 1))                  # every keeper equally good ...
    roll = dice.roll_index[(1, 1, 1, 1, 1, 0)]
    best = np.zeros((dice.n_rolls, 1))
    assert preferred_keeper(space, keep, best)[roll, 0] == dice.roll_offset + roll  # ... keep all
    pair = dice.keeper_index[(0, 2, 0, 0, 0, 0)]
    keep[pair] = 1.0                                      # a pair of twos is best by more than TIE
    best[:] = 1.0
    twos = dice.roll_index[(0, 2, 0, 1, 1, 1)]
    assert preferred_keeper(space, keep, best)[twos, 0] == pair
    keep[dice.roll_offset + twos] = 1.0 - TIE / 2         # keeping all, within TIE: preferred
    assert preferred_keeper(space, keep, best)[twos, 0] == dice.roll_offset + twos


# ---- box expectations --------------------------------------------------------------------------

def test_published_per_box_table(no_bonus):
    computed = {k: round(v, 2) for k, v in no_bonus.box_expectations.items() if k in PUBLISHED_NO_BONUS}
    assert computed == PUBLISHED_NO_BONUS
    assert no_bonus.box_expectations["yahtzee_bonus"] == 0


def test_boxes_add_up_to_the_solver_value(no_bonus, small_games, solutions):
    results = [(solutions("yahtzee-no-bonus"), no_bonus)] + list(small_games.values())
    for solution, play in results:
        e = play.box_expectations
        parts = sum(v for k, v in e.items() if k != "total")
        assert parts == pytest.approx(e["total"], abs=1e-9)
        assert e["total"] == pytest.approx(solution.expected_score, abs=1e-9)


def test_bonus_probabilities(no_bonus, small_games):
    for solution, play in [(None, no_bonus)] + list(small_games.values()):
        rules = get_rules("yahtzee-no-bonus") if solution is None else solution.rules
        p = play.bonus_probabilities
        assert 0 < p["upper_bonus"] < 1 and 0 < p["n_of_a_kind"] < 1
        assert play.box_expectations["upper_bonus"] == pytest.approx(rules.upper_bonus * p["upper_bonus"])
        assert play.box_expectations[rules.box_names[kind_box(rules)]] == pytest.approx(50 * p["n_of_a_kind"])


def test_every_layer_holds_all_the_probability(no_bonus, solutions):
    space = solutions("yahtzee-no-bonus").space
    prob = no_bonus.state_probabilities
    for k in range(space.n_boxes + 1):
        assert prob[space.layer(k)].sum() == pytest.approx(1, abs=1e-12)
    assert prob[~space.reachable].sum() == 0
    assert no_bonus.stats["states_visited"] == (prob[space.reachable] > 0).sum() - (prob[space.layer(13)] > 0).sum()


def test_kind_box():
    assert get_rules("yatzy").box_names[kind_box(get_rules("yatzy"))] == "yatzy"
    assert kind_box(get_rules("yahtzee-no-bonus")) == get_rules("yahtzee-no-bonus").box_index("yahtzee")


# ---- the score distribution --------------------------------------------------------------------

def test_distribution_moments(no_bonus, small_games, solutions):
    d = no_bonus.distribution
    assert d.probabilities.sum() == pytest.approx(1, abs=1e-12)
    assert d.mean == pytest.approx(solutions("yahtzee-no-bonus").expected_score, abs=1e-6)
    assert d.std == pytest.approx(solutions("yahtzee-no-bonus").std, abs=1e-6)  # same tie rule
    for solution, play in small_games.values():
        d = play.distribution
        assert d.probabilities.sum() == pytest.approx(1, abs=1e-12)
        assert d.mean == pytest.approx(solution.expected_score, abs=1e-9)
        start, mean = solution.space.index(0, 0, 0), solution.expected_score
        # the same policy run backwards: the variance two ways
        second = second_moments(solution)[start]
        assert d.std == pytest.approx(np.sqrt(second - mean ** 2), abs=1e-9)
        assert d.std == pytest.approx(solution.std, abs=1e-9)  # the solver's own recursion


def test_spread_depends_on_ties_within_bounds(small_games):
    """Exact ties between choices with different spreads are real (see turn_forward.py), so the
    standard deviation of "optimal play" is a range; the tie rule's and the solver's lie in it."""
    widths = []
    for solution, play in small_games.values():
        start, mean = solution.space.index(0, 0, 0), solution.expected_score
        low, high = (np.sqrt(second_moments(solution, ties)[start] - mean ** 2) for ties in ("min", "max"))
        assert low - 1e-9 <= play.distribution.std <= high + 1e-9
        assert low - 1e-9 <= solution.std <= high + 1e-9
        widths.append(high - low)
    assert max(widths) > 1e-6  # the small games do have ties that matter


def test_quantiles_and_tails(no_bonus):
    d = no_bonus.distribution
    quartiles = [d.quantile(q) for q in (0.25, 0.5, 0.75)]
    assert quartiles == sorted(quartiles) and quartiles[0] < d.mean < quartiles[2]
    cdf = d.cdf()
    for q, x in zip((0.25, 0.5, 0.75), quartiles):
        assert cdf[x] >= q > cdf[x - 1]
    assert d.p_at_least(0) == pytest.approx(1)
    assert d.p_at_least(200) > d.p_at_least(250) > d.p_at_least(300) > 0
    assert d.p_at_least(250) == pytest.approx(1 - cdf[249])
    assert d.quantile(1) == d.max_score == len(d.probabilities) - 1
    with pytest.raises(ValueError, match="between 0 and 1"):
        d.quantile(1.5)


def test_distribution_matches_simulated_games(no_bonus, solutions):
    frame = simulate("yahtzee-no-bonus", "optimal", games=20_000, seed=2024, progress=False)
    distance, p = ks_test(no_bonus.distribution.probabilities, frame["total"].to_numpy())
    assert p > 1e-3, (distance, p)


@pytest.mark.parametrize("key", SMALL)
def test_small_games_match_simulation(small_games, key):
    solution, play = small_games[key]
    frame = simulate(solution.rules, Optimal(solution.rules, solution=solution), games=20_000,
                     seed=7, progress=False)
    distance, p = ks_test(play.distribution.probabilities, frame["total"].to_numpy())
    assert p > 1e-3, (distance, p)
    for box, mean in play.box_expectations.items():
        column = frame[box]
        assert abs(column.mean() - mean) <= 4 * column.std() / np.sqrt(len(frame)) + 1e-9, box


def test_ks_test_detects_a_shift():
    rng = np.random.default_rng(5)
    p = np.full(100, 0.01)
    assert ks_test(p, rng.integers(0, 100, 5000))[1] > 1e-3
    assert ks_test(p, rng.integers(5, 100, 5000))[1] < 1e-6
    with pytest.raises(ValueError, match="samples must lie"):
        ks_test(p, np.array([100]))


def test_figure(no_bonus):
    from yatzy_core.ui import score_distributions_figure
    fig = score_distributions_figure([no_bonus.distribution])
    assert fig.data[0].name.startswith("yahtzee-no-bonus (mean 245.87")
    assert fig.layout.xaxis.title.text == "final score x (points)"
    assert np.isclose(sum(fig.data[0].y), 1, atol=1e-5)


# ---- the cache ---------------------------------------------------------------------------------

def test_cache_round_trip_and_trust(no_bonus, tmp_path, monkeypatch):
    path = save_play(no_bonus, tmp_path / "play.npz")
    back = load_play(path, get_rules("yahtzee-no-bonus"))
    assert back.box_expectations == no_bonus.box_expectations
    assert np.array_equal(back.distribution.probabilities, no_bonus.distribution.probabilities)
    with pytest.raises(CacheError, match="holds rules"):
        load_play(path, get_rules("yahtzee"))
    damaged = tmp_path / "damaged.npz"
    damaged.write_bytes(path.read_bytes()[:200])
    with pytest.raises(CacheError):
        load_play(damaged, get_rules("yahtzee-no-bonus"))
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    from yatzy_core.objectives.distribution import play_path
    save_play(no_bonus, play_path(get_rules("yahtzee-no-bonus")))
    assert optimal_play("yahtzee-no-bonus").box_expectations == no_bonus.box_expectations


def test_solution_must_match_rules(solutions):
    with pytest.raises(ValueError, match="solution is for"):
        optimal_play("yahtzee", use_cache=False, solution=solutions("yahtzee-no-bonus"))


def test_score_distribution_values():
    d = ScoreDistribution("dice", np.full(6, 1 / 6))
    assert d.mean == pytest.approx(2.5) and d.variance == pytest.approx(35 / 12)
    assert d.quantile(0.5) == 2 and d.p_at_least(4) == pytest.approx(1 / 3)


def test_p_at_least_a_fraction_is_at_least_the_next_whole_score():
    d = ScoreDistribution("dice", np.full(7, 1 / 6) * (np.arange(7) > 0))    # one die: 1 .. 6
    assert d.p_at_least(5.5) == d.p_at_least(6) == pytest.approx(1 / 6) and d.p_at_least(5) == pytest.approx(2 / 6)
    assert d.p_at_least(-2.5) == pytest.approx(1.0) and d.p_at_least(6.5) == 0.0 and d.p_at_least(np.int64(6)) > 0
    for bad in ("5", float("nan"), float("inf"), None, True):
        with pytest.raises(ValueError, match="x must be a finite number"):
            d.p_at_least(bad)
