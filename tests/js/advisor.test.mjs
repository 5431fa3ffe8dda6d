// Unit tests of site/play/advisor.js on small exact cases: `node --test tests/js/`.
// Rule sets are written here as data (the header `yatzy export` writes), values by hand, so
// every number below is exact arithmetic. With YATZY_JS_FIXTURE set (tests/test_play_js.py
// does), a table exported by the package is also checked against the package's own `advise`.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { checkHeader, parseTable, Table, TIE } from "../../site/play/advisor.js";
import { header, table } from "./tables.mjs";

const options = (t, position) => t.advise(position).map((o) => [o.label, o.expected, o.tie]);

test("the last turn with only chance open: exact expectations of the keepers", () => {
  const t = table(["chance"]);
  assert.deepEqual(options(t, { dice: [1, 2, 3, 5, 6], rollsLeft: 0 }), [["score chance", 17, false]]);
  const one = t.advise({ dice: [1, 2, 3, 5, 6], rollsLeft: 1 });
  assert.equal(one[0].label, "keep 5 6");
  assert.equal(one[0].expected, 11 + 3 * 3.5);                       // three dice rerolled once
  assert.equal(one.find((o) => o.label === "keep 3 5 6").expected, 14 + 2 * 3.5);
  assert.equal(one.find((o) => o.label === "score chance now").loss, 21.5 - 17);
  assert.equal(one.length, 1 + 31);                                  // the box; 32 sub-keepers but all 5 dice
  const two = t.advise({ dice: [1, 2, 3, 5, 6], rollsLeft: 2 });
  assert.equal(two[0].label, "keep 5 6");
  assert.equal(two[0].expected, 11 + 3 * 4.25);                      // a die with one reroll left: 4.25
});

test("exact ties are ordered by the package's rule: more dice first, and marked", () => {
  // turn.py's example: only three of a kind open, 1 1 2 3 6 with one reroll: keep 6 = keep 1 1 = 85/18
  const t = table(["three_of_a_kind"]);
  const ranked = t.advise({ dice: [1, 1, 2, 3, 6], rollsLeft: 1 });
  assert.deepEqual(ranked.slice(0, 2).map((o) => o.label), ["keep 1 1", "keep 6"]);
  assert.ok(Math.abs(ranked[0].expected - 85 / 18) < 1e-12 && Math.abs(ranked[1].expected - 85 / 18) < 1e-12);
  assert.ok(ranked[0].tie && ranked[1].tie && !ranked[2].tie);
  assert.ok(ranked[1].loss <= TIE);
});

test("the forced joker: the matching upper box, else a lower box at the joker values, with the bonus", () => {
  const names = ["fives", "sixes", "full_house", "yahtzee", "chance"];
  const t = table(names, { upper_bonus: 35, threshold: 20, yahtzee_bonus: 100, joker: "forced" });
  const bit = (...boxes) => boxes.reduce((m, n) => m | (1 << names.indexOf(n)), 0);
  const sixes = t.dice.roll([6, 6, 6, 6, 6]);
  const allowed = (mask, flag) => names.filter((_, b) => t.scoreBox(mask, 0, flag, sixes, b).allowed);
  assert.deepEqual(allowed(bit("yahtzee"), 1), ["sixes"]);
  const s = t.scoreBox(bit("yahtzee"), 0, 1, sixes, names.indexOf("sixes"));
  assert.deepEqual([s.boxPoints, s.upperBonus, s.yahtzeeBonus, s.points, s.upper], [30, 35, 100, 165, 20]);
  assert.deepEqual(allowed(bit("yahtzee", "sixes"), 1), ["full_house", "chance"]);
  assert.equal(t.scoreBox(bit("yahtzee", "sixes"), 0, 1, sixes, names.indexOf("full_house")).points, 25 + 100);
  assert.deepEqual(allowed(bit("yahtzee", "sixes", "full_house", "chance"), 1), ["fives"]);
  assert.equal(t.scoreBox(bit("yahtzee", "sixes", "full_house", "chance"), 0, 0, sixes, 0).points, 0);   // scratched: no 100
  const y = t.scoreBox(0, 0, 0, sixes, names.indexOf("yahtzee"));
  assert.deepEqual([y.points, y.flag], [50, 1]);                                                        // now it holds 50
  assert.equal(t.scoreBox(0, 0, 0, sixes, names.indexOf("full_house")).points, 0);                     // five alike is no full house
});

test("the upper bonus is paid once, when the capped total crosses the threshold", () => {
  const t = table(["fives", "sixes"], { upper_bonus: 50, threshold: 20 });
  const r = t.dice.roll([5, 5, 5, 6, 6]);
  assert.deepEqual([t.scoreBox(0, 0, 0, r, 1).points, t.scoreBox(0, 0, 0, r, 0).points], [12, 15]);
  assert.deepEqual([t.scoreBox(1, 10, 0, r, 1).points, t.scoreBox(1, 10, 0, r, 1).upper], [62, 20]);
  assert.equal(t.scoreBox(1, 20, 0, r, 1).points, 12);                                                  // reached already
});

test("the next state's value counts: the options are points now plus what follows", () => {
  // fives and sixes, no bonus: the state with sixes used is worth 9, with fives used 7
  const t = table(["fives", "sixes"], {}, [[2, 0, 0, 9], [1, 0, 0, 7]]);
  assert.deepEqual(options(t, { dice: [5, 5, 5, 6, 6], rollsLeft: 0 }), [["score fives", 15 + 7, false], ["score sixes", 12 + 9, false]]);
});

test("a position that cannot be is refused with its reason", () => {
  const t = table(["fives", "sixes", "full_house", "yahtzee", "chance"], { upper_bonus: 35, threshold: 20, yahtzee_bonus: 100, joker: "forced" });
  assert.throws(() => t.advise({ dice: [1, 2, 3, 4] }), /expected 5 dice/);
  assert.throws(() => t.advise({ dice: [1, 2, 3, 4, 7] }), /1\.\.6/);
  assert.throws(() => t.advise({ dice: [1, 2, 3, 4, 5], used: ["twos"] }), /unknown box twos/);
  assert.throws(() => t.advise({ dice: [1, 2, 3, 4, 5], used: ["fives"], upperTotal: 3 }), /upper total 3 cannot be made/);
  assert.throws(() => t.advise({ dice: [1, 2, 3, 4, 5], yahtzeeBonus: true }), /needs the yahtzee box used/);
  assert.throws(() => t.advise({ dice: [1, 2, 3, 4, 5], rollsLeft: 3 }), /0\.\.2/);
});

/** The file `yatzy export` writes (format 2): the SHA-256 over the header's bytes and the values. */
async function fileOf(h, values, gzip, options = {}) {
  const text = typeof h === "string" ? new TextEncoder().encode(h) : new TextEncoder().encode(JSON.stringify(h));
  const pad = (4 - ((48 + text.length) % 4)) % 4;
  const tail = options.tail || 0;                                   // bytes more than the header promises
  const rest = new Uint8Array(text.length + pad + values.byteLength + tail);
  rest.set(text);
  rest.fill(32, text.length, text.length + pad);
  rest.set(new Uint8Array(values.buffer), text.length + pad);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", rest));
  if (options.after) options.after(rest);                           // changed after signing
  const bytes = new Uint8Array(48 + rest.length);
  bytes.set(new TextEncoder().encode("YATZYVAL"));
  new DataView(bytes.buffer).setUint32(8, 2, true);
  new DataView(bytes.buffer).setUint32(12, text.length + pad, true);
  bytes.set(digest, 16);
  bytes.set(rest, 48);
  if (!gzip) return bytes;
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

test("a file is read gzip-compressed or not, and refused when its header or values do not match their SHA-256", async () => {
  const h = header(["chance"]);
  const values = new Float32Array([70 / 3, 0]);
  for (const gzip of [false, true]) {
    const t = await parseTable(await fileOf(h, values, gzip));
    assert.deepEqual(Array.from(t.values), [Math.fround(70 / 3), 0]);
  }
  const bad = new Float32Array([70 / 3 + 1, 0]);
  const tamper = async (change) => parseTable(await fileOf(h, values, true, { after: change }));
  await assert.rejects(tamper((rest) => { rest.set(new Uint8Array(bad.buffer), rest.length - 8); }), /checksum mismatch/);
  // the header is covered too: chance scoring 1 1 1 1 1 as 9 instead of 5 changes every answer
  const at = new TextDecoder().decode(await fileOf(h, values, false)).indexOf('"score_table":[[5]') - 48 + 16;
  await assert.rejects(tamper((rest) => { rest[at] = "9".charCodeAt(0); }), /checksum mismatch/);
  await assert.rejects(parseTable(new Uint8Array(40)), /not a state-value table/);
  const broken = await fileOf(h, values, false);
  broken[48] = 0x5b;                                                // "[" for "{": no longer an object's JSON
  await assert.rejects(parseTable(broken), /header is damaged/);
  const old = await fileOf(h, values, false);
  new DataView(old.buffer).setUint32(8, 1, true);
  await assert.rejects(parseTable(old), /format version 1, this page reads 2/);
});

test("hostile headers are refused before any work, each with one clear message", async () => {
  const values = new Float32Array(2);
  const h = header(["chance"]);
  const withScoring = (fields) => ({ ...h, scoring: { ...h.scoring, ...fields } });
  const cases = [
    [withScoring({ n_dice: 14 }), /scoring\.n_dice must be a whole number 1\.\.6, got 14/],
    [withScoring({ n_dice: 30 }), /scoring\.n_dice must be a whole number 1\.\.6, got 30/],
    [withScoring({ n_dice: 6, faces: 12 }), /6 dice of 12 faces are more than this page plays/],
    [withScoring({ yahtzee_bonus: 1000, tracks_yahtzee_bonus: true }), /disagrees with its scoring/],
    [withScoring({ score_table: [[5]] }), /scoring\.score_table must be 252 rows of 1/],
    [withScoring({ boxes: ["chance", "yahtzee"] }), /boxes and upper_faces must be 1 names/],
    [{ ...h, n_upper: 2 }, /count 2 is not 2\*\*n_boxes \* n_upper \* n_flags = 4/],
    [JSON.stringify(h).replace('"count":2', '"count":1e400'), /count must be a whole number 1\.\.33554432, got Infinity/],
    [{ ...h, scoring: undefined }, /has no scoring/],
    [{ ...h, rules: 7 }, /rules \(a name\) or rule_file \(text\) is damaged/],
    ["null", /not a JSON object/],
    ["[".repeat(200000) + "]".repeat(200000), /header is damaged/],
    ['{"count": 1e400}', /not one this page reads/],
  ];
  for (const [bad, message] of cases) {
    await assert.rejects(parseTable(await fileOf(bad, values, false)), message, String(message));
  }
  assert.throws(() => checkHeader({ ...h, n_flags: 2, count: 4 }), /disagrees with its scoring/);
  assert.throws(() => new Table({ ...h, n_upper: 2 }, values), /count 2 is not/);    // a Table checks its header too
  assert.equal(checkHeader(h), 2);
});

test("a gzip bomb is inflated no further than its header promises", async () => {
  const h = header(["chance"]);
  const bomb = await fileOf(h, new Float32Array(2), true, { tail: 64 << 20 });    // 64 MB of zeros after the values
  assert.ok(bomb.length < 200000);
  await assert.rejects(parseTable(bomb), /more bytes than its header's 2 float32 values/);
});

test("advise refuses a position's fields that are not what they stand for, not read as 0", () => {
  const t = table(["fives", "sixes", "chance"], { upper_bonus: 35, threshold: 20 });
  const dice = [1, 2, 3, 4, 5];
  for (const upperTotal of [NaN, Infinity, -5, 3.5, "10", true]) {
    assert.throws(() => t.advise({ dice, used: ["fives"], upperTotal }), /upperTotal must be a whole number >= 0/, String(upperTotal));
  }
  assert.throws(() => t.advise({ dice, rollsLeft: NaN }), /rerolls left must be 0\.\.2, got NaN/);
  assert.throws(() => t.advise({ dice, rollsLeft: "1" }), /rerolls left must be 0\.\.2, got "1"/);
  assert.throws(() => t.advise({ dice, yahtzeeBonus: "no" }), /yahtzeeBonus must be true or false, got "no"/);
  assert.throws(() => t.advise({ dice, used: "fives" }), /used must be a list of box names/);
  assert.throws(() => t.advise({ dice: "12345" }), /expected 5 dice, got "12345"/);
  assert.throws(() => t.advise(null), /a position is an object/);
  assert.equal(t.advise({ dice, used: ["fives"], upperTotal: 0, rollsLeft: 0 })[0].label, "score chance");
});

test("tables exported by the package give the package's advice", { skip: !process.env.YATZY_JS_FIXTURE }, async () => {
  const dir = process.env.YATZY_JS_FIXTURE;
  const fixtures = JSON.parse(readFileSync(`${dir}/advice.json`, "utf8"));
  assert.ok(fixtures.length >= 3);
  for (const { table: file, cases } of fixtures) {
    const t = await parseTable(new Uint8Array(readFileSync(`${dir}/${file}`)));
    assert.ok(cases.length >= 20);
    for (const { position, advice } of cases) {
      const where = `${file} ${JSON.stringify(position)}`;
      const mine = t.advise(position);
      assert.deepEqual(mine.map((o) => o.label).sort(), advice.map((a) => a[0]).sort(), where);
      const value = new Map(mine.map((o) => [o.label, o.expected]));
      for (const [lab, v] of advice) assert.ok(Math.abs(value.get(lab) - v) <= 1e-4, `${where} ${lab}: ${value.get(lab)} vs ${v}`);
      const option = new Map(mine.map((o) => [o.label, o.option]));   // the package's one option index
      for (const [lab, , index] of advice) assert.equal(option.get(lab), index, `${where} ${lab}: option`);
      assert.ok(advice[0][1] - value.get(mine[0].label) <= 1e-4, where);
    }
  }
});
