// Unit tests of site/play/game.js: a game's moves, undo, the log `yatzy grade` reads and the
// grade, on a one-box game (only chance) whose every value is exact: `node --test tests/js/`.
import assert from "node:assert/strict";
import { test } from "node:test";

import { describe, Game, rng } from "../../site/play/game.js";
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
