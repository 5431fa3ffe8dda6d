// A game played move by move in the browser, every move graded against the advisor, as the
// package's coach does it (advice/coach.py): a move's loss is how many expected final points it
// gives up against the advisor's first choice; at the end the total, what optimal play expects
// from the start, the optimal moves, the expected points lost, luck and the costliest moves.
// The game saves as the JSON log `yatzy grade` reads (advice/gamelog.py, version 2). No DOM here.

import { TIE } from "./advisor.js";

export const COSTLIEST = 3;

/**
 * A small seeded generator (mulberry32): the same seed, the same dice. Not numpy's: a seed here
 * gives other dice than the package's Game(seed=...); the log records the dice, never the seed.
 * @param {number} seed a whole number
 * @returns {{next: () => number, state: number}} next() is uniform in [0, 1)
 */
export function rng(seed) {
  const r = { state: seed >>> 0 };
  r.next = () => {
    let t = (r.state = (r.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return r;
}

const sortedDice = (dice) => dice.slice().sort((a, b) => a - b);

/** A game in progress on one table: the dice on the table (in their places), the card and the moves. */
export class Game {
  /**
   * @param {import("./advisor.js").Table} table the rule set's loaded table
   * @param {number} seed draws every roll
   */
  constructor(table, seed) {
    this.table = table;
    this.seed = seed;
    this.random = rng(seed);
    this.used = [];               // box names in the order filled
    this.scores = {};             // box -> points written in it (bonuses apart)
    this.upperTotal = 0;
    this.upperBonus = 0;
    this.yahtzeeBonus = 0;        // Yahtzee bonuses earned
    this.flag = false;            // the Yahtzee box holds its points
    this.total = 0;
    this.decisions = [];
    this.moves = [];              // the log's moves
    this.history = [];            // snapshots for undo
    this.dice = this.roll(table.dice.nDice);
    this.firstRoll = sortedDice(this.dice);
    this.rollsLeft = table.scoring.rolls_per_turn - 1;
  }

  roll(n) { return Array.from({ length: n }, () => 1 + Math.floor(this.random.next() * this.table.dice.faces)); }

  get over() { return this.used.length === this.table.nBoxes; }
  get turn() { return this.used.length + 1; }

  /** The position now, as the advisor takes it. */
  position() {
    return { dice: sortedDice(this.dice), used: this.used.slice(), upperTotal: this.upperTotal,
      yahtzeeBonus: this.flag, rollsLeft: this.rollsLeft };
  }

  /** Every option now, best first (the advisor's). */
  advice() { return this.table.advise(this.position()); }

  /** What each open box would score these dice now (allowed boxes only), bonuses included. */
  boxPoints() {
    const p = this.table.checkPosition(this.position());
    const out = {};
    this.table.boxes.forEach((name, b) => {
      const s = this.table.scoreBox(p.mask, p.upper, p.flag, p.roll, b);
      if (s.allowed) out[name] = s;
    });
    return out;
  }

  /**
   * Keep the dice at these places and reroll the others.
   * @param {boolean[]} held one per die on the table
   */
  keep(held) {
    if (this.over) throw new Error("the game is over");
    if (this.rollsLeft === 0) throw new Error("no rerolls left: score a box");
    const kept = sortedDice(this.dice.filter((_, i) => held[i]));
    const position = this.position();
    const ranked = this.advice();
    let choice = ranked.find((o) => o.action === "keep" && o.keep.join() === kept.join());
    if (!choice) {       // all dice kept: a roll spent, worth the best choice with one roll fewer
      const spent = this.table.advise({ ...position, rollsLeft: position.rollsLeft - 1 })[0];
      choice = { action: "keep", keep: kept, box: null, label: `keep ${kept.join(" ")}`, expected: spent.expected,
        loss: ranked[0].expected - spent.expected };
    }
    this.save();
    this.dice = this.dice.map((d, i) => (held[i] ? d : this.roll(1)[0]));
    this.rollsLeft -= 1;
    this.moves.push({ keep: kept, dice: sortedDice(this.dice) });
    return this.record(position, choice, ranked[0], null, 0);
  }

  /**
   * Score the dice in a box (with rerolls left: stop rolling now).
   * @param {string} box the box's name
   */
  score(box) {
    if (this.over) throw new Error("the game is over");
    const s = this.boxPoints()[box];
    if (!s) throw new Error(`box ${box} is ${this.used.includes(box) ? "already used" : "not allowed by the joker rule"}`);
    const position = this.position();
    const ranked = this.advice();
    const choice = ranked.find((o) => o.box === box);
    this.save();
    const b = this.table.boxes.indexOf(box);
    this.scores[box] = s.boxPoints;
    if (this.table.upperFaces[b] > 0) this.upperTotal += s.boxPoints;
    this.upperBonus += s.upperBonus;
    this.yahtzeeBonus += s.yahtzeeBonus;
    this.flag = s.flag === 1;
    this.total += s.points;
    this.used.push(box);
    const move = { score: box };
    if (!this.over) {
      this.dice = this.roll(this.table.dice.nDice);
      this.rollsLeft = this.table.scoring.rolls_per_turn - 1;
      move.dice = sortedDice(this.dice);
    }
    this.moves.push(move);
    return this.record(position, choice, ranked[0], s.points, s.upperBonus + s.yahtzeeBonus);
  }

  record(position, choice, best, points, bonus) {
    const decision = { turn: this.turn - (points === null ? 0 : 1), position, choice, best, points, bonus,
      loss: choice.loss, optimal: choice.loss <= TIE };
    this.decisions.push(decision);
    return decision;
  }

  save() {
    const { history, table, ...rest } = this;
    this.history.push(JSON.parse(JSON.stringify({ ...rest, random: this.random.state })));
  }

  /** Take the last move back (the dice it rolled too). */
  undo() {
    const last = this.history.pop();
    if (!last) return false;
    const { random, ...rest } = last;
    Object.assign(this, rest);
    this.random.state = random;
    return true;
  }

  /** The game as the JSON log `yatzy grade` reads (gamelog.py, version 2). */
  log() {
    const log = { format: "yatzy-game-log", version: 2, rules: this.table.name };
    if (this.table.header.rule_file) log.rule_file = this.table.header.rule_file;
    return { ...log, first_roll: this.firstRoll, moves: this.moves };
  }

  /** How the game went against optimal play, as coach.Summary. */
  summary() {
    const lost = this.decisions.reduce((a, d) => a + d.loss, 0);
    const expected = this.table.expectedScore;
    const worst = this.decisions.filter((d) => !d.optimal).sort((a, b) => b.loss - a.loss);
    return { total: this.total, bonus: this.upperBonus + this.yahtzeeBonus, optimalExpected: expected,
      moves: this.decisions.length, optimalMoves: this.decisions.filter((d) => d.optimal).length,
      totalLoss: lost, luck: this.total - (expected - lost), costliest: worst.slice(0, COSTLIEST), finished: this.over };
  }
}

/** How a decision reads in the summary, as coach.Decision does. */
export function describe(decision) {
  const p = decision.position;
  const where = `turn ${decision.turn}, dice ${p.dice.join(" ")}, ${p.rollsLeft} reroll${p.rollsLeft === 1 ? "" : "s"} left`;
  if (decision.optimal) return `${where}: ${decision.choice.label} (optimal)`;
  return `${where}: ${decision.choice.label}, optimal was ${decision.best.label} (lost ${decision.loss.toFixed(2)} points)`;
}
