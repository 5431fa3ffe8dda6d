"""stored_result: the results/ records by name, checked against their sha256 (benchmarks/results_file.py)."""
import hashlib
import json

import pytest

from yatzy_core import stored_result


def write(folder, name, readings, sha=None):
    record = {"readings": readings,
              "sha256": sha or hashlib.sha256(json.dumps(readings, sort_keys=True).encode()).hexdigest()}
    (folder / f"{name}.json").write_text(json.dumps(record))


def test_a_committed_record_reads_and_checks():
    rollout = stored_result("rollout")
    assert round(rollout["optimal"], 4) == 245.8708   # the readings, not the wrapper
    assert "learned_list" in rollout and "sha256" not in rollout
    assert set(stored_result("versus_plan")) == {"yahtzee-no-bonus", "yahtzee", "yatzy"}   # a plan: whole


def test_readings_come_back_exactly(tmp_path):
    write(tmp_path, "tiny", {"a": [1, 2, 3], "b": 0.25})
    assert stored_result("tiny", tmp_path) == {"a": [1, 2, 3], "b": 0.25}


def test_a_damaged_record_is_refused(tmp_path):
    write(tmp_path, "tiny", {"a": 1}, sha="0" * 64)
    with pytest.raises(ValueError, match="'tiny'.*damaged"):
        stored_result("tiny", tmp_path)
    (tmp_path / "half.json").write_text('{"readings": {"a": 1')
    with pytest.raises(ValueError, match="'half'.*not JSON"):
        stored_result("half", tmp_path)


def test_a_missing_record_names_itself_and_the_known_ones(tmp_path):
    write(tmp_path, "tiny", {"a": 1})
    with pytest.raises(ValueError, match=r"no record 'other' .*known: tiny\)"):
        stored_result("other", tmp_path)
    with pytest.raises(ValueError, match="no record '../tiny'"):
        stored_result("../tiny", tmp_path)
