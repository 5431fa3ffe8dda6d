// The "Play and ask" page: its view and controls. The numbers come from advisor.js (the one
// turn over the package's exported table) and game.js (a graded game); nothing here computes
// a value. The address's #fragment holds the mode, the rules and the position, or the game (its
// seed, its moves, the dice held), so a position can be linked and a reloaded page resumes its
// game: #mode=ask&rules=yatzy&dice=11256&used=ones,twos&upper=3&rolls=1,
// #mode=play&rules=yahtzee&seed=2026&moves=k12.s4&held=3. The last game's address is also kept
// in the browser's local storage, for the page opened again without one. A link that cannot be
// read says what is wrong with it.

import { loadTable } from "./advisor.js";
import { boxTitle, describe, Game, optionText } from "./game.js";
import { askProblems, parseHeld, parseSeed, readLink, remember, remembered, SEED_RULE, short, writeHash } from "./link.js";

const $ = (id) => document.getElementById(id);
const tables = new Map();      // rules name -> Promise<Table>, each fetched once
const view = { table: null, game: null, held: [], mode: "play", hint: null, askTable: null, firstAdviceMs: null };

/** The page's state for tests and the benchmark: the loaded tables and when advice first showed. */
window.yatzyPlay = { table: (name) => tableFor(name), view };

function tableFor(name) {
  if (!tables.has(name)) {
    const url = `tables/${name}.values.gz`;
    tables.set(name, loadTable(url).catch((err) => { tables.delete(name); throw err; }));
  }
  return tables.get(name);
}

function unsupported() {
  const missing = [["fetch", typeof fetch === "function"], ["DecompressionStream", typeof DecompressionStream === "function"],
    ["Web Crypto", !!(window.crypto && window.crypto.subtle)]].filter(([, ok]) => !ok).map(([name]) => name);
  if (!missing.length) return null;
  const crypto = missing.includes("Web Crypto") && !window.isSecureContext ? " (Web Crypto needs https or http://localhost)" : "";
  return `This browser cannot run the page: it lacks ${missing.join(", ")}${crypto}. Use a current Chrome, Edge, Firefox or Safari.`;
}

function showError(message) {
  $("status").hidden = true;
  $("error").textContent = message;
  $("error").hidden = !message;
}

async function loaded(name) {
  document.body.dataset.ready = "";
  $("status").hidden = false;
  $("status").lastChild.textContent = `Loading the solved ${name} table…`;
  showError("");
  try {
    return await tableFor(name);
  } catch (err) {
    showError(`Could not load the ${name} table: ${err.message}`);
    return null;
  }
}

// ---- the address ----------------------------------------------------------------------------

/** What is wrong with the link, said once (the page shows what it could make of the rest). */
function linkError(problems) {
  if (problems.length) showError(`This link cannot be read as it is: ${problems.join("; ")}.`);
}

// ---- dice as dice -----------------------------------------------------------------------------

const PIPS = { 1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[26, 26], [50, 50], [74, 74]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
  6: [[28, 25], [72, 25], [28, 50], [72, 50], [28, 75], [72, 75]] };

function dieSvg(d) {
  const pips = (PIPS[d] || []).map(([x, y]) => `<circle cx="${x}" cy="${y}" r="9"/>`).join("");
  return `<svg viewBox="0 0 100 100" aria-hidden="true" focusable="false">${pips || `<text x="50" y="62" text-anchor="middle" font-size="40">${d}</text>`}</svg>`;
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

// ---- play -----------------------------------------------------------------------------------

function newGame(seedText) {
  const text = (seedText || "").trim();
  const seed = text ? parseSeed(text) : crypto.getRandomValues(new Uint32Array(1))[0];
  if (seed === null) { showError(`Seed ${short(text)}: ${SEED_RULE}.`); return; }
  showError("");
  startGame(new Game(view.table, seed));
}

function startGame(game, held = null) {
  view.game = game;
  $("seed").value = String(game.seed);
  view.held = held || game.dice.map(() => false);
  view.hint = null;
  renderPlay();
}

/** The game the link holds (its seed, moves and held dice), or a new one where it holds none. */
function playFromLink(q) {
  const seedText = q.get("seed");
  if (seedText === null) { newGame(""); return; }
  const seed = parseSeed(seedText);
  if (seed === null) {
    newGame("");
    linkError([`seed=${short(seedText)}: ${SEED_RULE} (a new game with a random seed instead)`]);
    return;
  }
  const problems = [];
  let game;
  try {
    game = Game.replay(view.table, seed, q.get("moves") || "");
  } catch (err) {
    game = new Game(view.table, seed);
    problems.push(`moves=${q.get("moves")}: ${err.message} (the game starts again from its first roll)`);
  }
  let held = null;
  if (q.has("held") && !game.over) {
    held = parseHeld(q.get("held"), game.dice.length);
    if (!held || game.rollsLeft === 0 && held.some(Boolean)) {
      problems.push(`held=${q.get("held")}: the dice held are places 1 to ${game.dice.length}, each once, with a reroll left`);
      held = null;
    }
  }
  startGame(game, held);
  linkError(problems);
}

function renderPlay() {
  const game = view.game;
  const dice = $("dice");
  dice.replaceChildren(...game.dice.map((d, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "die";
    b.dataset.index = i;
    b.setAttribute("aria-pressed", String(view.held[i]));
    b.setAttribute("aria-label", `Die ${i + 1}: ${d}${view.held[i] ? ", held" : ""}`);
    b.disabled = game.over || game.rollsLeft === 0;
    b.innerHTML = dieSvg(d) + `<span class="key" aria-hidden="true">${i + 1}</span>`;
    b.addEventListener("click", () => toggle(i));
    return b;
  }));
  $("turn").textContent = game.over ? `Seed ${game.seed}: game over` : `Seed ${game.seed}: turn ${game.turn} of ${view.table.nBoxes}`;
  $("rolls-left").textContent = game.over ? "" : `${plural(game.rollsLeft, "reroll")} left`;
  $("reroll").disabled = game.over || game.rollsLeft === 0;
  $("hint").disabled = game.over;
  $("undo").disabled = game.history.length === 0;
  renderCard();
  renderHint();
  renderGrade();
  const held = view.held.map((h, i) => (h ? i + 1 : "")).join("");
  const hash = writeHash({ mode: "play", rules: game.table.name, seed: game.seed,
    ...(game.actions.length ? { moves: game.actions.join(".") } : {}), ...(held ? { held } : {}) });
  remember(hash);
  document.body.dataset.ready = view.table.name;
}

function renderCard() {
  const game = view.game;
  const t = view.table;
  const s = t.scoring;
  const points = game.over ? {} : game.boxPoints();
  const best = view.hint && view.hint.action === "box" ? view.hint.box : null;
  const upper = [];                      // the card's two parts: side by side on a phone
  const lower = [];
  const row = (name, cells, cls = "") => `<tr class="${cls}"><th scope="row">${name}</th>${cells}</tr>`;
  const lastUpper = s.upper_faces.reduce((last, f, b) => (f ? b : last), -1);
  t.boxes.forEach((name, b) => {
    const rows = b <= lastUpper ? upper : lower;
    if (name in game.scores) {
      rows.push(row(boxTitle(name), `<td data-box="${name}">${game.scores[name]}</td>`, game.scores[name] ? "filled" : "filled lost"));
    } else if (name in points && !game.over) {
      const p = points[name].points;
      rows.push(row(boxTitle(name), `<td class="cell"><button type="button" class="box${name === best ? " best" : ""}" data-box="${name}" aria-label="Score ${p} in ${boxTitle(name)}">${p}</button></td>`));
    } else {
      rows.push(row(boxTitle(name), `<td aria-label="not allowed now">–</td>`));
    }
    if (b === lastUpper && s.upper_bonus > 0) {
      const toGo = s.upper_bonus_threshold - game.upperTotal;
      const bonus = game.upperBonus ? String(game.upperBonus) : (toGo > 0 && !game.over ? `${toGo} to go` : "0");
      rows.push(row("Upper total", `<td id="upper-total">${game.upperTotal}</td>`, "sum"));
      rows.push(row(`Bonus (${s.upper_bonus} at ${s.upper_bonus_threshold})`, `<td id="upper-bonus">${bonus}</td>`, "sum"));
    }
  });
  if (s.yahtzee_bonus > 0) lower.push(row(`${boxTitle(t.boxes[s.yahtzee_index])} bonus`, `<td id="yahtzee-bonus">${game.yahtzeeBonus}</td>`, "sum"));
  lower.push(row("Total", `<td id="total">${game.total}</td>`, "sum"));
  const [upperPart, lowerPart] = $("card").querySelectorAll("tbody");
  upperPart.innerHTML = upper.join("");
  lowerPart.innerHTML = lower.join("");
  for (const button of $("card").querySelectorAll("button.box")) button.addEventListener("click", () => score(button.dataset.box));
}

function renderHint() {
  const box = $("hint-box");
  if (!view.hint || view.game.over) { box.replaceChildren(); return; }
  const total = view.game.total;
  const top = view.game.advice().slice(0, 3);
  box.innerHTML = `<strong>Hint:</strong> ${optionText(view.hint)}
    <p class="hint-note">Points still to come from here with optimal play (not the final score: add the ${total} on the card)</p>
    <ol>${top.map((o) => `<li>${optionText(o)}: ${o.expected.toFixed(2)} to come, final ${(total + o.expected).toFixed(2)}` +
      `${o.loss > 1e-4 ? ` (−${o.loss.toFixed(2)})` : ""}${o.tie ? '<span class="tie">tie</span>' : ""}</li>`).join("")}</ol>`;
}

function renderGrade() {
  const game = view.game;
  const grade = $("grade");
  const save = $("save");
  if (game.moves.length) {
    if (save.href.startsWith("blob:")) URL.revokeObjectURL(save.href);
    save.href = URL.createObjectURL(new Blob([JSON.stringify(game.log(), null, 1)], { type: "application/json" }));
    save.removeAttribute("aria-disabled");
  } else {
    save.setAttribute("aria-disabled", "true");
  }
  if (!game.over) { grade.replaceChildren(); return; }
  const s = game.summary();
  const worst = s.costliest.length
    ? `<p>Costliest decisions:</p><ol id="costliest">${s.costliest.map((d) => `<li>${describe(d)}</li>`).join("")}</ol>`
    : "<p>Every move was optimal.</p>";
  grade.innerHTML = `<div class="summary"><h2>Game over</h2>
    <p>Total: <strong id="grade-total">${s.total}</strong> points${s.bonus ? ` (bonuses ${s.bonus})` : ""}</p>
    <p>Optimal play expects <span id="grade-expected">${s.optimalExpected.toFixed(2)}</span> points from the start of a game</p>
    <p>Optimal moves: <span id="grade-optimal">${s.optimalMoves}</span> of <span id="grade-moves">${s.moves}</span></p>
    <p>Expected points lost against optimal play: <span id="grade-lost">${s.totalLoss.toFixed(2)}</span></p>
    <p>Luck (total − optimal expectation + points lost): <span id="grade-luck">${(s.luck >= 0 ? "+" : "") + s.luck.toFixed(2)}</span></p>
    ${worst}</div>`;
}

function toggle(i) {
  const game = view.game;
  if (game.over || game.rollsLeft === 0) return;
  view.held[i] = !view.held[i];
  renderPlay();
}

function act(move) {
  try {
    move();
    $("error").hidden = true;
  } catch (err) {
    showError(err.message);
  }
  view.hint = null;
  renderPlay();
}

function reroll() {
  const game = view.game;
  if (game.over || game.rollsLeft === 0) return;
  act(() => game.keep(view.held));
}

function score(box) {
  const game = view.game;
  if (game.over) return;
  act(() => { game.score(box); view.held = game.dice.map(() => false); });
}

function hint() {
  const game = view.game;
  if (game.over) return;
  const best = game.advice()[0];
  if (best.action === "keep") {           // hold the advised dice, each in one place
    const want = best.keep.slice();
    view.held = game.dice.map((d) => { const at = want.indexOf(d); if (at < 0) return false; want.splice(at, 1); return true; });
  }
  renderPlay();
  view.hint = best;
  renderCard();
  renderHint();
}

function undo() {
  if (view.game.undo()) {
    view.held = view.game.dice.map(() => false);
    view.hint = null;
    renderPlay();
  }
}

function onKey(event) {
  if (view.mode !== "play" || !view.game || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target.closest && target.closest("input, select, textarea")) return;
  const key = event.key;
  if (/^[1-9]$/.test(key) && Number(key) <= view.game.dice.length) toggle(Number(key) - 1);
  else if (key === "r" || key === "R") reroll();
  else if (key === "h" || key === "H") hint();
  else if (key === "u" || key === "U") undo();
  else if (key === "ArrowDown" || key === "ArrowUp") {      // pick a box on the card; Enter scores it
    const boxes = Array.from(document.querySelectorAll("#card button.box"));
    if (!boxes.length) return;
    const at = boxes.indexOf(document.activeElement);
    const next = at < 0 ? (key === "ArrowDown" ? 0 : boxes.length - 1) : (at + (key === "ArrowDown" ? 1 : boxes.length - 1)) % boxes.length;
    boxes[next].focus();
  }
  else if (key === "Enter") {              // the advisor's box, wherever focus is, but on a box or a link
    if (target.closest && target.closest("#card button.box, a")) return;
    const best = view.game.over ? null : view.game.advice().find((o) => o.action === "box");
    if (best) score(best.box);
  } else return;
  event.preventDefault();
}

// ---- ask ------------------------------------------------------------------------------------

function buildAsk(q) {
  const t = view.table;
  const s = t.scoring;
  const problems = askProblems(q, t);
  const dice = (q.get("dice") || "").split("").map(Number);
  const given = dice.length === s.n_dice && dice.every((d) => d >= 1 && d <= s.faces) ? dice : [1, 1, 2, 5, 6].slice(0, s.n_dice);
  $("ask-dice").replaceChildren(...given.map((d, i) => {
    const select = document.createElement("select");
    select.setAttribute("aria-label", `Die ${i + 1}`);
    for (let f = 1; f <= s.faces; f++) select.add(new Option(String(f), String(f), false, f === d));
    return select;
  }));
  const used = new Set((q.get("used") || "").split(",").filter(Boolean));
  $("ask-used").innerHTML = t.boxes.map((name) =>
    `<label><input type="checkbox" value="${name}"${used.has(name) ? " checked" : ""}> ${boxTitle(name)}</label>`).join("");
  $("ask-upper").value = /^\d{1,4}$/.test(q.get("upper") || "") ? q.get("upper") : "0";
  $("ask-bonus").checked = q.get("bonus") === "1";
  $("ask-bonus-label").hidden = !s.tracks_yahtzee_bonus;
  const rolls = q.get("rolls") ?? String(s.rolls_per_turn - 1);
  const radios = Array.from(document.querySelectorAll("input[name=rolls]"));
  const known = radios.some((radio) => radio.value === rolls) ? rolls : String(s.rolls_per_turn - 1);
  for (const radio of radios) radio.checked = radio.value === known;
  renderAsk();
  linkError(problems);
}

function askPosition() {
  return {
    dice: Array.from($("ask-dice").querySelectorAll("select"), (s) => Number(s.value)),
    used: Array.from($("ask-used").querySelectorAll("input:checked"), (c) => c.value),
    upperTotal: Number($("ask-upper").value || 0),
    yahtzeeBonus: view.table.scoring.tracks_yahtzee_bonus && $("ask-bonus").checked,
    rollsLeft: Number((document.querySelector("input[name=rolls]:checked") || { value: 0 }).value),
  };
}

function renderAsk() {
  const p = askPosition();
  const hash = writeHash({ mode: "ask", rules: view.table.name, dice: p.dice.join(""), used: p.used.join(","),
    upper: p.upperTotal, bonus: p.yahtzeeBonus ? 1 : 0, rolls: p.rollsLeft });
  $("ask-link").href = hash;
  const body = $("options").tBodies[0];
  let options;
  try {
    if (!Number.isInteger(p.upperTotal)) throw new Error("the upper total must be a whole number");
    options = view.table.advise(p);
  } catch (err) {
    $("ask-error").textContent = err.message;
    $("ask-error").hidden = false;
    body.replaceChildren();
    return;
  }
  $("ask-error").hidden = true;
  body.innerHTML = options.map((o, i) => `<tr class="${i === 0 ? "best" : ""}"><td>${i + 1}</td><td>${optionText(o)}${o.tie ? '<span class="tie" title="within 1e-4 of another option">tie</span>' : ""}</td>` +
    `<td>${o.expected.toFixed(4)}</td><td>${Math.max(0, o.loss).toFixed(4)}</td></tr>`).join("");
  if (view.firstAdviceMs === null) view.firstAdviceMs = performance.now();
  document.body.dataset.ready = view.table.name;
}

// ---- modes and start --------------------------------------------------------------------------

function setMode(mode) {
  view.mode = mode;
  $("play").hidden = mode !== "play";
  $("ask").hidden = mode !== "ask";
  $("tab-play").setAttribute("aria-selected", String(mode === "play"));
  $("tab-ask").setAttribute("aria-selected", String(mode === "ask"));
}

async function show(mode, rules, q, problems = []) {
  const ticket = (view.ticket = (view.ticket || 0) + 1);
  setMode(mode);
  $("rules").value = rules;
  const table = await loaded(rules);
  if (!table || ticket !== view.ticket) return;      // failed, or asked again since
  view.table = table;
  $("status").hidden = true;
  if (mode === "ask") {
    if (view.askTable === view.table && !q.toString()) renderAsk();   // the same position again
    else { view.askTable = view.table; buildAsk(q); }
  } else if (view.game && view.game.table === view.table && !q.has("seed")) {
    renderPlay();                                                      // the game goes on
  } else {
    playFromLink(q);
  }
  linkError(problems);
}

/** Another rule set: a game in progress on the one shown is thrown away only when the player says so. */
function changeRules() {
  const next = $("rules").value;
  const game = view.game;
  if (game && !game.over && game.moves.length && game.table.name !== next) {
    const shown = $("rules").selectedOptions[0].textContent;
    if (!confirm(`Start a ${shown} game? The ${game.table.name} game in progress (turn ${game.turn} of ${game.table.nBoxes}) will be lost.`)) {
      $("rules").value = view.table ? view.table.name : game.table.name;
      return;
    }
  }
  show(view.mode, next, new URLSearchParams());
}

function start() {
  const problem = unsupported();
  if (problem) { showError(problem); return; }
  if (location.hash.length <= 1 && remembered()) history.replaceState(null, "", remembered());   // the last game goes on
  const { mode, rules, q, problems } = readLink(location.hash);
  $("rules").addEventListener("change", changeRules);
  $("tab-play").addEventListener("click", () => show("play", $("rules").value, new URLSearchParams()));
  $("tab-ask").addEventListener("click", () => show("ask", $("rules").value, new URLSearchParams()));
  $("new-game").addEventListener("click", () => view.table && newGame($("seed").value));
  $("seed").addEventListener("keydown", (e) => { if (e.key === "Enter" && view.table) newGame($("seed").value); });
  $("reroll").addEventListener("click", reroll);
  $("hint").addEventListener("click", hint);
  $("undo").addEventListener("click", undo);
  $("ask-form").addEventListener("change", () => { showError(""); renderAsk(); });
  $("ask-form").addEventListener("input", (e) => { if (e.target.id === "ask-upper") renderAsk(); });
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", () => { const h = readLink(location.hash); show(h.mode, h.rules, h.q, h.problems); });   // a link followed
  show(mode, rules, q, problems);
}

start();
