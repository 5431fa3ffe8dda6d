"""A command that will take more than a few seconds says first what it computes and roughly how
long (`cli.long_work`), knows a cached table from one it must solve, and shows a bar while it works.

The estimates of a small game are a fraction of a second, under QUIET_SECONDS: the tests make the
measured rates large so that the small game's work is announced, as a whole game's would be.
"""
import pytest

from yatzy_core.cli import long_work
from yatzy_core.objectives import tables
from yatzy_core.cli.command import main
from yatzy_core.game.rulefile import dumps
from yatzy_core.objectives.targets import cached_caps, max_total

from test_probe_cache import SEVEN


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def seven_file(tmp_path):
    path = tmp_path / "seven.toml"
    path.write_text(dumps(SEVEN))
    return str(path)


@pytest.fixture
def slow_rates(monkeypatch):
    """Rates a million times the measured ones: every piece of work is announced."""
    monkeypatch.setattr(tables, "TABLE_LANE_SECONDS", tables.TABLE_LANE_SECONDS * 1e6)
    monkeypatch.setattr(tables, "RISK_STATE_SECONDS", tables.RISK_STATE_SECONDS * 1e6)


def announcements(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("yatzy: ") and " on 2 cores" in line]


def test_rough_durations_and_quiet_short_work(capsys):
    assert [long_work.rough(s) for s in (4, 12, 59, 61, 149, 3600)] == [
        "a few seconds", "about 10 s", "about 60 s", "about 1 min", "about 2 min", "about 60 min"]
    long_work.announce("quick work", long_work.QUIET_SECONDS - 0.1)
    long_work.announce("slow work", 130)
    assert capsys.readouterr().err == "yatzy: slow work: about 2 min on 2 cores (longer on a busy machine)\n"


def test_a_goal_says_what_it_solves_then_only_what_it_plays(capsys, private_cache, seven_file, slow_rates):
    cap = max_total(SEVEN)
    status, out, err = run(capsys, "distribution", "--rules-file", seven_file, "--goal", "20")
    assert status == 0 and "P(total >= 20): " in out
    assert [line.split(": about")[0] for line in announcements(err)] == [
        f"yatzy: solving the whole target table of seven (every total up to {cap}; cached for later goals) "
        "and playing its policy forward"]
    assert cached_caps(SEVEN) == [cap]
    status, again, err = run(capsys, "distribution", "--rules-file", seven_file, "--goal", "21")
    assert status == 0
    assert [line.split(": about")[0] for line in announcements(err)] == ["yatzy: playing its policy forward"]


def test_an_early_goal_in_advise_is_announced_and_its_table_cached(capsys, private_cache, seven_file, slow_rates):
    argv = ("advise", "--rules-file", seven_file, "--dice", "12", "--rolls-left", "1", "--goal", "20")
    status, out, err = run(capsys, *argv)
    assert status == 0 and "P(>= 20)" in out
    [said] = announcements(err)
    assert said.startswith(f"yatzy: solving the whole target table of seven (every total up to {max_total(SEVEN)}")
    assert cached_caps(SEVEN) == [max_total(SEVEN)]
    status, same, err = run(capsys, *argv)
    assert status == 0 and same == out and announcements(err) == []      # read, not solved again


def test_risk_is_announced(capsys, private_cache, seven_file, slow_rates):
    status, out, err = run(capsys, "distribution", "--rules-file", seven_file, "--risk", "0.05")
    assert status == 0
    [said] = announcements(err)
    assert said.startswith("yatzy: solving the risk table of seven for theta 0.05 and playing its policy forward")
