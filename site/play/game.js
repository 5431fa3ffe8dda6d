// A game played move by move in the browser, every move graded against the advisor, as the
// package's coach does it (advice/coach.py): a move's loss is how many expected final points it
// gives up against the advisor's first choice; at the end the total, what optimal play expects
// from the start, the optimal moves, the expected points lost, luck and the costliest moves.
// The game saves as the JSON log `yatzy grade` reads (advice/gamelog.py, version 2), and as a
// short text of its moves (`Game.replay` plays it back: a reloaded page resumes). No DOM here.

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
    this.actions = [];            // the moves as the address writes them: "k13" holds dice 1 and 3, "s4" scores box 4
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
    this.actions.push("k" + held.map((h, i) => (h ? i + 1 : "")).join(""));
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
    this.actions.push(`s${b}`);
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

  /**
   * A game played again from its seed and its moves as `actions` writes them ("k13.s4"): the
   * same dice, the same card, undo included. A move that cannot be played is refused by its
   * number, what it says and why.
   * @param {import("./advisor.js").Table} table
   * @param {number} seed
   * @param {string} text the moves, "." between them ("" for none)
   * @returns {Game}
   */
  static replay(table, seed, text) {
    const game = new Game(table, seed);
    (text ? text.split(".") : []).forEach((action, i) => {
      const where = `move ${i + 1} (${action})`;
      const keep = /^k([1-9]*)$/.exec(action);
      const box = /^s(\d{1,2})$/.exec(action);
      try {
        if (keep) {
          const places = keep[1].split("").map(Number);
          if (places.some((d) => d > game.dice.length) || new Set(places).size !== places.length) {
            throw new Error(`it holds dice ${places.join(", ")}; the dice are 1 to ${game.dice.length}, each once`);
          }
          game.keep(game.dice.map((_, d) => places.includes(d + 1)));
        } else if (box && Number(box[1]) < table.nBoxes) {
          game.score(table.boxes[Number(box[1])]);
        } else {
          throw new Error(`a move is k and the dice held (k13: hold dice 1 and 3) or s and a box number from 0 to ${table.nBoxes - 1}`);
        }
      } catch (err) {
        throw new Error(`${where} cannot be played: ${err.message}`);
      }
    });
    return game;
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

/**
 * How a box reads to a player, as the package's `box_label`: "large_straight" is "Large straight".
 * @param {string} name the box's name in the rules
 */
export function boxTitle(name) {
  const words = name.replace(/_/g, " ");     // as Python's str.capitalize: the rest in lower case
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}

/**
 * How an option reads to a player, as the package's `Advice.text`: its label with the box's
 * display name ("score Large straight now", "keep 1 1", "reroll all").
 * @param {{action: string, box: string|null, label: string}} option
 */
export function optionText(option) {
  const scored = `score ${option.box}`;      // the box after "score", never a match inside that word
  return option.action === "box" && option.label.startsWith(scored)
    ? `score ${boxTitle(option.box)}${option.label.slice(scored.length)}` : option.label;
}

/** How a decision reads in the summary, as coach.Decision does (boxes by their display names). */
export function describe(decision) {
  const p = decision.position;
  const where = `turn ${decision.turn}, dice ${p.dice.join(" ")}, ${p.rollsLeft} reroll${p.rollsLeft === 1 ? "" : "s"} left`;
  if (decision.optimal) return `${where}: ${optionText(decision.choice)} (optimal)`;
  return `${where}: ${optionText(decision.choice)}, optimal was ${optionText(decision.best)} (lost ${decision.loss.toFixed(2)} points)`;
}
