"""Rule files: the shipped files rebuild today's rule sets exactly, bad files fail with one clear
error naming file and field, and a written file reads back to the same rules."""
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from yatzy_core.game.dice import dice_of
from yatzy_core.game.rulefile import dumps, load, loads
from yatzy_core.game.rules import RULESETS, Rules, get_rules, rule_names
from yatzy_core.game.scoring import CATALOGUE


def run(dice, n):
    return any(set(range(a, a + n)) <= set(dice) for a in range(1, 8 - n))


def yahtzee_reference(dice):
    """Hasbro's card, scored straight from the rule sheet."""
    c, s = Counter(dice), sum(dice)
    most = max(c.values())
    return [f * c[f] for f in range(1, 7)] + [
        s if most >= 3 else 0, s if most >= 4 else 0, 25 if sorted(c.values()) == [2, 3] else 0,
        30 if run(dice, 4) else 0, 40 if run(dice, 5) else 0, 50 if most == 5 else 0, s]


def yatzy_reference(dice, thesis=False):
    """The Scandinavian card; `thesis`: a single pair also scores as two pairs."""
    c, s = Counter(dice), sum(dice)
    pairs = sorted((f for f in c if c[f] >= 2), reverse=True)
    one = 2 * pairs[0] if pairs else 0
    two = 2 * (pairs[0] + pairs[1]) if len(pairs) == 2 else one if thesis else 0
    kind = [n * max((f for f in c if c[f] >= n), default=0) for n in (3, 4)]
    return [f * c[f] for f in range(1, 7)] + [one, two, *kind,
        15 if sorted(dice) == [1, 2, 3, 4, 5] else 0, 20 if sorted(dice) == [2, 3, 4, 5, 6] else 0,
        s if sorted(c.values()) == [2, 3] else 0, s, 50 if len(c) == 1 else 0]


YAHTZEE_FIELDS = dict(upper_bonus_threshold=63, upper_bonus=35, yahtzee_box="yahtzee", n_dice=5,
                      faces=6, rolls_per_turn=3, forced_order=False)
CLASSIC = {  # name: (reference card, other fields, joker values of the lower boxes)
    "yahtzee": (yahtzee_reference, dict(YAHTZEE_FIELDS, yahtzee_bonus=100, joker="forced")),
    "yahtzee-verhoeff": (yahtzee_reference, dict(YAHTZEE_FIELDS, yahtzee_bonus=100, joker="free")),
    "yahtzee-no-bonus": (yahtzee_reference, dict(YAHTZEE_FIELDS, yahtzee_bonus=0, joker="none")),
    "yatzy": (yatzy_reference, dict(upper_bonus=50, yahtzee_box=None, joker="none")),
    "yatzy-thesis": (lambda d: yatzy_reference(d, thesis=True),
                     dict(upper_bonus=50, yahtzee_box=None, joker="none")),
}


@pytest.mark.parametrize("name", CLASSIC)
def test_shipped_file_rebuilds_todays_rules(name):
    """Every roll's score in every box, the joker values and each bonus field, against the card."""
    reference, settings = CLASSIC[name]
    rules = get_rules(name)
    expected = np.array([reference(dice_of(r)) for r in rules.dice.rolls])
    assert np.array_equal(rules.score_table, expected)
    joker = expected.copy()
    if name.startswith("yahtzee"):
        joker[:, 8:11] = [25, 30, 40]   # full house and the straights as jokers
    assert np.array_equal(rules.joker_table, joker)
    assert {k: getattr(rules, k) for k in settings} == settings
    assert rule_names() == list(CLASSIC)


def test_new_rule_sets():
    yahtzee, forced = get_rules("yahtzee"), get_rules("forced-yatzy")
    rerolls = get_rules("yahtzee-3-rerolls")
    assert rerolls == yahtzee.with_(name=rerolls.name, description=rerolls.description, rolls_per_turn=4)
    assert forced.forced_order and forced.boxes == get_rules("yatzy").boxes
    maxi = get_rules("maxi-yatzy")
    assert maxi.box_names == tuple(
        "ones twos threes fours fives sixes one_pair two_pairs three_pairs three_of_a_kind "
        "four_of_a_kind five_of_a_kind small_straight large_straight full_straight full_house "
        "villa tower chance maxi_yatzy".split())
    assert (maxi.n_dice, maxi.upper_bonus, maxi.upper_bonus_threshold) == (6, 100, 84)
    assert maxi.score_table.shape == (462, 20)
    assert sorted(p.stem for p in RULESETS.glob("*.toml")) == sorted(rule_names(include_new=True))


@pytest.mark.parametrize("name", rule_names(include_new=True))
def test_round_trip(name):
    rules = get_rules(name)
    again = loads(dumps(rules))
    assert again == rules and dumps(again) == dumps(rules)
    assert np.array_equal(again.score_table, rules.score_table)


def test_from_file_names_the_rules_after_the_file(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(dumps(get_rules("yatzy")).replace('name = "yatzy"\n', "", 1).replace(
        "upper_bonus_threshold = 63", "upper_bonus_threshold = 50"))
    house = load(path)
    assert house.name == "house" and house.upper_bonus_threshold == 50
    assert house.boxes == get_rules("yatzy").boxes


GOOD = """
n_dice = 3
upper_bonus = 5
upper_bonus_threshold = 4
[[boxes]]
name = "ones"
scorer = "upper"
face = 1
[[boxes]]
name = "twos"
scorer = "upper"
face = 2
[[boxes]]
name = "chance"
scorer = "chance"
"""

BAD = [  # (change to GOOD, the field named, words of what is allowed)
    (("scorer = \"chance\"", "scorer = \"pear\""), "boxes[2] (chance).scorer", "choose one of: upper, of_a_kind"),
    (("threshold = 4", "threshold = 10"), "upper_bonus_threshold", "from 1 to 9"),
    (("name = \"twos\"", "name = \"ones\""), "boxes[1].name", "duplicate box 'ones'"),
    (("name = \"twos\"", "name = \"two, too\""), "boxes[1].name", "letters, digits, _ and -"),
    (("scorer = \"chance\"", "scorer = [\"chance\"]"), "boxes[2] (chance).scorer", "unknown scorer"),
    (("n_dice = 3", "n_dice = 7"), "n_dice", "from 1 to 6"),
    (("n_dice = 3", "n_dice = 2.5"), "n_dice", "a whole number"),
    (("face = 2", "face = 7"), "boxes[1] (twos).face", "from 1 to 6"),
    (("face = 2", "face = 1"), "boxes", "face 1 has 2 upper boxes"),
    (("face = 2", "n = 2"), "boxes[1] (twos).n", "allowed: name, scorer, joker_value, max_score, face"),
    (("face = 2\n", ""), "boxes[1] (twos).face", "scorer 'upper' needs face"),
    (("n_dice = 3", "n_dice = 3\nrerolls = 2"), "rerolls", "allowed: name, description, n_dice"),
    (("scorer = \"chance\"", "scorer = \"villa\""), "boxes[2] (chance).scorer", "never score with 3 dice"),
    (("scorer = \"chance\"", "scorer = \"chance\"\nmax_score = 17"), "boxes[2] (chance).max_score",
     "the best roll scores 18"),
    (("n_dice = 3", "n_dice = 3\nyahtzee_box = \"chance\""), "yahtzee_box", "scorer 'all_same'"),
    (("n_dice = 3", "n_dice = 3\njoker = \"forced\""), "yahtzee_box", "need a yahtzee_box"),
    (("n_dice = 3", "n_dice = 3\njoker = \"wild\""), "joker", "none, forced, free"),
    (("n_dice = 3", "n_dice = 3\nforced_order = 1"), "forced_order", "true or false"),
    (("scorer = \"chance\"", "scorer = \"straight\"\nfaces = [1, 1]\npoints = 5"),
     "boxes[2] (chance).faces", "different faces from 1 to 6"),
]


@pytest.mark.parametrize("change, field, allowed", BAD, ids=[b[1] + ":" + b[2][:12] for b in BAD])
def test_bad_file_names_file_field_and_what_is_allowed(tmp_path, change, field, allowed):
    path = tmp_path / "house.toml"
    assert GOOD.count(change[0]) >= 1
    path.write_text(GOOD.replace(change[0], change[1], 1))
    with pytest.raises(ValueError) as err:
        load(path)
    assert str(err.value).startswith(f"{path}: {field}: "), str(err.value)
    assert allowed in str(err.value)


def test_good_file_loads(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(GOOD)
    rules = load(path)
    assert (rules.name, rules.n_dice, rules.upper_bonus_threshold) == ("house", 3, 4)
    assert [b.max_score for b in rules.boxes] == [3, 6, 18]


def test_bad_toml_names_the_line(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(GOOD.replace("face = 2", "face = = 2"))
    with pytest.raises(ValueError, match=rf"^{path}: not valid TOML: .*line 12"):
        load(path)


def test_missing_file_and_forced_order_with_joker(tmp_path):
    with pytest.raises(ValueError, match="nowhere.toml: cannot read the rule file"):
        load(tmp_path / "nowhere.toml")
    with pytest.raises(ValueError, match="forced_order: forced order needs joker"):
        loads(dumps(get_rules("yahtzee")).replace("forced_order = false", "forced_order = true"))
    with pytest.raises(ValueError, match="forced_order needs joker 'none'"):
        get_rules("yahtzee").with_(forced_order=True)


def test_only_catalogue_scorers_are_written():
    from yatzy_core.game.scoring import Box, total
    with pytest.raises(ValueError, match="box 'sum' .* outside the catalogue"):
        dumps(Rules("hand-made", (Box("sum", total),), upper_bonus=0))


def test_every_catalogue_entry_is_described_in_the_readme():
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    for name, kind in CATALOGUE.items():
        assert f"`{name}`" in readme and kind.description in readme, name


def test_readme_sample_file_loads_and_scores(tmp_path):
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    sample = readme.split("```toml\n")[1].split("```")[0]
    path = tmp_path / "family.toml"
    path.write_text(sample)
    family = load(path)
    assert (family.name, family.n_boxes, family.rolls_per_turn) == ("family", 10, 4)
    assert family.score("two_pairs", [2, 2, 5, 5, 6]) == 14
    assert family.score("full_house", [2, 2, 5, 5, 5]) == 19


def test_cli_rules_file(tmp_path, capsys, monkeypatch):
    """Two dice, sixes and doubles (10): --rules-file reaches solve, info and advise; a bad file
    is one line and exit status 2."""
    from yatzy_core.cli.command import main
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "tiny.toml"
    path.write_text('n_dice = 2\nupper_bonus = 0\n[[boxes]]\nname = "sixes"\nscorer = "upper"\n'
                    'face = 6\n[[boxes]]\nname = "doubles"\nscorer = "all_same"\npoints = 10\n')
    assert main(["info", "--rules-file", str(path)]) == 0
    assert capsys.readouterr().out.startswith("tiny\n2 dice with 6 faces, 3 rolls a turn\n")
    one = tmp_path / "one.toml"
    one.write_text(path.read_text().replace("n_dice = 2", "n_dice = 1\nrolls_per_turn = 1"))
    assert main(["info", "--rules-file", str(one)]) == 0
    assert capsys.readouterr().out.startswith("one\n1 die with 6 faces, 1 roll a turn\n")
    assert main(["advise", "--rules-file", str(path), "--dice", "66", "--rolls-left", "0",
                 "--json", "--top", "1"]) == 0
    assert '"box": "sixes"' in capsys.readouterr().out
    path.write_text(path.read_text().replace("face = 6", "face = 9"))
    assert main(["solve", "--rules-file", str(path), "--no-cache"]) == 2
    assert capsys.readouterr().err == (f"yatzy: error: {path}: boxes[0] (sixes).face: 9 is out of "
                                       f"range; allowed: a whole number from 1 to 6\n")
