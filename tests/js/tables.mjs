// Small rule sets written as data, as `yatzy export` writes their header, for the unit tests.
import { Table } from "../../site/play/advisor.js";

function multisets(n, faces, start = 1) {
  if (n === 0) return [[]];
  const out = [];
  for (let f = start; f <= faces; f++) for (const rest of multisets(n - 1, faces, f)) out.push([f, ...rest]);
  return out;
}

const sum = (dice) => dice.reduce((a, b) => a + b, 0);
const most = (dice) => Math.max(...dice.map((d) => dice.filter((e) => e === d).length));
const BOXES = {
  fives: { face: 5, score: (d) => 5 * d.filter((x) => x === 5).length },
  sixes: { face: 6, score: (d) => 6 * d.filter((x) => x === 6).length },
  three_of_a_kind: { score: (d) => (most(d) >= 3 ? sum(d) : 0) },
  full_house: { score: (d) => { const c = d.map((x) => d.filter((e) => e === x).length); return c.includes(3) && c.includes(2) ? 25 : 0; }, joker: 25 },
  yahtzee: { score: (d) => (most(d) === 5 ? 50 : 0) },
  chance: { score: sum },
};

/** A header as `yatzy export` writes it, for these boxes (5 dice, 6 faces, 3 rolls a turn). */
export function header(names, rules = {}) {
  const rolls = multisets(5, 6);
  const upperBonus = rules.upper_bonus || 0;
  const yi = names.indexOf("yahtzee");
  const tracks = yi >= 0 && (rules.yahtzee_bonus > 0 || (rules.joker || "none") !== "none");
  const scoring = {
    n_dice: 5, faces: 6, rolls_per_turn: 3, boxes: names,
    upper_faces: names.map((n) => BOXES[n].face || 0),
    upper_bonus_threshold: rules.threshold || 63, upper_bonus: upperBonus,
    upper_cap: upperBonus ? rules.threshold || 63 : 0, yahtzee_index: yi,
    yahtzee_bonus: rules.yahtzee_bonus || 0, joker: rules.joker || "none",
    tracks_yahtzee_bonus: tracks, forced_order: false, rolls,
    score_table: rolls.map((d) => names.map((n) => BOXES[n].score(d))),
    joker_table: rolls.map((d) => names.map((n) => (most(d) === 5 && BOXES[n].joker !== undefined ? BOXES[n].joker : BOXES[n].score(d)))),
  };
  const nUpper = scoring.upper_cap + 1;
  const nFlags = tracks ? 2 : 1;
  return { format: "yatzy-state-values", version: 1, rules: "test", layout: "dense", value_type: "float32-le",
    n_boxes: names.length, n_upper: nUpper, n_flags: nFlags, count: (1 << names.length) * nUpper * nFlags,
    expected_score: 0, scoring };
}

/** A table whose every state is worth 0 except those given (value(mask, upper, flag) = v). */
export function table(names, rules = {}, values = []) {
  const h = header(names, rules);
  const v = new Float32Array(h.count);
  for (const [mask, upper, flag, x] of values) v[(mask * h.n_upper + upper) * h.n_flags + flag] = x;
  return new Table(h, v);
}

