"""The Gymnasium environment (`players.gym_env`): Gymnasium's own checker passes, episodes are
seeded, and the regret in `info` is exact: by enumeration of every game a uniformly random agent
can play on a small rule file, E[sum of regrets] + E[score] = V(start) to 1e-9."""
import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from yatzy_core.engine.solver import solve  # noqa: E402
from yatzy_core.game.rulefile import loads  # noqa: E402
from yatzy_core.players.gym_env import Env  # noqa: E402

SMALL = loads(   # 2 dice of 3 faces, 2 rolls a turn: an upper box with a bonus, a Yahtzee box, chance
    'name = "small"\nn_dice = 2\nfaces = 3\nrolls_per_turn = 2\nupper_bonus = 4\nupper_bonus_threshold = 4\n'
    'yahtzee_box = "doubles"\nyahtzee_bonus = 10\n'
    '[[boxes]]\nname = "twos"\nscorer = "upper"\nface = 2\n'
    '[[boxes]]\nname = "doubles"\nscorer = "all_same"\npoints = 8\n'
    '[[boxes]]\nname = "chance"\nscorer = "chance"\n')


@pytest.fixture(scope="module")
def solution():
    return solve(SMALL, progress=False)


def test_gymnasiums_checker_passes(solution):
    check_env(Env(SMALL, solution=solution), skip_render_check=True)
    check_env(Env(SMALL, solution=solution, advice=False), skip_render_check=True)


def test_defaults_to_yahtzee_and_documents_its_spaces():
    env = Env()
    assert env.rules.name == "yahtzee" and env.action_space.n == 13 + 210
    assert set(env.observation_space) == {"counts", "used", "upper_total", "yahtzee_bonus", "rolls_left",
                                          "action_mask"}
    obs, info = env.reset(seed=5)
    assert obs["rolls_left"] == 2 and obs["used"].sum() == 0 and obs["counts"].sum() == 5
    assert info["value"] == pytest.approx(env.solution.expected_score, abs=30)   # a roll's worth
    assert info["regret"][info["best"]] == 0 and (info["regret"] >= 0).all()


def test_episodes_are_seeded(solution):
    def play(seed):
        env = Env(SMALL, solution=solution)
        obs, info = env.reset(seed=seed)
        rng, trace, done = np.random.default_rng(0), [], False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, done, truncated, info = env.step(action)
            trace.append((action, reward, obs["counts"].tolist(), info["step_regret"]))
        return trace, info["score"]
    assert play(3) == play(3) and play(3) != play(4)


def test_an_illegal_action_forfeits_the_rest(solution):
    env = Env(SMALL, solution=solution)
    obs, info = env.reset(seed=1, options={"position": {"counts": [2, 0, 0], "used": 0b010, "upper_total": 0,
                                                         "yahtzee_bonus": 0, "rolls_left": 1}})
    assert info["action_mask"][1] == 0                 # doubles is used
    obs, reward, done, truncated, info2 = env.step(1)
    assert (reward, done, truncated, info2["step_regret"]) == (0.0, True, False, info["value"])
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    with pytest.raises(ValueError, match="^counts"):
        env.reset(options={"position": {"counts": [3, 0, 0], "used": 0, "upper_total": 0,
                                         "yahtzee_bonus": 0, "rolls_left": 1}})


def test_random_agent_regret_sums_to_its_shortfall_exactly(solution):
    """Every game a uniformly random agent (over the legal actions) can play, enumerated with
    its probabilities: the expected regrets the environment reports plus the expected score
    equal the start's optimal value, and the agent falls short of it."""
    env = Env(SMALL, solution=solution)
    dice, memo = SMALL.dice, {}

    def expected(pos: tuple) -> tuple[float, float]:
        if pos in memo:
            return memo[pos]
        counts, used, upper, flag, left = pos
        start = {"position": {"counts": list(counts), "used": used, "upper_total": upper,
                              "yahtzee_bonus": flag, "rolls_left": left}}
        _, info = env.reset(options=start)
        legal = np.flatnonzero(info["action_mask"])
        regret = score = 0.0
        for a in legal:
            env.reset(options=start)
            obs, reward, done, _, after = env.step(a)
            assert after["step_regret"] == info["regret"][a]
            regret, score = regret + info["regret"][a], score + reward
            if done:
                continue
            card = (int(obs["used"] @ (1 << np.arange(SMALL.n_boxes))), int(obs["upper_total"]), int(obs["yahtzee_bonus"]))
            probs = dice.transition[0] if a < SMALL.n_boxes else dice.transition[a - SMALL.n_boxes]
            nxt = SMALL.rolls_per_turn - 1 if a < SMALL.n_boxes else left - 1
            for roll in np.flatnonzero(probs):
                r, s = expected((tuple(int(c) for c in dice.rolls[roll]),) + card + (nxt,))
                regret, score = regret + probs[roll] * r, score + probs[roll] * s
        memo[pos] = regret / len(legal), score / len(legal)
        return memo[pos]

    first = dice.transition[0]
    regret = score = 0.0
    for roll in np.flatnonzero(first):
        r, s = expected((tuple(int(c) for c in dice.rolls[roll]), 0, 0, 0, SMALL.rolls_per_turn - 1))
        regret, score = regret + first[roll] * r, score + first[roll] * s
    assert regret + score == pytest.approx(solution.expected_score, abs=1e-9)
    assert regret > 1 and score < solution.expected_score - 1
    assert len(memo) > 100


@pytest.mark.parametrize("action", [3.7, "12", True, np.float64(1.0), None, [1]])
def test_an_action_that_is_no_whole_number_is_refused(solution, action):
    env = Env(SMALL, solution=solution)
    _, info = env.reset(seed=1)
    with pytest.raises(ValueError, match=r"^action must be a whole number, an option index 0\.\.\d+, got "):
        env.step(action)
    best = np.int64(info["best"])
    obs, reward, done, truncated, after = env.step(best)             # numpy integers are fine
    assert not truncated and after["step_regret"] == 0.0


@pytest.mark.parametrize("options, message", [
    ([1], "options must be a dict"), ({"position": "abc"}, "options: position must be a dict"),
    ({"position": {"counts": [2, 0, 0], "used": 1, "upper_total": 500, "yahtzee_bonus": 0, "rolls_left": 1}},
     "upper_total: position 0: the used upper boxes cannot make this upper total"),
])
def test_a_reset_position_that_cannot_be_is_refused(solution, options, message):
    with pytest.raises(ValueError, match=message):
        Env(SMALL, solution=solution).reset(options=options)
