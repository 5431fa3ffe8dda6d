// The state-value table file of yatzy-core (`yatzy export --what values`, engine/value_tables.py)
// read in the browser, trusting nothing before it is checked: every header field is bounded by what
// this page plays (LIMITS) and the shape agrees with the scoring before any work, a gzip stream is
// inflated no further than the header promises, and one SHA-256 covers the header and the values.
// advisor.js turns what this returns into a Table.

export const MAGIC = "YATZYVAL";
export const FORMAT_VERSION = 2;
export const FORMAT = "yatzy-state-values";
export const LAYOUT = "dense";
export const VALUE_TYPE = "float32-le";
/**
 * What this page reads, checked before any work: a header of at most `header` bytes, at most
 * `values` float32 values (yatzy's table has 2,097,152), 1..20 boxes, 1..6 dice of 2..12 faces
 * with at most `keepers` kept-dice combinations (5 dice of 6 faces: 462; the page builds them all).
 */
export const LIMITS = Object.freeze({ header: 1 << 23, values: 1 << 25, boxes: 20, keepers: 2000, upper: 10001 });
const PREFIX = 48;                 // magic, format version, header length, SHA-256 of the rest

/**
 * A table file's header and values, from its bytes (gzip-compressed or not), trusted only once
 * checked: the header's fields bounded by what this page reads and agreeing with each other
 * (`checkHeader`) before any work, the stream inflated no further than the header promises, the
 * SHA-256 of header and values.
 * @param {Uint8Array} bytes the file (what `yatzy export --what values` writes)
 * @returns {Promise<{header: object, values: Float32Array}>}
 * @throws {Error} naming what is wrong
 */
export async function readTableFile(bytes) {
  const input = new ByteReader(bytes[0] === 0x1f && bytes[1] === 0x8b ? inflating(bytes) : whole(bytes));
  try {
    const prefix = await input.take(PREFIX);
    if (prefix.length < PREFIX || new TextDecoder().decode(prefix.subarray(0, 8)) !== MAGIC) {
      throw new Error(`not a state-value table (no ${MAGIC} magic)`);
    }
    const view = new DataView(prefix.buffer, prefix.byteOffset, prefix.byteLength);
    const version = view.getUint32(8, true);
    if (version !== FORMAT_VERSION) throw new Error(`table format version ${version}, this page reads ${FORMAT_VERSION}`);
    const length = view.getUint32(12, true);
    if (length > LIMITS.header || length % 4) throw new Error(`the table's header is ${length} bytes; this page reads up to ${LIMITS.header} (a multiple of 4)`);
    const text = await input.take(length);
    if (text.length !== length) throw new Error(`the table's header is cut short (${text.length} of ${length} bytes)`);
    let header;
    try {
      header = JSON.parse(new TextDecoder().decode(text));
    } catch (err) {
      throw new Error(`the table's header is damaged (${String(err.message).slice(0, 100)})`);
    }
    const count = checkHeader(header);
    const signed = new Uint8Array(length + 4 * count);    // header and values: what the SHA-256 covers
    signed.set(text);
    const body = await input.take(4 * count);
    if (body.length !== 4 * count) throw new Error(`the table holds ${body.length} bytes of values, its header says ${count} float32`);
    if ((await input.take(1)).length) throw new Error(`the table holds more bytes than its header's ${count} float32 values (a damaged file)`);
    signed.set(body, length);
    if (await sha256(signed) !== hex(prefix.subarray(16, PREFIX))) {
      throw new Error("checksum mismatch: the table's header and values do not match their SHA-256 (a damaged or changed file)");
    }
    return { header, values: new Float32Array(signed.buffer, length, count) };
  } finally {
    input.cancel();
  }
}

/** A file's bytes as one chunk. */
function whole(bytes) {
  let sent = false;
  return { read: async () => (sent ? { done: true } : (sent = true, { done: false, value: bytes })), cancel: () => {} };
}

/** A gzip stream inflated chunk by chunk as it is read (stopped when the reader cancels). */
function inflating(bytes) {
  if (typeof DecompressionStream !== "function") {
    throw new Error("this browser cannot decompress gzip (no DecompressionStream): use a current Chrome, Edge, Firefox or Safari");
  }
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip")).getReader();
  return {
    read: async () => {
      try {
        return await reader.read();
      } catch (err) {
        throw new Error(`the table is damaged (gzip: ${err.message || err})`);
      }
    },
    cancel: () => { reader.cancel().catch(() => {}); },
  };
}

/** Exactly the next n bytes of a chunked source (fewer at its end), read no further than asked. */
class ByteReader {
  constructor(source) { this.source = source; this.rest = new Uint8Array(0); }

  async take(n) {
    const out = new Uint8Array(n);
    let have = 0;
    while (have < n) {
      if (!this.rest.length) {
        const { done, value } = await this.source.read();
        if (done) return out.subarray(0, have);
        this.rest = value;
      }
      const part = this.rest.subarray(0, n - have);
      out.set(part, have);
      have += part.length;
      this.rest = this.rest.subarray(part.length);
    }
    return out;
  }

  cancel() { this.source.cancel(); }
}

function hex(bytes) { return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""); }

async function sha256(bytes) {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) throw new Error("this browser cannot check the table (no Web Crypto: the page must be served over http://localhost or https)");
  return hex(new Uint8Array(await subtle.digest("SHA-256", bytes)));
}

function wholeField(where, object, key, lo, hi) {
  const v = object[key];
  if (!Number.isInteger(v) || v < lo || v > hi) {
    throw new Error(`the table's ${where}${key} must be a whole number ${lo}..${hi}, got ${shown(v)}`);
  }
  return v;
}

function choose(n, k) {
  let out = 1;
  for (let i = 1; i <= k; i++) out = out * (n - k + i) / i;
  return Math.round(out);
}

const isWholeRow = (row, width) => Array.isArray(row) && row.length === width
  && row.every((x) => Number.isInteger(x) && x >= 0 && x <= 1e6);

/**
 * The number of values a header promises, once every field that shapes the table or scores a
 * roll is bounded by `LIMITS` and agrees with the others (as the package's read_value_table checks).
 * @param {object} header the file's JSON header
 * @returns {number} its count
 * @throws {Error} naming the field
 */
export function checkHeader(header) {
  if (header === null || typeof header !== "object" || Array.isArray(header)) throw new Error("the table's header is damaged (not a JSON object)");
  if (header.format !== FORMAT || header.layout !== LAYOUT || header.value_type !== VALUE_TYPE) {
    throw new Error(`table layout ${String(header.layout).slice(0, 20)} of ${String(header.value_type).slice(0, 20)} is not one this page reads`);
  }
  if (typeof header.rules !== "string" || !["string", "undefined"].includes(typeof (header.rule_file ?? undefined))) {
    throw new Error("the table's rules (a name) or rule_file (text) is damaged");
  }
  const nBoxes = wholeField("", header, "n_boxes", 1, LIMITS.boxes);
  const nUpper = wholeField("", header, "n_upper", 1, LIMITS.upper);
  const nFlags = wholeField("", header, "n_flags", 1, 2);
  const count = wholeField("", header, "count", 1, LIMITS.values);
  if (count !== 2 ** nBoxes * nUpper * nFlags) throw new Error(`the table's count ${count} is not 2**n_boxes * n_upper * n_flags = ${2 ** nBoxes * nUpper * nFlags}`);
  if (typeof header.expected_score !== "number" || !Number.isFinite(header.expected_score)) throw new Error("the table's expected_score is not a number");
  const s = header.scoring;
  if (s === null || typeof s !== "object" || Array.isArray(s)) throw new Error("the table's header has no scoring (the rules as data)");
  const nDice = wholeField("scoring.", s, "n_dice", 1, 6);
  const faces = wholeField("scoring.", s, "faces", 2, 12);
  if (choose(nDice + faces, faces) > LIMITS.keepers) throw new Error(`${nDice} dice of ${faces} faces are more than this page plays`);
  wholeField("scoring.", s, "rolls_per_turn", 1, 10);
  const threshold = wholeField("scoring.", s, "upper_bonus_threshold", 0, LIMITS.upper - 1);
  const cap = wholeField("scoring.", s, "upper_cap", 0, LIMITS.upper - 1);
  wholeField("scoring.", s, "upper_bonus", 0, 10000);
  wholeField("scoring.", s, "yahtzee_bonus", 0, 10000);
  const yahtzee = wholeField("scoring.", s, "yahtzee_index", -1, nBoxes - 1);
  if (!["none", "free", "forced"].includes(s.joker) || typeof s.tracks_yahtzee_bonus !== "boolean" || typeof s.forced_order !== "boolean") {
    throw new Error("the table's scoring.joker, tracks_yahtzee_bonus or forced_order is damaged");
  }
  if (nUpper !== cap + 1 || (cap !== 0 && cap !== threshold) || nFlags !== (s.tracks_yahtzee_bonus ? 2 : 1) || (s.tracks_yahtzee_bonus && yahtzee < 0)) {
    throw new Error(`the table's shape (n_upper ${nUpper}, n_flags ${nFlags}) disagrees with its scoring`);
  }
  if (!Array.isArray(s.boxes) || s.boxes.length !== nBoxes || !s.boxes.every((b) => typeof b === "string")
      || !Array.isArray(s.upper_faces) || s.upper_faces.length !== nBoxes
      || !s.upper_faces.every((f) => Number.isInteger(f) && f >= 0 && f <= faces)) {
    throw new Error(`the table's scoring.boxes and upper_faces must be ${nBoxes} names and faces`);
  }
  const nRolls = choose(nDice + faces - 1, nDice);
  for (const [key, width] of [["rolls", nDice], ["score_table", nBoxes], ["joker_table", nBoxes]]) {
    if (!Array.isArray(s[key]) || s[key].length !== nRolls || !s[key].every((row) => isWholeRow(row, width))) {
      throw new Error(`the table's scoring.${key} must be ${nRolls} rows of ${width} whole numbers`);
    }
  }
  return count;
}

/** A value as an error message shows it (NaN, "12", 3.7, null: what was given). */
export function shown(value) {
  return typeof value === "number" ? String(value) : String(JSON.stringify(value)).slice(0, 40);
}

