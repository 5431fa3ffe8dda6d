"""The rules editor, driven through its model (editor.update / request) and its widgets, its values
checked against rule sets solved independently; and the newest-wins worker it solves on."""
import asyncio
import html
import threading

import numpy as np
import pytest

from yatzy_core import Position, advise, get_rules, solve
from yatzy_core.objectives.distribution import ScoreDistribution
from yatzy_core.game.scoring import Box, make_scorer
from yatzy_core.ui.background import Latest, Superseded
from yatzy_core.ui.rules_editor import EDITABLE, Result, RulesEditor, moves_at


def solved(rules):
    return solve(rules, progress=False)


@pytest.fixture
def editor():
    return RulesEditor(background=False, base="yatzy", dice="11155", rolls_left=2)


def test_no_upper_bonus_in_yatzy(editor):
    assert editor.expected == editor.base_expected and round(editor.expected, 4) == 248.4400
    assert editor.best_before == editor.best_after == "keep 1 1 1"
    editor.update(upper_bonus=0)
    by_hand = get_rules("yatzy").with_(name="by hand", upper_bonus=0)
    solution = solved(by_hand)
    assert editor.expected == pytest.approx(solution.expected_score, abs=1e-9)
    assert round(editor.expected, 4) == 211.1487 and round(editor.change, 4) == -37.2913
    ranked = advise(Position.make(by_hand, dice="11155", rolls_left=2), solution)
    assert editor.best_before == "keep 1 1 1"            # with the bonus: the ones count toward it
    assert editor.best_after == ranked[0].label == "keep 5 5"
    assert [a.label for a in editor.result.after] == [a.label for a in ranked[:3]]
    assert "keep 1 1 1</b> becomes <b>keep 5 5" in editor.headline_w.value
    assert "211.1487" in editor.headline_w.value and "-37.2913" in editor.headline_w.value


def test_a_third_reroll_is_the_yahtzee_3_rerolls_rule_file(editor):
    editor.update(base="yahtzee", rolls_per_turn=4, dice="12334")
    assert editor.upper_bonus == 35 and editor.yahtzee_bonus == 100           # yahtzee's own rules
    assert editor.expected == pytest.approx(solved("yahtzee-3-rerolls").expected_score, abs=1e-9)
    assert round(editor.expected, 4) == 328.9553 and round(editor.base_expected, 4) == 254.5877
    assert (editor.best_before, editor.best_after) == ("keep 3 3", "keep 1 2 3 4")


def test_one_roll_a_turn_cuts_the_rerolls_left(editor):
    editor.update(base="yahtzee", rolls_per_turn=1, dice="11156")
    assert round(editor.expected, 4) == 127.5156
    assert editor.result.notes == "yahtzee, rolls_per_turn 1: 0 rerolls left (the rules allow no more)"
    assert editor.result.after[0].action == "box" and editor.result.before[0].action == "keep"


def test_box_points_and_the_yahtzee_bonus(editor):
    editor.update(base="yahtzee", points={"full_house": 40})
    by_hand = get_rules("yahtzee").with_(name="by hand", boxes=tuple(
        Box(b.name, make_scorer("full_house", points=40), None, 40, 40) if b.name == "full_house"
        else b for b in get_rules("yahtzee").boxes))
    assert editor.expected == pytest.approx(solved(by_hand).expected_score, abs=1e-9)
    assert editor.change > 0
    editor.update(base="yatzy", yahtzee_bonus=100)
    assert editor.points == {"small_straight": 15, "large_straight": 20, "yatzy": 50}   # reset
    by_hand = get_rules("yatzy").with_(name="by hand", yahtzee_box="yatzy", yahtzee_bonus=100)
    assert editor.expected == pytest.approx(solved(by_hand).expected_score, abs=1e-9)


def test_forced_order(editor):
    editor.update(forced_order=True)
    assert editor.expected == pytest.approx(solved("forced-yatzy").expected_score, abs=1e-9)
    assert round(editor.change, 4) == -125.8815
    assert editor.best_after == "keep 1 1 1"              # the first turn must fill the ones
    editor.update(base="yahtzee", forced_order=True)       # the joker rule needs a free choice
    assert editor.rules is None and "forced_order needs joker 'none'" in editor.message
    assert editor.forced_w.disabled                        # so the check box is off for yahtzee
    editor.update(forced_order=False)
    assert editor.message == "" and round(editor.expected, 4) == 254.5877


def test_an_impossible_position_is_a_message(editor):
    editor.update(used="ones", upper_total=7)
    assert editor.message.startswith("Impossible position: upper total 7 cannot be made")
    assert editor.result.before == [] and round(editor.expected, 4) == 248.4400


def test_unreadable_input(editor):
    with pytest.raises(ValueError, match="unknown editor inputs \\['faces'\\]"):
        editor.update(faces=8)
    editor.dice_w.value = "11x55"                          # typed in the page: a message
    assert "cannot read dice '11x55'" in html.unescape(editor.message_w.value)
    assert editor.dice == (1, 1, 1, 5, 5)                   # the position stays as it was


def test_widgets_drive_the_model(editor):
    assert (editor.box_w.value, editor.points_w.value) == ("small_straight", 15)   # yatzy's first
    editor.base_w.value = "yahtzee"
    assert (editor.base, editor.bonus_w.value, editor.yahtzee_w.value) == ("yahtzee", 35, 100)
    assert editor.box_w.options == ("full_house", "small_straight", "large_straight", "yahtzee")
    editor.bonus_w.value = 0
    assert round(editor.expected, 4) == 237.8245 and editor.rules.name == "yahtzee, upper_bonus 0"
    assert (editor.box_w.value, editor.points_w.value) == ("full_house", 25)
    editor.box_w.value = "large_straight"
    assert editor.points_w.value == 40
    editor.points_w.value = 30
    assert editor.points == {"full_house": 25, "small_straight": 30, "large_straight": 30, "yahtzee": 50}
    assert editor.rules.name == "yahtzee, upper_bonus 0, large_straight 30 points"
    assert editor.progress_w.value == editor.progress_w.max > 1          # the solve's bar ran full
    assert "yatzy" in EDITABLE and "maxi-yatzy" not in EDITABLE


def test_requests_on_the_worker_show_the_newest(editor):
    editor.background = True
    editor.request(upper_bonus=10)
    editor.request(upper_bonus=20)
    editor.request(upper_bonus=0)
    assert editor.latest.wait(60)
    assert editor.rules.name == "yatzy, upper_bonus 0" and round(editor.expected, 4) == 211.1487
    assert editor.latest.superseded >= 1              # the middle request never ran to the end


def test_the_distribution_view(editor):
    coins = ScoreDistribution("two coins", np.array([0.25, 0.5, 0.25]))
    editor._show(editor.result._replace(base_distribution=coins, distribution=coins))
    base, changed = editor.fig.data
    assert base.x == (0, 1, 2) and changed.y == (0.25, 0.5, 0.25)
    assert base.name == "yatzy (mean 1.00, sd 0.71)"
    assert editor.fig.layout.title.text.startswith("Exact final score distributions")
    assert editor.fig_box.layout.display is None                         # shown
    editor.update(upper_bonus=0)                       # distributions off: the curves go
    assert editor.fig.data[0].x == () and editor.fig_box.layout.display == "none"


def test_moves_at_matches_advise():
    solution = solved("yahtzee-no-bonus")
    top, note = moves_at(get_rules("yahtzee-no-bonus"), solution, "66612", 1, top=2)
    assert note == "" and top == advise(Position.make("yahtzee-no-bonus", dice="66612", rolls_left=1),
                                        solution)[:2]


def test_a_newer_job_stops_a_running_one_at_its_checkpoint():
    started, release, ran = threading.Event(), threading.Event(), []
    errors = []
    latest = Latest(on_error=errors.append)

    def slow(checkpoint):
        started.set()
        release.wait(10)
        checkpoint()                                   # a newer job came: Superseded
        ran.append("slow")

    latest.submit(slow)
    assert started.wait(10)
    latest.submit(lambda checkpoint: ran.append("second"))
    latest.submit(lambda checkpoint: ran.append("newest"))   # replaces "second" before it starts
    release.set()
    assert latest.wait(10)
    assert ran == ["newest"] and latest.superseded == 2 and errors == [] and not latest.busy


def test_a_failing_job_is_reported_not_lost():
    errors = []
    latest = Latest(on_error=errors.append)
    latest.submit(lambda checkpoint: 1 / 0)
    assert latest.wait(10) and isinstance(errors[0], ZeroDivisionError)
    latest.submit(lambda checkpoint: lambda: [][0])            # its result fails to show
    assert latest.wait(10) and isinstance(errors[1], IndexError) and not latest.busy
    with pytest.raises(Superseded):
        latest.checkpoint_for(0)()


def test_distributions_on_request():
    """Forced Yatzy is small enough for the forward pass in a test: each exact distribution's
    mean is the solved value, and both curves are drawn."""
    editor = RulesEditor(background=False, base="forced-yatzy", dice="11155")
    assert editor.result.distribution is None and editor.fig_box.layout.display == "none"
    editor.update(distributions=True, upper_bonus=0)
    base, changed = editor.result.base_distribution, editor.result.distribution
    assert base.mean == pytest.approx(editor.base_expected, abs=1e-9)
    assert changed.mean == pytest.approx(editor.expected, abs=1e-9) and round(changed.mean, 4) == 120.3797
    assert changed.probabilities.sum() == pytest.approx(1, abs=1e-12)
    assert editor.fig.data[1].name.startswith("forced-yatzy, upper_bonus 0 (mean 120.38")
    assert editor.fig_box.layout.display is None


class CountingBar:
    """A tqdm-like bar for solve(progress=...): counts, and can stop the solve after n updates."""

    def __init__(self, stop_after=None):
        self.total = self.done = self.updates = 0
        self.stop_after = stop_after

    def reset(self, total):
        self.total, self.done = total, 0

    def update(self, n):
        self.updates += 1
        if self.updates == self.stop_after:
            raise Superseded
        self.done += n


def test_solve_reports_to_a_bar_and_stops_when_it_raises():
    bar = CountingBar()
    solution = solve("yahtzee-no-bonus", progress=bar)
    assert bar.done == bar.total > 0 and bar.updates == get_rules("yahtzee-no-bonus").n_boxes
    assert round(solution.expected_score, 4) == 245.8708
    stopping = CountingBar(stop_after=2)
    with pytest.raises(Superseded):
        solve("yahtzee-no-bonus", progress=stopping)
    assert 0 < stopping.done < stopping.total


def test_results_show_on_the_loop_thread_and_a_stale_one_never():
    """In a kernel (an asyncio loop runs where the `Latest` was made) a job's result is shown by
    that loop's thread, not the worker, and a result a newer job made stale is dropped there."""
    shown, errors = [], []

    async def main():
        latest = Latest(on_error=errors.append)
        started, release, done = threading.Event(), threading.Event(), asyncio.Event()

        def first(checkpoint):
            started.set()
            release.wait(10)
            return lambda: shown.append(("first", threading.get_ident()))   # stale by then

        def second(checkpoint):
            return lambda: (shown.append(("second", threading.get_ident())), done.set())

        latest.submit(first)
        assert await asyncio.to_thread(started.wait, 10)   # the first job is running
        latest.submit(second)
        release.set()
        await asyncio.wait_for(done.wait(), 10)
        latest.submit(lambda checkpoint: 1 / 0)          # an error reaches on_error here too
        for _ in range(1000):
            if errors:
                break
            await asyncio.sleep(0.01)
        return latest, threading.get_ident()

    latest, loop_thread = asyncio.run(main())
    assert shown == [("second", loop_thread)] and latest.superseded == 1
    assert isinstance(errors[0], ZeroDivisionError)
