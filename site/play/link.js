// The play page's address: what a link asks for and what is wrong with it (each field said by
// name, a long one shortened), the game's address kept in local storage. The page's view
// (play.js) shows what this reads; nothing here touches the document.

export const RULES = ["yahtzee", "yahtzee-no-bonus", "yatzy"];
const SAVED = "yatzy-play-game";      // local storage: the address of the game last played
export const MAX_SEED = 4294967295;
export const SEED_RULE = `a seed is a whole number from 0 to ${MAX_SEED}`;

/** A link's field as an error message quotes it: a long one shortened. */
export const short = (text) => (text.length > 24 ? text.slice(0, 20) + "…" : text);

/**
 * What a link's #fragment asks for: the mode, the rules, its other fields (q) and what is wrong.
 * @param {string} hash "#mode=ask&rules=yatzy&dice=11256"
 * @returns {{mode: string, rules: string, q: URLSearchParams, problems: string[]}}
 */
export function readLink(hash) {
  const q = new URLSearchParams(hash.replace(/^#/, ""));
  const problems = [];
  const mode = q.get("mode") || "play";
  if (!["play", "ask"].includes(mode)) problems.push(`mode=${short(mode)}: the mode is play or ask`);
  const rules = q.get("rules") || "yahtzee";
  if (!RULES.includes(rules)) problems.push(`rules=${short(rules)}: the rule sets here are ${RULES.join(", ")}`);
  return { mode: mode === "ask" ? "ask" : "play", rules: RULES.includes(rules) ? rules : "yahtzee", q, problems };
}

/** The address's #fragment made of these fields (in this order), in place of the one shown. */
export function writeHash(params) {
  const hash = "#" + Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2C/g, ",")}`).join("&");
  history.replaceState(null, "", hash);
  return hash;
}

/** A seed as the page takes it (null: not one). */
export function parseSeed(text) {
  return /^\d{1,10}$/.test(text) && Number(text) <= MAX_SEED ? Number(text) : null;
}

/** Dice places held, as the address writes them ("13": the first and the third die). */
export function parseHeld(text, n) {
  const places = text.split("").map(Number);
  if (!/^[1-9]*$/.test(text) || places.some((d) => d > n) || new Set(places).size !== places.length) return null;
  return Array.from({ length: n }, (_, i) => places.includes(i + 1));
}

/** Keep the game's address for the page opened again without one. */
export function remember(hash) {
  try { localStorage.setItem(SAVED, hash); } catch { /* storage off (private mode): the link still holds the game */ }
}

/** The address last kept (null: none, or storage off). */
export function remembered() {
  try { return localStorage.getItem(SAVED); } catch { return null; }
}

/** What is wrong with an asked position's link (the checks the advisor cannot make: it gets numbers). */
export function askProblems(q, t) {
  const s = t.scoring;
  const problems = [];
  const dice = q.get("dice");
  const faces = (dice || "").split("").map(Number);
  if (dice !== null && !(/^\d+$/.test(dice) && faces.length === s.n_dice && faces.every((d) => d >= 1 && d <= s.faces))) {
    problems.push(`dice=${short(dice)}: a roll is ${s.n_dice} dice, each 1 to ${s.faces}, written as digits (dice=${"1125634".slice(0, s.n_dice)})`);
  }
  const unknown = (q.get("used") || "").split(",").filter((name) => name && !t.boxes.includes(name));
  if (unknown.length) problems.push(`used=: ${t.name} has no box ${unknown.map(short).join(", ")} (its boxes: ${t.boxes.join(", ")})`);
  const upper = q.get("upper");
  if (upper !== null && !/^\d{1,4}$/.test(upper)) problems.push(`upper=${short(upper)}: the upper total is a whole number`);
  const rerolls = Array.from({ length: s.rolls_per_turn }, (_, i) => i);
  const rolls = q.get("rolls");
  if (rolls !== null && !rerolls.map(String).includes(rolls)) problems.push(`rolls=${short(rolls)}: rerolls left are ${rerolls.join(", ")}`);
  const bonus = q.get("bonus");
  if (bonus !== null && !["0", "1"].includes(bonus)) problems.push(`bonus=${short(bonus)}: 1 (the Yahtzee box holds 50) or 0`);
  return problems;
}
