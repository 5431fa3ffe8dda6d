// Unit tests of site/play/game.js: a game's moves, undo, the log `yatzy grade` reads and the
// grade, on a one-box game (only chance) whose every value is exact: `node --test tests/js/`.
import assert from "node:assert/strict";
import { test } from "node:test";

import { boxTitle, describe, Game, optionText, rng } from "../../site/play/game.js";
import { table } from "./tables.mjs";

function chanceOnly() {
  const t = table(["chance"], {}, [[0, 0, 0, 70 / 3]]);
  t.header.expected_score = 70 / 3;
  return t;
}

const sorted = (dice) => dice.slice().sort((a, b) => a - b);

test("the same seed rolls the same dice", () => {
  const a = rng(42);
  const b = rng(42);
  const draws = Array.from({ length: 5 }, () => a.next());
  assert.deepEqual(draws, Array.from({ length: 5 }, () => b.next()));
  assert.ok(draws.every((x) => x >= 0 && x < 1));
  assert.deepEqual(new Game(chanceOnly(), 7).dice, new Game(chanceOnly(), 7).dice);
});

test("a game's moves make the log `yatzy grade` reads, and its grade", () => {
  const game = new Game(chanceOnly(), 3);
  const first = game.dice.slice();
  const held = first.map((d) => d >= 5);
  const keep = game.keep(held);
  assert.equal(game.rollsLeft, 1);
  assert.deepEqual(game.dice.filter((_, i) => held[i]), first.filter((_, i) => held[i]));   // held dice stay
  const rolled = game.dice.slice();
  const points = rolled.reduce((a, b) => a + b, 0);
  const scored = game.score("chance");
  assert.ok(game.over);
  assert.equal(game.total, points);
  assert.equal(scored.points, points);
  assert.equal(scored.choice.label, "score chance now");
  const log = game.log();
  assert.deepEqual(Object.keys(log), ["format", "version", "rules", "first_roll", "moves"]);
  assert.deepEqual([log.format, log.version, log.first_roll], ["yatzy-game-log", 2, sorted(first)]);
  assert.deepEqual(log.moves, [{ keep: sorted(first.filter((d) => d >= 5)), dice: sorted(rolled) }, { score: "chance" }]);
  assert.equal(keep.optimal, true);                      // keeping the 5s and 6s is best with only chance open
  const s = game.summary();
  assert.equal(s.moves, 2);
  assert.ok(Math.abs(s.luck - (points - (70 / 3 - s.totalLoss))) < 1e-9);
  assert.equal(s.costliest.length, 2 - s.optimalMoves);
});

test("undo takes a move back with its dice, and the same move rolls the same dice again", () => {
  const game = new Game(chanceOnly(), 11);
  const before = game.dice.slice();
  const held = [true, false, false, false, false];
  game.keep(held);
  const after = game.dice.slice();
  assert.ok(game.undo());
  assert.deepEqual([game.dice, game.rollsLeft, game.moves.length, game.decisions.length], [before, 2, 0, 0]);
  game.keep(held);
  assert.deepEqual(game.dice, after);
  assert.ok(game.undo() && !game.undo());                // nothing more to take back
});

test("keeping every die spends a roll: worth the best choice with one roll fewer", () => {
  const game = new Game(chanceOnly(), 5);
  game.dice = [1, 1, 1, 1, 1];
  const decision = game.keep([true, true, true, true, true]);
  assert.deepEqual(game.dice, [1, 1, 1, 1, 1]);
  assert.equal(decision.choice.label, "keep 1 1 1 1 1");
  assert.equal(decision.choice.expected, 5 * 3.5);                 // then rerolling all, once
  assert.equal(decision.best.label, "reroll all");
  assert.equal(decision.loss, 5 * 4.25 - 5 * 3.5);                // rerolling all with two rerolls
  assert.ok(!decision.optimal);
  assert.match(describe(decision), /^turn 1, dice 1 1 1 1 1, 2 rerolls left: keep 1 1 1 1 1, optimal was reroll all \(lost \d+\.\d\d points\)$/);
});

test("an illegal move is refused and changes nothing", () => {
  const game = new Game(chanceOnly(), 2);
  game.score("chance");
  assert.throws(() => game.score("chance"), /game is over/);
  const other = new Game(chanceOnly(), 2);
  other.keep([false, false, false, false, false]);
  other.keep([false, false, false, false, false]);
  assert.throws(() => other.keep([false, false, false, false, false]), /no rerolls left/);
  assert.throws(() => other.score("sixes"), /box sixes/);
  assert.equal(other.moves.length, 2);
});

test("a game played back from its seed and its moves text is the same game, undo included", () => {
  const game = new Game(chanceOnly(), 19);
  game.keep([true, false, true, false, false]);
  game.keep([false, false, false, false, false]);
  game.undo();
  game.keep([false, true, false, false, true]);
  assert.deepEqual(game.actions, ["k13", "k25"]);
  const again = Game.replay(chanceOnly(), 19, game.actions.join("."));
  assert.deepEqual([again.dice, again.rollsLeft, again.moves, again.history.length], [game.dice, 0, game.moves, 2]);
  game.score("chance");
  assert.deepEqual(game.actions, ["k13", "k25", "s0"]);
  const done = Game.replay(chanceOnly(), 19, "k13.k25.s0");
  assert.ok(done.over);
  assert.deepEqual([done.total, done.log()], [game.total, game.log()]);
  assert.ok(done.undo() && done.rollsLeft === 0 && !done.over);
  assert.deepEqual(Game.replay(chanceOnly(), 19, "").dice, new Game(chanceOnly(), 19).dice);
});

test("a moves text that cannot be played says which move and why", () => {
  assert.throws(() => Game.replay(chanceOnly(), 1, "k1.s3"), /^Error: move 2 \(s3\) cannot be played: a move is k and the dice held \(k13: hold dice 1 and 3\) or s and a box number from 0 to 0$/);
  assert.throws(() => Game.replay(chanceOnly(), 1, "k16"), /^Error: move 1 \(k16\) cannot be played: it holds dice 1, 6; the dice are 1 to 5, each once$/);
  assert.throws(() => Game.replay(chanceOnly(), 1, "k11"), /each once/);
  assert.throws(() => Game.replay(chanceOnly(), 1, "k.k.k"), /^Error: move 3 \(k\) cannot be played: no rerolls left: score a box$/);
  assert.throws(() => Game.replay(chanceOnly(), 1, "s0.s0"), /^Error: move 2 \(s0\) cannot be played: the game is over$/);
});

test("options and decisions read with the boxes' display names", () => {
  assert.equal(boxTitle("large_straight"), "Large straight");
  assert.equal(optionText({ action: "box", box: "large_straight", label: "score large_straight now" }), "score Large straight now");
  assert.equal(optionText({ action: "keep", box: null, label: "keep 1 1" }), "keep 1 1");
  assert.equal(boxTitle("BIG_Run"), "Big run");                                  // as Python's box_label
  assert.equal(optionText({ action: "box", box: "s", label: "score s" }), "score S");   // not the s of "score"
  const game = new Game(chanceOnly(), 2);
  const decision = game.score("chance");
  assert.equal(describe(decision), `turn 1, dice ${decision.position.dice.join(" ")}, 2 rerolls left: score Chance now, optimal was keep ${decision.best.keep.join(" ")} (lost ${decision.loss.toFixed(2)} points)`);
});
