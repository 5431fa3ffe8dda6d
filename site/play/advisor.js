// The advisor of yatzy-core in plain JavaScript: every option of a position, valued from the
// package's exported state values (`yatzy export --what values`, engine/value_tables.py).
//
// The package solves the game once; this module does only the one turn at the position on the
// screen, as engine/turn.py does it: every roll scored in every open box (points now plus the
// value of the state it leads to), averaged into the keepers (the keepers recursion), the best
// sub-keeper of each roll, once per reroll left. The options and their order are those of
// advice/ranking.py's `choices`: the allowed boxes (scored now, with rerolls left) in card order,
// then the keepers that reroll at least one die (most dice first, then smallest dice); best first,
// and among options within TIE of each other the earlier in that order. The table is float32, so
// the package's exact ties (1e-9) show here as values within 1e-4: such options are marked `tie`.
// No rule is written here: the scores, the joker values and the bonuses come from the table's
// header (`scoring`).

import { checkHeader, readTableFile, shown } from "./tablefile.js";

export { checkHeader, FORMAT, FORMAT_VERSION, LAYOUT, LIMITS, MAGIC, VALUE_TYPE } from "./tablefile.js";

/** Options whose values differ by at most TIE count as equally good (float32 values). */
export const TIE = 1e-4;

/**
 * Fetch a table, decompress it (gzip, by the browser's DecompressionStream) and check it.
 * @param {string} url where the table is (e.g. "tables/yahtzee.values.gz")
 * @param {{fetch?: typeof fetch}} [options] a fetch to use instead of the global one
 * @returns {Promise<Table>} the checked table
 * @throws {Error} with a message a player can read: fetch failed, unsupported browser, damaged file
 */
export async function loadTable(url, options = {}) {
  const get = options.fetch || globalThis.fetch;
  if (typeof get !== "function") throw new Error("this browser cannot fetch files (no fetch)");
  let response;
  try {
    response = await get(url);
  } catch (err) {
    throw new Error(`could not fetch ${url}: ${err.message || err} (is the site served by a web server?)`);
  }
  if (!response.ok) throw new Error(`could not fetch ${url}: HTTP ${response.status} ${response.statusText || ""}`.trim());
  return parseTable(new Uint8Array(await response.arrayBuffer()));
}

/**
 * A table from a file's bytes, gzip-compressed or not, checked first (tablefile.js: the header's
 * fields bounded and agreeing before any work, no more inflated than promised, the SHA-256).
 * @param {Uint8Array} bytes the file (what `yatzy export --what values` writes)
 * @returns {Promise<Table>}
 * @throws {Error} naming what is wrong
 */
export async function parseTable(bytes) {
  const { header, values } = await readTableFile(bytes);
  return new Table(header, values);
}

// ---- dice: rolls and keepers as sorted multisets, in the package's order (game/dice.py) ------

function multisets(n, faces) {
  const out = [];
  const walk = (start, left, dice) => {
    if (left === 0) { out.push(dice.slice()); return; }
    for (let f = start; f <= faces; f++) { dice.push(f); walk(f, left - 1, dice); dice.pop(); }
  };
  walk(1, n, []);
  return out;
}

/** Every keeper of 0..nDice dice (smallest first, as game/dice.py orders them) and its links. */
class Dice {
  constructor(nDice, faces) {
    this.nDice = nDice;
    this.faces = faces;
    this.keepers = [];                 // sorted dice of each keeper
    for (let n = 0; n <= nDice; n++) this.keepers.push(...multisets(n, faces));
    this.index = new Map(this.keepers.map((k, i) => [k.join(","), i]));
    this.rollOffset = this.keepers.findIndex((k) => k.length === nDice);
    this.nRolls = this.keepers.length - this.rollOffset;
    this.allRolls = Array.from({ length: this.nRolls }, (_, r) => r);
    this.addDie = this.keepers.map((k) => k.length === nDice ? null
      : Array.from({ length: faces }, (_, f) => this.index.get(sorted([...k, f + 1]).join(","))));
    this.smaller = this.keepers.map((k) => [...new Set(k.map((_, j) => this.index.get(k.filter((__, i) => i !== j).join(","))))]);
    // sub-keepers of every roll, in the order of preference: most dice, then keeper order
    this.subKeepers = [];
    for (let r = 0; r < this.nRolls; r++) {
      const roll = this.keepers[this.rollOffset + r];
      const subs = [];
      this.keepers.forEach((k, i) => { if (inside(k, roll)) subs.push(i); });
      subs.sort((a, b) => this.keepers[b].length - this.keepers[a].length || a - b);
      this.subKeepers.push(subs);
    }
  }

  /** Roll index of five (or n) dice in any order. */
  roll(dice) {
    return this.index.get(sorted(dice).join(",")) - this.rollOffset;
  }
}

function sorted(dice) { return dice.slice().sort((a, b) => a - b); }

function inside(small, big) {
  const left = big.slice();
  for (const d of small) {
    const at = left.indexOf(d);
    if (at < 0) return false;
    left.splice(at, 1);
  }
  return true;
}

// ---- the table and one turn --------------------------------------------------------------------

/** A loaded rule set: its header, its values and the turn computed from them. */
export class Table {
  /**
   * @param {object} header the file's JSON header (rules, fingerprint, scoring, ...)
   * @param {Float32Array} values one value per state index (the "dense" layout)
   */
  constructor(header, values) {
    checkHeader(header);
    this.header = header;
    this.values = values;
    const s = header.scoring;
    this.scoring = s;
    this.name = header.rules;
    this.boxes = s.boxes;
    this.nBoxes = s.boxes.length;
    this.dice = new Dice(s.n_dice, s.faces);
    const rollKeys = s.rolls.map((r) => r.join(","));
    this.dice.keepers.slice(this.dice.rollOffset).forEach((k, r) => {
      if (k.join(",") !== rollKeys[r]) throw new Error(`the table's roll ${r} is ${rollKeys[r]}, this page's is ${k}`);
    });
    this.nUpper = header.n_upper;
    this.nFlags = header.n_flags;
    this.upperFaces = s.upper_faces;
    this.tracksUpper = s.upper_bonus > 0;
    const kind = (dice) => dice.every((d) => d === dice[0]);
    this.kind = s.rolls.map(kind);
    // per roll: the upper box of its face when it is n of a kind (-1: none)
    this.matching = s.rolls.map((dice) => kind(dice) ? s.upper_faces.indexOf(dice[0]) : -1);
    this.scoreFlat = Int32Array.from(s.score_table.flat());     // roll-major: [r * nBoxes + b]
    this.jokerFlat = Int32Array.from(s.joker_table.flat());
    this._parts = new Int32Array(6);
    this.lowerMask = 0;               // the lower boxes other than the Yahtzee box
    s.upper_faces.forEach((f, b) => { if (!f && b !== s.yahtzee_index) this.lowerMask |= 1 << b; });
  }

  /** The optimal expected final score from the start of a game. */
  get expectedScore() { return this.header.expected_score; }

  /** The value of a state (expected points still to come; upper total capped). */
  value(mask, upper, flag) {
    return this.values[(mask * this.nUpper + upper) * this.nFlags + flag];
  }

  /**
   * What writing roll `r` in box `b` does from state (mask, upper capped, flag), as turn.score_box.
   * @returns {{allowed: boolean, boxPoints: number, upperBonus: number, yahtzeeBonus: number,
   *   points: number, mask: number, upper: number, flag: number}}
   */
  scoreBox(mask, upper, flag, r, b) {
    const allowed = this._outcome(mask, upper, flag, r, b);
    const [boxPoints, upperBonus, yahtzeeBonus, nextMask, nextUpper, nextFlag] = this._parts;
    return { allowed, boxPoints, upperBonus, yahtzeeBonus, points: boxPoints + upperBonus + yahtzeeBonus,
      mask: nextMask, upper: nextUpper, flag: nextFlag };
  }

  /** scoreBox without an object made: whether allowed; the parts left in this._parts. */
  _outcome(mask, upper, flag, r, b) {
    const s = this.scoring;
    const at = r * this.nBoxes + b;
    let allowed = !(mask >> b & 1);
    if (s.forced_order) allowed = allowed && ((~mask & (mask + 1)) === (1 << b));
    let boxPoints = this.scoreFlat[at];
    let yahtzeeBonus = 0;
    let newFlag = flag;
    if (s.tracks_yahtzee_bonus) {
      const yi = s.yahtzee_index;
      const joker = this.kind[r] && (mask >> yi & 1) === 1;
      if (joker && s.joker !== "none") {
        const match = this.matching[r];
        if (s.joker === "free") {
          if (match < 0 || (mask >> match & 1)) boxPoints = this.jokerFlat[at];
        } else {          // forced: the matching upper box if open, else a lower box, else any
          const matchOpen = match >= 0 && !(mask >> match & 1);
          const lowerOpen = (~mask & this.lowerMask) !== 0;
          const isUpper = this.upperFaces[b] > 0;
          allowed = allowed && (matchOpen ? b === match : (lowerOpen ? !isUpper : true));
          boxPoints = this.jokerFlat[at];
        }
      }
      if (joker && flag === 1) yahtzeeBonus = s.yahtzee_bonus;
      if (b === yi && boxPoints > 0) newFlag = 1;
    }
    let upperBonus = 0;
    let newUpper = upper;
    if (this.tracksUpper && this.upperFaces[b] > 0) {
      if (upper < s.upper_bonus_threshold && upper + boxPoints >= s.upper_bonus_threshold) upperBonus = s.upper_bonus;
      newUpper = Math.min(upper + boxPoints, s.upper_cap);
    }
    const parts = this._parts;
    parts[0] = boxPoints; parts[1] = upperBonus; parts[2] = yahtzeeBonus;
    parts[3] = mask | (1 << b); parts[4] = newUpper; parts[5] = newFlag;
    return allowed;
  }

  /** (nBoxes x nRolls) value of ending the turn with each roll in each box (-Infinity: not allowed). */
  finalValues(mask, upper, flag, rolls) {
    const n = this.dice.nRolls;
    const out = new Float64Array(this.nBoxes * n).fill(-Infinity);
    const parts = this._parts;
    for (const r of rolls) {
      for (let b = 0; b < this.nBoxes; b++) {
        if (this._outcome(mask, upper, flag, r, b)) {
          out[b * n + r] = parts[0] + parts[1] + parts[2] + this.values[(parts[3] * this.nUpper + parts[4]) * this.nFlags + parts[5]];
        }
      }
    }
    return out;
  }

  /** Expected value of every keeper from the values of the rolls (the keepers recursion). */
  keeperValues(rollValues) {
    const d = this.dice;
    const out = new Float64Array(d.keepers.length);
    out.set(rollValues, d.rollOffset);
    for (let k = d.rollOffset - 1; k >= 0; k--) {
      const children = d.addDie[k];
      let acc = 0;
      for (let f = 0; f < children.length; f++) acc += out[children[f]];
      out[k] = acc / d.faces;
    }
    return out;
  }

  /** Value of every roll: its best keeper (keeping all of it included). */
  bestSubkeeper(keep) {
    const d = this.dice;
    const best = Float64Array.from(keep);
    for (let k = 0; k < d.keepers.length; k++) {
      for (const s of d.smaller[k]) if (best[s] > best[k]) best[k] = best[s];
    }
    return best.subarray(d.rollOffset);
  }

  /**
   * Every option of a position, best first, as the package's `advise` lists them.
   * `option` is the package's one option index (yatzy_core/engine/batch_advice.py): box b is
   * option b, keeping keeper k (this.dice.keepers order, fewer dice than a roll) option nBoxes + k.
   * @param {Position} position see `checkPosition`
   * @returns {Option[]} each with its expected final points still to come and its loss
   */
  advise(position) {
    const p = this.checkPosition(position);
    const n = this.dice.nRolls;
    const final = this.finalValues(p.mask, p.upper, p.flag, p.rollsLeft > 0 ? this.dice.allRolls : [p.roll]);
    const options = [];
    for (let b = 0; b < this.nBoxes; b++) {
      const v = final[b * n + p.roll];
      if (v > -Infinity) options.push({ action: "box", keep: null, box: this.boxes[b], now: p.rollsLeft > 0, expected: v, option: b });
    }
    if (p.rollsLeft > 0) {
      let rolls = new Float64Array(n).fill(-Infinity);
      for (let b = 0; b < this.nBoxes; b++) {
        for (let r = 0; r < n; r++) if (final[b * n + r] > rolls[r]) rolls[r] = final[b * n + r];
      }
      let keep = null;
      for (let j = 1; j <= p.rollsLeft; j++) {
        keep = this.keeperValues(rolls);
        if (j < p.rollsLeft) rolls = this.bestSubkeeper(keep);
      }
      for (const k of this.dice.subKeepers[p.roll]) {
        if (this.dice.keepers[k].length < this.dice.nDice) {
          options.push({ action: "keep", keep: this.dice.keepers[k], box: null, now: false, expected: keep[k], option: this.nBoxes + k });
        }
      }
    }
    return ranked(options);
  }

  /**
   * A position checked against the rules, as the package's Position checks it.
   * @typedef {{dice: number[], used?: string[], upperTotal?: number, yahtzeeBonus?: boolean,
   *   rollsLeft?: number}} Position
   * @param {Position} position
   * @returns {{mask: number, upper: number, flag: number, roll: number, rollsLeft: number}}
   * @throws {Error} naming what is wrong (a die, a box, an upper total that cannot be made, ...)
   */
  checkPosition(position) {
    const s = this.scoring;
    if (position === null || typeof position !== "object") throw new Error(`a position is an object {dice, used, upperTotal, yahtzeeBonus, rollsLeft}, got ${position}`);
    const dice = position.dice ?? [];
    if (!Array.isArray(dice) || dice.length !== s.n_dice) throw new Error(`dice: expected ${s.n_dice} dice, got ${Array.isArray(dice) ? dice.length : shown(dice)}`);
    if (!dice.every((d) => Number.isInteger(d) && d >= 1 && d <= s.faces)) throw new Error(`dice must be whole numbers 1..${s.faces}`);
    const used = position.used ?? [];
    if (!Array.isArray(used)) throw new Error(`used must be a list of box names, got ${shown(used)}`);
    let mask = 0;
    for (const name of used) {
      const b = this.boxes.indexOf(name);
      if (b < 0) throw new Error(`unknown box ${typeof name === "string" ? name : shown(name)}; boxes are: ${this.boxes.join(", ")}`);
      if (mask >> b & 1) throw new Error(`box ${name} is given twice`);
      mask |= 1 << b;
    }
    if (used.length === this.nBoxes) throw new Error("all boxes are used: the game is over");
    if (s.forced_order && (mask & (mask + 1)) !== 0) throw new Error("these rules fill the boxes in card order");
    const upperTotal = position.upperTotal ?? 0;
    if (!Number.isInteger(upperTotal) || upperTotal < 0) throw new Error(`upperTotal must be a whole number >= 0, got ${shown(upperTotal)}`);
    if (!upperTotals(s, mask).has(upperTotal)) throw new Error(`upper total ${upperTotal} cannot be made with the used upper boxes`);
    const rollsLeft = position.rollsLeft ?? s.rolls_per_turn - 1;
    if (!Number.isInteger(rollsLeft) || rollsLeft < 0 || rollsLeft > s.rolls_per_turn - 1) {
      throw new Error(`rerolls left must be 0..${s.rolls_per_turn - 1}, got ${shown(rollsLeft)}`);
    }
    const bonus = position.yahtzeeBonus ?? false;
    if (![true, false, 0, 1].includes(bonus)) throw new Error(`yahtzeeBonus must be true or false, got ${shown(bonus)}`);
    const flag = position.yahtzeeBonus ? 1 : 0;
    if (flag && !s.tracks_yahtzee_bonus) throw new Error(`rules ${this.name} have no Yahtzee bonus`);
    if (flag && !(mask >> s.yahtzee_index & 1)) throw new Error(`the Yahtzee bonus needs the ${this.boxes[s.yahtzee_index]} box used`);
    return { mask, upper: Math.min(upperTotal, s.upper_cap), flag, roll: this.dice.roll(dice), rollsLeft };
  }
}

/** Every upper total the used upper boxes can hold (uncapped). */
export function upperTotals(scoring, mask) {
  let totals = new Set([0]);
  scoring.upper_faces.forEach((f, b) => {
    if (f && (mask >> b & 1)) {
      const next = new Set();
      for (const t of totals) for (let c = 0; c <= scoring.n_dice; c++) next.add(t + f * c);
      totals = next;
    }
  });
  return totals;
}

/**
 * Options best first: the best, and those within TIE of it in the listed order; then the same for
 * the rest (turn.ranked). Each gets its loss against the first and `tie` when another is within TIE.
 * @param {object[]} options in the listed order (boxes in card order, then keepers by preference)
 * @returns {Option[]}
 */
export function ranked(options) {
  const order = options.map((_, i) => i).sort((a, b) => options[b].expected - options[a].expected || a - b);
  const out = [];
  let left = order;
  while (left.length) {
    const top = options[left[0]].expected - TIE;
    out.push(...left.filter((i) => options[i].expected >= top).sort((a, b) => a - b));
    left = left.filter((i) => options[i].expected < top);
  }
  const best = options[out[0]].expected;
  const tie = new Array(options.length).fill(false);      // a neighbour in value within TIE
  for (let j = 1; j < order.length; j++) {
    if (options[order[j - 1]].expected - options[order[j]].expected <= TIE) tie[order[j - 1]] = tie[order[j]] = true;
  }
  return out.map((i) => ({ ...options[i], label: label(options[i]), loss: best - options[i].expected, tie: tie[i] }));
}

/**
 * How an option reads, as the package's `choice_label`: "keep 1 1", "reroll all", "score chance now".
 * @param {{action: string, keep: number[]|null, box: string|null, now: boolean}} option
 * @returns {string}
 */
export function label(option) {
  if (option.action === "box") return `score ${option.box}${option.now ? " now" : ""}`;
  return option.keep.length ? `keep ${option.keep.join(" ")}` : "reroll all";
}

/**
 * @typedef {{action: "keep"|"box", keep: number[]|null, box: string|null, now: boolean,
 *   expected: number, loss: number, label: string, tie: boolean}} Option
 */
