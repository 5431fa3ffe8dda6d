// Unit tests of site/play/link.js: what a link asks for and what is wrong with it, said by name.
import assert from "node:assert/strict";
import { test } from "node:test";

import { askProblems, parseHeld, parseSeed, readLink } from "../../site/play/link.js";
import { table } from "./tables.mjs";

const ask = (hash) => askProblems(readLink(hash).q, table(["fives", "sixes", "chance"]));

test("a link's mode and rules: unknown ones are named, the page's defaults used", () => {
  const { mode, rules, q, problems } = readLink("#mode=ask&rules=yatzy&dice=11256");
  assert.deepEqual([mode, rules, q.get("dice"), problems], ["ask", "yatzy", "11256", []]);
  assert.deepEqual(readLink("").problems, []);
  assert.deepEqual(readLink("#mode=fly&rules=chess"), { mode: "play", rules: "yahtzee", q: readLink("#mode=fly&rules=chess").q,
    problems: ["mode=fly: the mode is play or ask", "rules=chess: the rule sets here are yahtzee, yahtzee-no-bonus, yatzy"] });
});

test("an asked position's fields, each checked", () => {
  assert.deepEqual(ask("#dice=11256&used=fives&upper=5&rolls=0&bonus=0"), []);
  assert.deepEqual(ask("#dice=99999"), ["dice=99999: a roll is 5 dice, each 1 to 6, written as digits (dice=11256)"]);
  assert.deepEqual(ask("#dice=01256").length + ask("#dice=1125x").length + ask("#dice=112566").length, 3);
  assert.deepEqual(ask("#dice=1234&rolls=7"), ["dice=1234: a roll is 5 dice, each 1 to 6, written as digits (dice=11256)",
    "rolls=7: rerolls left are 0, 1, 2"]);
  assert.deepEqual(ask("#used=fives,ones,large_straight"), ["used=: test has no box ones, large_straight (its boxes: fives, sixes, chance)"]);
  assert.deepEqual(ask("#upper=-3&bonus=yes"), ["upper=-3: the upper total is a whole number", "bonus=yes: 1 (the Yahtzee box holds 50) or 0"]);
  assert.deepEqual(ask(`#dice=${"1".repeat(400)}`), ["dice=11111111111111111111…: a roll is 5 dice, each 1 to 6, written as digits (dice=11256)"]);
});

test("seeds and held dice", () => {
  assert.deepEqual([parseSeed("0"), parseSeed("4294967295"), parseSeed("4294967296"), parseSeed("9".repeat(400)), parseSeed("1e3"), parseSeed("")],
    [0, 4294967295, null, null, null, null]);
  assert.deepEqual(parseHeld("13", 5), [true, false, true, false, false]);
  assert.deepEqual([parseHeld("", 5), parseHeld("16", 5), parseHeld("11", 5), parseHeld("x", 5)],
    [[false, false, false, false, false], null, null, null]);
});
