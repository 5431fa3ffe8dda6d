"""The registry of objectives: the CLI's flags, objective_for and the widgets' menus come from it,
a structured parameter (a card and a lead, as the two-player objective takes) plugs in with no
switch, and no front end names an objective."""
import argparse
import re
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest

import yatzy_core

from yatzy_core.cli.args import chosen_objective, objective_flags
from yatzy_core.objectives import registry
from yatzy_core.objectives.appetite import Risk
from yatzy_core.objectives.goals import AtLeast, Beat
from yatzy_core.objectives.objective import MEAN, AdviceObjective
from yatzy_core.objectives.registry import Parameter, objective_for, offered, registered

PACKAGE = Path(__file__).resolve().parents[1] / "yatzy_core"


def parsed(*argv):
    parser = argparse.ArgumentParser()
    objective_flags(parser, "rank the choices by")
    return parser.parse_args(list(argv))


def test_the_flags_choose_the_registered_objective():
    assert [(k.key, v, f) for k, v, f in (chosen_objective(parsed(*a)) for a in
            ([], ["--goal", "250"], ["--beat", "223"], ["--risk", "-0.02"]))] == [
        ("mean", {}, None), ("reach", {"total": 250}, "--goal"), ("beat", {"score": 223}, "--beat"),
        ("risk", {"theta": -0.02}, "--risk")]
    with pytest.raises(SystemExit):           # one objective at most
        parsed("--goal", "250", "--risk", "0.1")


def test_objective_for_makes_each_and_names_what_is_missing():
    assert objective_for("mean") is not None and objective_for("mean") == MEAN
    assert objective_for("reach", total=250, points=10) == AtLeast(250, 10)
    assert objective_for("beat", score=223, points=0) == Beat(223, 0)
    assert objective_for("risk", theta=0.05) == Risk(0.05)
    with pytest.raises(ValueError, match="^enter the score to beat$"):
        objective_for("beat", points=0)
    with pytest.raises(ValueError, match="^enter the points so far"):
        objective_for("reach", total=250)
    with pytest.raises(ValueError, match="^risk takes theta, not total$"):
        objective_for("risk", theta=0.1, total=3)


def test_what_the_cli_prints_comes_from_the_objective():
    assert Beat(223, 200).aim() == "playing to beat 223: a final total of 224 or more (200 points on the card now)"
    assert (Beat(223).column, Beat(223).policy, AtLeast(250).policy, Risk(-0.02).policy, MEAN.policy) == (
        "P(> 223)", "beat 223", "goal 250", "risk theta=-0.02", "max-mean")


@dataclass(frozen=True)
class Lead:
    """A structured parameter: an opponent's card (used boxes) and a lead, from 'ones,twos:+12'."""

    used: tuple
    lead: int

    @classmethod
    def parse(cls, text: str) -> "Lead":
        boxes, sep, lead = text.partition(":")
        if not sep:
            raise ValueError(f"give used boxes and a lead as BOXES:LEAD, got {text!r}")
        return cls(tuple(b for b in boxes.split(",") if b), int(lead))


@dataclass(frozen=True)
class Toy(AdviceObjective):
    opponent: Lead
    key: ClassVar[str] = "toy-versus"
    title: ClassVar[str] = "toy versus"
    parameters: ClassVar[tuple] = (Parameter("opponent", Lead, "--toy-opponent", "CARD", "{ranks} a toy",
                                             "enter the opponent's card", parse=Lead.parse),)


@pytest.fixture
def toy():
    registered(Toy)
    yield Toy
    del registry.REGISTRY[Toy.key]


def test_a_structured_parameter_plugs_in_without_a_switch(toy):
    kind, values, flag = chosen_objective(parsed("--toy-opponent", "ones,twos:+12"))
    assert (kind, values, flag) == (Toy, {"opponent": Lead(("ones", "twos"), 12)}, "--toy-opponent")
    assert objective_for("toy-versus", **values) == Toy(Lead(("ones", "twos"), 12))
    assert "toy-versus" in registry.titles() and "toy-versus" not in offered()   # no widget: CLI only
    assert yatzy_core.Toy is Toy and yatzy_core.Lead is Lead                     # at the front door
    with pytest.raises(SystemExit):
        parsed("--toy-opponent", "ones")
    with pytest.raises(ValueError, match="taken"):
        registered(Toy)


def test_every_objective_and_its_parameter_types_are_at_the_front_door():
    """A Python caller builds any registered objective from `yatzy_core` alone: the class and
    every structured type of its parameters (Versus's and Outscore's opponent card)."""
    from yatzy_core import OpponentCard, Versus
    kinds = {kind for cls in registry.REGISTRY.values() for kind in (cls, *(p.kind for p in cls.parameters))}
    assert {kind for kind in kinds if getattr(yatzy_core, kind.__name__, None) is not kind} == {int, float}
    assert "OpponentCard" in yatzy_core.__all__ and not hasattr(yatzy_core, "int")
    assert Versus(OpponentCard(used={"ones"}), lead=3).opponent.used == frozenset({"ones"})


def test_no_front_end_switches_on_an_objective():
    """Outside objectives/ no code compares a string with an objective's key or tests an
    objective's class (the registry and the objects answer)."""
    keys = "|".join(map(re.escape, registry.REGISTRY))
    pattern = re.compile(rf'(==|!=|\bin)\s*\(?\s*"({keys})"|isinstance\([^)]*\b(MaxMean|AtLeast|Beat|Risk)\b')
    found = [f"{path.relative_to(PACKAGE)}:{i}" for path in PACKAGE.rglob("*.py") if path.parent.name != "objectives"
             for i, line in enumerate(path.read_text().splitlines(), 1) if pattern.search(line)]
    assert found == []
