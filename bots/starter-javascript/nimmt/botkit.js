"use strict";
/**
 * The JavaScript bot kit: write a bot as a class with one method per decision, then
 * `run(bot)` connects it to the arena.
 *
 * It mirrors the Python kit (arena/botkit.py): a KitBot overrides only the decisions it cares
 * about; the others keep the arena's defaults (lowest tile, first legal luck space, no action
 * card, the row with the fewest bullheads).
 *
 *     const { KitBot, run } = require("./nimmt/botkit");
 *
 *     class Lowball extends KitBot {
 *       name = "lowball";
 *       chooseTile(view) { return Math.min(...view.hand); }
 *     }
 *
 *     if (require.main === module) run(new Lowball());
 *
 * Every method gets the seat's whole view (a plain object, see `viewFromProto`): hand, spaces,
 * scores, history, ... and `view.legal`, every legal option, as decisions
 * ({kind: "tile", tile}, {kind: "luck", row, space}, {kind: "action", card, row, newTile},
 * {kind: "take_row", row}).
 *
 * Where to connect: the arena sets NIMMT_ENGINE (e.g. unix:///run/nimmt/engine.sock) and
 * NIMMT_TOKEN_FILE, the file holding the bot's token; by hand, pass --connect ADDRESS and
 * --token TOKEN (or set NIMMT_TOKEN). A bot the arena starts on its own machine is also given
 * NIMMT_FRAMES, a second socket where the same conversation runs without gRPC (each message
 * prefixed by its length, arena.proto's "The framed socket"): the kit plays there whenever it
 * is set and no --connect was given (--connect frames+unix:///path names one by hand), since
 * gRPC costs more CPU per decision than a decision. run() plays until the match ends and exits
 * the process: 0 after a normal match, 1 if the arena ended the connection with an error (the
 * reason is logged to stderr, which the arena keeps as the bot's log), 2 for a usage error, 3 if
 * the bot's own code threw. A bot given its token as a file stays for another match when the
 * arena asks it to (MatchEnd.stay): it waits for a new token in the file, connects again (to the
 * same socket) and plays on with the same bot object (what it keeps carries over; never a deal:
 * the arena sees to that).
 *
 * Notes: in a method, this.annotate("text", values) says what the bot was thinking about the
 * decision, for its owner's eyes only (the site's viewer shows it to the owner at that step;
 * `nimmt match` writes it to notes/game-00001.json). `values` are numbers per legal option: an
 * array in the order of view.legal, or an object keyed by tile number. A note is cut to 1000
 * bytes of UTF-8 (between characters), values to 128 and to the number of options; a value
 * that is not finite counts as none. Notes never cause a fault.
 *
 * The packages @grpc/grpc-js, @grpc/proto-loader and protobufjs come from `npm ci` in this
 * folder when there is a node_modules here, else from the arena's runtime, read-only in every
 * sandbox at /opt/nimmt/runtime/node_modules (so an upload needs no node_modules). The protocol's
 * messages are read from nimmt/arena.json (protobufjs's descriptor of arena.proto, which
 * protos/generate.py writes), not parsed from the .proto. @grpc/grpc-js and @grpc/proto-loader
 * are loaded only for the gRPC socket: on the framed one the bot starts with protobufjs's light
 * build alone.
 */

const fs = require("fs");
const net = require("net");
const path = require("path");
const tls = require("tls");

const PROTOCOL_VERSION = 1;
const KIT = `nimmt-botkit-javascript/${PROTOCOL_VERSION}`;
const CONNECT_TIMEOUT = 10;
/** The longest note the arena keeps (bytes of UTF-8), and the most values. */
const NOTE_BYTES = 1000;
const MAX_VALUES = 128;

// Where the arena's runtime keeps the kit's npm packages inside the sandbox.
const RUNTIME_NODE_MODULES = "/opt/nimmt/runtime/node_modules";

/** `name` (a package, or a module in one: "protobufjs/light") from the bot's node_modules, else
 * from the runtime's. */
function requirePackage(name) {
  try {
    return require(name); // node_modules of the bot's folder, or NODE_PATH
  } catch (error) {
    const parts = name.split("/");
    const folder = parts.slice(0, name.startsWith("@") ? 2 : 1).join("/");
    if (error.code !== "MODULE_NOT_FOUND" || !fs.existsSync(path.join(RUNTIME_NODE_MODULES, folder))) {
      throw error;
    }
  }
  return require(path.join(RUNTIME_NODE_MODULES, name));
}

/** One of the kit's npm packages, loaded when first needed (loading @grpc/grpc-js and
 * @grpc/proto-loader is a large part of a bot's start, and a bot on the framed socket needs
 * neither: protobufjs's light build reads its messages); exits if it is missing. */
function kitPackage(name) {
  if (!kitPackage.loaded.has(name)) {
    try {
      kitPackage.loaded.set(name, requirePackage(name));
    } catch (error) {
      process.stderr.write(
        "the bot kit needs the npm packages @grpc/grpc-js, @grpc/proto-loader and protobufjs: the arena's " +
          "runtime provides them (./dev installs them); to run the bot yourself, run `npm ci` in " +
          `its folder (${error.message.split("\n")[0]})\n`,
      );
      process.exit(1);
    }
  }
  return kitPackage.loaded.get(name);
}
kitPackage.loaded = new Map();

const ACTION_CARDS = ["stop", "swap", "skip", "front", "ascending", "anywhere", "another", "plus5"];
const KINDS = {
  DECISION_KIND_TILE: "tile",
  DECISION_KIND_LUCK: "luck",
  DECISION_KIND_ACTION: "action",
  DECISION_KIND_TAKE_ROW: "take_row",
};

let deadline = Infinity; // performance.now() by which the current request must be answered

/** Seconds left to answer the current request (Infinity outside a request). */
function timeLeft() {
  return Math.max(0, (deadline - performance.now()) / 1000);
}

// ------------------------------------------------------------------------------ types
// (JSDoc, for editors that check JavaScript; the kit's values are plain objects)

/**
 * @typedef {{kind: "tile", tile: number}
 *   | {kind: "luck", row: number, space: number}
 *   | {kind: "action", card: string | null, row: number | null, newTile: number | null}
 *   | {kind: "take_row", row: number}} Decision
 * @typedef {{kind: Decision["kind"], seats: number[], tile: number | null,
 *   card: string | null}} Pending
 * @typedef {{seat: number, kind: Decision["kind"], card: string | null, tile: number | null,
 *   row: number | null, space: number | null, newTile: number | null}} Choice
 * @typedef {{variant: string, seat: number, players: number, turn: number, setNumber: number,
 *   layout: string[], spaces: number[][], markers: {row: number, space: number, card: string}[],
 *   stops: number[], hand: number[], actionCards: string[], chosen: number | null,
 *   scores: number[], handSizes: number[], actionCounts: number[], history: number[][],
 *   choices: Choice[], toPlace: {tile: number, seat: number}[], supplySize: number,
 *   luckDeckSize: number, actionDeckSize: number, pending: Pending | null,
 *   legal: Decision[]}} View
 * @typedef {{variant: string, players: number, seat: number, seed: bigint,
 *   gameId: string}} GameInfo
 */

// ------------------------------------------------------------------------------ decisions

const playTile = (tile) => ({ kind: "tile", tile });
const placeLuck = (row, space) => ({ kind: "luck", row, space });
/** An action card (`null` declines); `row` for stop, front, ascending, anywhere; `newTile`
 * for swap and another. */
const playAction = (card, { row = null, newTile = null } = {}) => ({
  kind: "action",
  card,
  row,
  newTile,
});
const takeRow = (row) => ({ kind: "take_row", row });

/** The engine's text form: "tile 37", "luck 2 4", "action stop row=3", "take_row 1". */
function decisionText(d) {
  if (d.kind === "tile") return `tile ${d.tile}`;
  if (d.kind === "luck") return `luck ${d.row} ${d.space}`;
  if (d.kind === "take_row") return `take_row ${d.row}`;
  let text = `action ${d.card ?? "none"}`;
  if (d.row !== null && d.row !== undefined) text += ` row=${d.row}`;
  if (d.newTile !== null && d.newTile !== undefined) text += ` new_tile=${d.newTile}`;
  return text;
}

const sameDecision = (a, b) => decisionText(a) === decisionText(b);

function decisionFromProto(m) {
  if (m.decision === "luck") return placeLuck(m.luck.row, m.luck.space);
  if (m.decision === "take_row") return takeRow(m.take_row.row);
  if (m.decision === "action") {
    const a = m.action;
    const card = a.card === "ACTION_CARD_NONE" ? null : a.card.slice("ACTION_CARD_".length).toLowerCase();
    return playAction(card, { row: a.row ?? null, newTile: a.new_tile ?? null });
  }
  return playTile(m.tile.tile);
}

function decisionToProto(d) {
  if (d.kind === "tile") return { tile: { tile: d.tile } };
  if (d.kind === "luck") return { luck: { row: d.row, space: d.space } };
  if (d.kind === "take_row") return { take_row: { row: d.row } };
  if (d.card !== null && !ACTION_CARDS.includes(d.card)) {
    throw new BotCodeError(
      `playAction() returned the unknown action card ${JSON.stringify(d.card)} ` +
        `(${ACTION_CARDS.join(", ")}, or null)`,
    );
  }
  const action = { card: d.card === null ? "ACTION_CARD_NONE" : `ACTION_CARD_${d.card.toUpperCase()}` };
  if (d.row !== null && d.row !== undefined) action.row = d.row;
  if (d.newTile !== null && d.newTile !== undefined) action.new_tile = d.newTile;
  return { action };
}

// ------------------------------------------------------------------------------ views

const luckName = (card) => (card === "LUCK_CARD_NONE" ? null : card.slice("LUCK_CARD_".length).toLowerCase());
const optional = (value) => (value === undefined ? null : value);

/**
 * The view as a plain object, the fields of arena.proto's Observation in camelCase: variant,
 * seat, players, turn, setNumber, layout (strings ".+-FDAC", none in the card game), spaces
 * (per row, per space: tile, 0 empty, -1 skipped), markers ([{row, space, card}]), stops,
 * hand, actionCards (names), chosen (or null), scores, handSizes, actionCounts, history (per
 * turn, per seat: the tile, 0 none), choices ([{seat, kind, card, tile, row, space, newTile}]),
 * toPlace ([{tile, seat}]), supplySize, luckDeckSize, actionDeckSize, pending ({kind, seats,
 * tile, card} or null once the game is over), legal (decisions).
 */
function viewFromProto(m) {
  return {
    variant: m.variant,
    seat: m.seat,
    players: m.players,
    turn: m.turn,
    setNumber: m.set_number,
    layout: m.layout,
    spaces: m.spaces.map((row) => row.tiles),
    markers: m.markers.map((mk) => ({ row: mk.row, space: mk.space, card: luckName(mk.card) })),
    stops: m.stops,
    hand: m.hand,
    actionCards: m.action_cards.map((c) => c.slice("ACTION_CARD_".length).toLowerCase()),
    chosen: optional(m.chosen),
    scores: m.scores,
    handSizes: m.hand_sizes,
    actionCounts: m.action_counts,
    history: m.history.map((turn) => turn.tiles),
    choices: m.choices.map((c) => {
      const kind = KINDS[c.kind];
      let card = null;
      if (kind === "luck") card = luckName(c.luck_card);
      if (kind === "action") card = c.action_card.slice("ACTION_CARD_".length).toLowerCase();
      return {
        seat: c.seat,
        kind,
        card,
        tile: optional(c.tile),
        row: optional(c.row),
        space: optional(c.space),
        newTile: optional(c.new_tile),
      };
    }),
    toPlace: m.to_place.map((p) => ({ tile: p.tile, seat: p.seat })),
    supplySize: m.supply_size,
    luckDeckSize: m.luck_deck_size,
    actionDeckSize: m.action_deck_size,
    pending: m.pending
      ? {
          kind: KINDS[m.pending.kind],
          seats: m.pending.seats,
          tile: optional(m.pending.tile),
          card: luckName(m.pending.card),
        }
      : null,
    legal: m.legal.map(decisionFromProto),
  };
}

// ------------------------------------------------------------------------------ the bot

/** Bullheads printed on a tile (the card game's table). */
function bullheads(tile) {
  if (tile === 55) return 7;
  if (tile % 11 === 0) return 5;
  if (tile % 10 === 0) return 3;
  if (tile % 5 === 0) return 2;
  return 1;
}

/** The row whose tiles carry the fewest bullheads (the topmost of equal rows). */
function fewestBullheadsRow(spaces) {
  const totals = spaces.map((row) => row.reduce((sum, t) => sum + (t > 0 ? bullheads(t) : 0), 0));
  return totals.indexOf(Math.min(...totals));
}

/** A random generator seeded from a 64-bit seed (splitmix64): `next()` in [0, 1). */
class Random {
  constructor(seed = 0n) {
    this.state = BigInt.asUintN(64, BigInt(seed));
  }

  next() {
    this.state = BigInt.asUintN(64, this.state + 0x9e3779b97f4a7c15n);
    let z = this.state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    z ^= z >> 31n;
    return Number(z >> 11n) / 2 ** 53;
  }

  /** An integer in [low, high). */
  int(low, high) {
    return low + Math.floor(this.next() * (high - low));
  }
}

/**
 * A bot with one method per decision; override the ones you want. `this.info` is the current
 * game ({variant, players, seat, seed (a BigInt), gameId}) and `this.rng` a Random seeded from
 * the game's seed. An override of startGame must call super.startGame(info).
 */
class KitBot {
  name = "kitbot";

  constructor() {
    this.info = { variant: "", players: 0, seat: 0, seed: 0n, gameId: "" };
    this.rng = new Random(0n);
    this._note = null;
    this._legal = [];
  }

  startGame(info) {
    this.info = info;
    this.rng = new Random(info.seed);
  }

  /** A game is over: the final view, scores and ranks in seat order. */
  endGame(view, scores, ranks) {}

  /**
   * Dispatches on view.pending.kind to the four methods below.
   * @param {View} view
   * @returns {Decision}
   */
  decide(view) {
    const pending = view.pending;
    if (!pending) throw new Error(`seat ${view.seat} has nothing to decide`);
    this._note = null;
    this._legal = view.legal;
    if (pending.kind === "tile") return playTile(number(this.chooseTile(view), "chooseTile", "a tile"));
    if (pending.kind === "luck") {
      const place = this.placeLuck(view, pending.card);
      if (!Array.isArray(place) || place.length !== 2) {
        throw new TypeError(`placeLuck() must return [row, space], not ${JSON.stringify(place)}`);
      }
      return placeLuck(number(place[0], "placeLuck", "a row"), number(place[1], "placeLuck", "a space"));
    }
    if (pending.kind === "action") {
      const action = this.playAction(view, pending.tile);
      if (action === null || action === undefined) return playAction(null);
      if (action.kind !== "action") {
        throw new TypeError(`playAction() must return playAction(...) or null, not ${JSON.stringify(action)}`);
      }
      return action;
    }
    return takeRow(number(this.takeRow(view, pending.tile), "takeRow", "a row"));
  }

  /**
   * The tile to reveal this turn, from view.hand. Default: the lowest.
   * @param {View} view
   * @returns {number}
   */
  chooseTile(view) {
    return Math.min(...view.hand);
  }

  /** [row, space] for the luck card `card` ("plus5", "final10") just drawn; the legal spaces
   * are view.legal. Default: the first.
   * @param {View} view
   * @param {string} card
   * @returns {[number, number]}
   */
  placeLuck(view, card) {
    return [view.legal[0].row, view.legal[0].space];
  }

  /** An action card to play on `tile` (yours, about to be placed), as playAction("stop",
   * {row: 3}), or null to keep the cards; the legal ones are view.legal. Default: null.
   * @param {View} view
   * @param {number} tile
   * @returns {Decision | null}
   */
  playAction(view, tile) {
    return null;
  }

  /** Card game: the row to take because `tile` is lower than every row's end. Default: the
   * row with the fewest bullheads.
   * @param {View} view
   * @param {number} tile
   * @returns {number}
   */
  takeRow(view, tile) {
    return fewestBullheadsRow(view.spaces);
  }

  /** Seconds left to answer the current request. */
  timeLeft() {
    return timeLeft();
  }

  /**
   * A note on the decision being made, for the bot's owner: `text`, and `values` per legal
   * option, an array in the order of view.legal or an object keyed by tile number. A later
   * call in the same decision replaces the note.
   * @param {string} text
   * @param {number[] | Object<number, number>} [values]
   */
  annotate(text, values) {
    let numbers = [];
    if (Array.isArray(values)) numbers = values.slice();
    else if (values && typeof values === "object") {
      numbers = this._legal.map((d) => (d.kind === "tile" && d.tile in values ? values[d.tile] : NaN));
    }
    this._note = { text: String(text ?? ""), values: numbers };
  }

  /** The note annotate() made for the decision just taken, or null. */
  note() {
    return this._note;
  }
}

/** `text` cut to at most `limit` bytes of UTF-8, never inside a character. */
function cutUtf8(text, limit = NOTE_BYTES) {
  const bytes = Buffer.from(String(text), "utf8");
  if (bytes.length <= limit) return bytes.toString("utf8");
  let end = limit;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--; // back to a character's first byte
  return bytes.subarray(0, end).toString("utf8");
}

/** A bot's note as the answer carries it: cut, at most one value per option, NaN for none. */
function boundedNote(note, options) {
  if (!note || typeof note !== "object") return null;
  const values = Array.isArray(note.values) ? note.values.slice(0, Math.min(MAX_VALUES, options)) : [];
  return {
    note: cutUtf8(note.text ?? ""),
    option_values: values.map((v) => (typeof v === "number" && Number.isFinite(v) ? v : NaN)),
  };
}

function number(value, method, what) {
  if (!Number.isInteger(value)) {
    throw new TypeError(`${method}() must return ${what} (an integer), not ${JSON.stringify(value)}`);
  }
  return value;
}

// ------------------------------------------------------------------------------ the match

/** The arena refused the bot or ended the match early; the message says why. */
class ArenaError extends Error {
  /** `code`: the gRPC status the arena ended the stream with (undefined if never reached). */
  constructor(message, code) {
    super(message);
    this.code = code;
  }
}
/** The bot's own code threw. */
class BotCodeError extends Error {}

function log(level, text) {
  if (level === "INFO" && log.quiet) return;
  const stamp = new Date().toISOString().replace("T", " ").slice(0, 19);
  process.stderr.write(`${stamp} nimmt.botkit ${level} ${text}\n`);
}
log.quiet = false;

function call(method, f) {
  try {
    return f();
  } catch (error) {
    if (error instanceof BotCodeError) throw error;
    const wrapped = new BotCodeError(`the bot's ${method}() threw ${error?.name ?? "a value"}: ${error?.message ?? error}`);
    wrapped.cause = error;
    throw wrapped;
  }
}

function shortKind(name) {
  return name.slice(name.lastIndexOf("_") + 1).toLowerCase();
}

/** Turns arena messages into calls of the bot and its answers into messages. */
class Session {
  /** `transport`: the socket it plays on, for the log ("gRPC" or "framed socket"). */
  constructor(bot, transport = "gRPC") {
    this.bot = bot;
    this.transport = transport;
    this.answers = 0;
    this.stay = false;
  }

  /** The reply to `message`, if it asks for one. */
  handle(message, received) {
    if (message.body === "request") {
      const request = message.request;
      deadline = received + request.deadline_ms;
      const view = viewFromProto(request.view);
      const decision = call("decide", () => this.bot.decide(view));
      if (!decision || !["tile", "luck", "action", "take_row"].includes(decision.kind)) {
        throw new BotCodeError(
          `the bot's decide() returned ${JSON.stringify(decision)}, not a decision ` +
            "(playTile, placeLuck, playAction or takeRow; view.legal lists the legal ones)",
        );
      }
      if (!view.legal.some((d) => sameDecision(d, decision))) {
        log(
          "WARNING",
          `request ${request.request_id}: decide() returned '${decisionText(decision)}', which is ` +
            `not among the legal options (${view.legal.slice(0, 12).map(decisionText).join(", ")}); ` +
            "the arena will count it as illegal",
        );
      }
      const spent = performance.now() - received;
      if (spent > request.deadline_ms) {
        log(
          "WARNING",
          `request ${request.request_id}: answered after ${Math.round(spent)} ms, the deadline was ${request.deadline_ms} ms`,
        );
      }
      deadline = Infinity;
      this.answers += 1;
      const answer = { request_id: request.request_id, decision: decisionToProto(decision) };
      const note = typeof this.bot.note === "function" ? call("note", () => this.bot.note()) : null;
      return { answer: Object.assign(answer, boundedNote(note, view.legal.length)) };
    }
    if (message.body === "game_start") {
      const s = message.game_start;
      const info = { variant: s.variant, players: s.players, seat: s.seat, seed: BigInt(s.seed), gameId: s.game_id };
      call("startGame", () => this.bot.startGame(info));
    } else if (message.body === "game_end") {
      const end = message.game_end;
      const view = viewFromProto(end.view);
      call("endGame", () => this.bot.endGame(view, end.scores, end.ranks));
      const seat = view.seat;
      const faults = end.faults
        .filter((f) => f.seat === seat)
        .map((f) => `; fault ${shortKind(f.kind)} in turn ${f.turn + 1}: ${f.detail}`)
        .join("");
      log(
        "INFO",
        `${end.game_id} over: seat ${seat}, score ${end.scores[seat]}, rank ${end.ranks[seat]} of ${end.ranks.length}${faults}`,
      );
    } else if (message.body === "notice") {
      const n = message.notice;
      let text = `${shortKind(n.kind)} (request ${n.request_id}, game ${n.game_id}): ${n.message}`;
      if (n.played) text += `; the arena played '${decisionText(decisionFromProto(n.played))}'`;
      log("WARNING", `arena notice: ${text}`);
    } else if (message.body === "welcome") {
      const w = message.welcome;
      log(
        "INFO",
        `in the match ${w.match_id} as '${w.bot_name}' (${this.transport}): ${w.games} games, ` +
          `${w.decision_ms} ms per decision + ${w.bank_ms} ms bank per game, dropped after ${w.max_faults} faults`,
      );
    } else if (message.body === "match_end") {
      const e = message.match_end;
      this.stay = Boolean(e.stay);
      log("INFO", `match over: ${e.games} games, ${this.answers} answers, ${e.faults} faults`);
    }
    return null;
  }
}

/** gRPC's status codes by number: the names a framed socket's status frame carries. */
const STATUS = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
];

/** The arena ended the connection with the status `code` (a name) other than OK. */
function statusError(code, details) {
  const number = STATUS.indexOf(code);
  return new ArenaError(
    `the arena ended the connection: ${code}: ${details || "(no details)"}`,
    number < 0 ? undefined : number,
  );
}

/** How messages become plain objects: field names as in arena.proto, 64-bit numbers and enums
 * as strings, every field present (its default if unset), and a oneof's name holding the field
 * that is set (@grpc/proto-loader's options; the framed socket gives the same objects). */
const MESSAGE_OPTIONS = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true };
/** arena.proto as protobufjs's JSON descriptor (protos/generate.py writes it beside the .proto):
 * reading it costs a bot less CPU at start than parsing the .proto. */
const DESCRIPTOR = path.join(__dirname, "arena.json");

let arenaDefinition = null;

/** The gRPC client's definition of the service (once), @grpc/proto-loader's from the descriptor. */
function loadDefinition() {
  arenaDefinition ??= kitPackage("@grpc/proto-loader").fromJSON(require(DESCRIPTOR), MESSAGE_OPTIONS);
  return arenaDefinition;
}

let arenaMessages = null;

/** The framed socket's messages (once), with protobufjs's light build alone: `write(message)`
 * encodes a BotMessage, `read(bytes)` decodes an EngineMessage, exactly as the gRPC client's
 * definition does (proto-loader's serializer and deserializer, without loading proto-loader). */
function loadMessages() {
  if (arenaMessages === null) {
    const root = kitPackage("protobufjs/light").Root.fromJSON(require(DESCRIPTOR));
    root.resolveAll();
    const bot = root.lookupType("nimmt.v1.BotMessage");
    const engine = root.lookupType("nimmt.v1.EngineMessage");
    arenaMessages = {
      write: (message) => bot.encode(bot.fromObject(message)).finish(),
      read: (bytes) => engine.toObject(engine.decode(bytes), MESSAGE_OPTIONS),
    };
  }
  return arenaMessages;
}

/** Connect `bot` to the arena at `address` (unix:///path: gRPC; frames+unix:///path: the framed
 * socket, see playFramed) and play until the match ends (a Promise); `credentials` for a remote
 * gateway (see remoteTarget); `stays`: say that this bot stays for another match if the arena
 * asks (Hello.stays; the session's `stay` says whether it did). */
function play(bot, address, token, connectTimeout = CONNECT_TIMEOUT, credentials = null, stays = false) {
  if (address.startsWith(FRAMED)) {
    return playFramed(bot, address.slice(FRAMED.length), token, connectTimeout, stays);
  }
  const grpc = kitPackage("@grpc/grpc-js");
  const arena = grpc.loadPackageDefinition(loadDefinition()).nimmt.v1;
  const client = new arena.Arena(address, credentials ?? grpc.credentials.createInsecure(), {
    "grpc.enable_http_proxy": 0,
    "grpc.keepalive_time_ms": 20000,
    "grpc.keepalive_timeout_ms": 10000,
  });
  return new Promise((resolve, reject) => {
    client.waitForReady(Date.now() + connectTimeout * 1000, (error) => {
      if (error) {
        client.close();
        const unreachable = new ArenaError(
          `cannot reach the arena at ${address} within ${connectTimeout} s: is the match ` +
            "running, and is the address right?",
        );
        unreachable.unreachable = true; // (remote: playRemote asks whether TLS is to blame)
        reject(unreachable);
        return;
      }
      const session = new Session(bot);
      const stream = client.Play();
      let failed = null;
      stream.on("data", (message) => {
        if (failed) return;
        let reply;
        try {
          reply = session.handle(message, performance.now());
        } catch (error) {
          failed = error;
          stream.cancel();
          return;
        }
        if (reply) stream.write(reply);
      });
      stream.on("error", () => {}); // the status event says why
      stream.on("status", (status) => {
        client.close();
        if (failed) reject(failed);
        else if (status.code === grpc.status.OK) resolve(session);
        else {
          reject(statusError(STATUS[status.code] ?? String(status.code), status.details));
        }
      });
      stream.write(hello(bot, token, stays));
    });
  });
}

/** The conversation's first message. */
function hello(bot, token, stays) {
  return { hello: { protocol_version: PROTOCOL_VERSION, bot_name: String(bot.name), token, kit: KIT, stays } };
}

// ------------------------------------------------------------------------------ the framed socket

/** An address's prefix for the framed socket (frames+unix:///run/nimmt/frames.sock). */
const FRAMED = "frames+unix://";
/** The longest frame the kit reads (bytes; a request is a few KiB), and the longest length: a
 * varint of at most 5 bytes. */
const MAX_FRAME = 4 * 1024 * 1024;
const MAX_VARINT = 5;
/** How often the kit tries again to reach a framed socket that does not accept yet (ms). */
const CONNECT_RETRY_MS = 20;

/** `payload` with its length in front, as a varint. */
function frame(payload) {
  const head = [];
  let size = payload.length;
  while (size >= 0x80) {
    head.push((size & 0x7f) | 0x80);
    size >>>= 7;
  }
  head.push(size);
  return Buffer.concat([Buffer.from(head), payload]);
}

/** Frames out of a byte stream that arrives in pieces: feed(data) returns the payloads of the
 * frames it completed (an empty one ends the conversation); it throws for a length over
 * MAX_FRAME or longer than MAX_VARINT bytes. */
class FrameBuffer {
  constructor() {
    this.data = Buffer.alloc(0);
  }

  feed(data) {
    const buffer = this.data.length ? Buffer.concat([this.data, data]) : data;
    const frames = [];
    let at = 0;
    for (;;) {
      let size = 0;
      let head = at;
      for (let shift = 0; ; shift += 7) {
        if (head === buffer.length) {
          this.data = buffer.subarray(at);
          return frames;
        }
        const byte = buffer[head++];
        size += (byte & 0x7f) * 2 ** shift;
        if (!(byte & 0x80)) break;
        if (head - at >= MAX_VARINT) throw new Error(`a frame length of more than ${MAX_VARINT} bytes`);
      }
      if (size > MAX_FRAME) throw new Error(`a frame of ${size} bytes, over the limit of ${MAX_FRAME}`);
      if (head + size > buffer.length) {
        this.data = buffer.subarray(at);
        return frames;
      }
      frames.push(buffer.subarray(head, head + size));
      at = head + size;
    }
  }
}

/** play() on the framed socket at `socketPath`: connect (trying again until `connectTimeout`
 * seconds have passed, as the arena may still be starting), then play one match. */
function playFramed(bot, socketPath, token, connectTimeout, stays) {
  const limit = performance.now() + connectTimeout * 1000;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = net.createConnection(socketPath);
      socket.once("error", (error) => {
        socket.destroy();
        if (performance.now() <= limit) {
          setTimeout(attempt, CONNECT_RETRY_MS);
          return;
        }
        reject(
          new ArenaError(
            `cannot reach the arena at ${socketPath} within ${connectTimeout} s (${error.code ?? error.message}): ` +
              "is the match running, and is the address right?",
          ),
        );
      });
      socket.once("connect", () => {
        socket.removeAllListeners("error");
        framedMatch(socket, bot, token, stays).then(resolve, reject);
      });
    };
    attempt();
  });
}

/** Play one match on a connected framed socket: the conversation of the gRPC stream, each
 * message a frame (arena.proto, "The framed socket"), which the arena ends with an empty frame
 * and a status frame ("OK", or a status name, a space and the reason). A Promise of the session. */
function framedMatch(socket, bot, token, stays) {
  const messages = loadMessages();
  const session = new Session(bot, "framed socket");
  const buffer = new FrameBuffer();
  let ended = false; // the empty frame came: the next one is the status
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(session);
      // Closed once the caller has logged why: the arena keeps the log of a crash.
      setImmediate(() => socket.destroy());
    };
    const broken = (why) => finish(new ArenaError(`the arena ended the connection without a status: ${why}`));
    socket.on("data", (data) => {
      if (settled) return;
      const received = performance.now();
      let payloads;
      try {
        payloads = buffer.feed(data);
      } catch (error) {
        broken(error.message);
        return;
      }
      for (const payload of payloads) {
        if (ended) {
          const text = payload.toString("utf8");
          const space = text.indexOf(" ");
          const code = space < 0 ? text : text.slice(0, space);
          finish(code === "OK" ? null : statusError(code, space < 0 ? "" : text.slice(space + 1)));
          return;
        }
        if (!payload.length) {
          ended = true;
          continue;
        }
        let message;
        try {
          message = messages.read(payload);
        } catch (error) {
          broken(`an unreadable message (${error.message})`);
          return;
        }
        let reply;
        try {
          reply = session.handle(message, received);
        } catch (error) {
          finish(error);
          return;
        }
        if (reply) socket.write(frame(messages.write(reply)));
      }
    });
    socket.on("error", (error) => broken(error.message));
    socket.on("close", () => finish(new ArenaError("the arena ended the connection without a status (it went away)")));
    socket.write(frame(messages.write(hello(bot, token, stays))));
  });
}

/** The target and credentials of the arena's gateway at `url`: grpcs://HOST:PORT (or HOST:PORT)
 * with TLS, trusting the system's CAs or the certificate in `caFile`; grpc://HOST:PORT in
 * plaintext, only to a loopback address (docs/REMOTE.md). */
function remoteTarget(url, caFile = null) {
  const grpc = kitPackage("@grpc/grpc-js");
  const match = /^(?:(grpcs?):\/\/)?([^/]+)$/.exec(url);
  if (!match) throw new ArenaError(`--remote '${url}': give grpcs://HOST:PORT (the bot page shows it)`);
  const [, scheme, target] = match;
  if (scheme === "grpc") {
    const host = target.replace(/:\d+$/, "").replace(/^\[|\]$/g, "");
    if (!["localhost", "127.0.0.1", "::1"].includes(host)) {
      throw new ArenaError(`--remote '${url}': plaintext only to loopback; use grpcs://`);
    }
    return { target, credentials: grpc.credentials.createInsecure(), root: null, secure: false };
  }
  let root = null;
  if (caFile) {
    try {
      root = fs.readFileSync(caFile);
    } catch (error) {
      throw new ArenaError(`cannot read the CA file ${caFile}: ${error.message}`);
    }
  }
  noServerNameForAddresses();
  return { target, credentials: grpc.credentials.createSsl(root), root, secure: true };
}

/** grpc-js names the server it connects to in TLS (SNI) even when it is an IP address, which
 * RFC 6066 forbids and Node answers with a DEP0123 warning on every connection: for an address,
 * leave the name out (the certificate is still checked against the address). */
function noServerNameForAddresses() {
  if (tls.connect.nimmtNoIpServerName) return;
  const connect = tls.connect;
  const patched = function (options, ...rest) {
    if (options && typeof options === "object" && net.isIP(options.servername ?? "")) {
      options = { ...options, servername: undefined };
    }
    return connect.call(this, options, ...rest);
  };
  patched.nimmtNoIpServerName = true;
  tls.connect = patched;
}

/** What a kit says when the gateway answers but its certificate is not trusted. */
const UNTRUSTED = "the arena's certificate is not trusted (pass --ca FILE)";

/** Why the gateway at `target` (HOST:PORT) cannot be trusted (its certificate fails against the
 * system's CAs or `root`), or null if it can, cannot be reached, or gives no answer in time: a
 * TLS handshake of its own, asked after gRPC could not connect, since gRPC says only that. */
function untrustedCertificate(target, root, timeout = 5000) {
  const split = /^\[?(.*?)\]?:(\d+)$/.exec(target);
  if (!split) return Promise.resolve(null);
  const [, host, port] = split;
  return new Promise((resolve) => {
    const options = { host, port: Number(port), ALPNProtocols: ["h2"] };
    if (!net.isIP(host)) options.servername = host;
    if (root) options.ca = root;
    const socket = tls.connect(options, () => {
      socket.destroy();
      resolve(null);
    });
    socket.setTimeout(timeout, () => {
      socket.destroy();
      resolve(null);
    });
    socket.on("error", (error) => {
      socket.destroy();
      const code = String(error.code ?? "");
      const certificate =
        code === "ERR_TLS_CERT_ALTNAME_INVALID" || /CERT|SELF_SIGNED|UNABLE_TO_|ISSUER/.test(code);
      resolve(certificate ? `${error.message} (${code})` : null);
    });
  });
}

/** Statuses after which a remote bot does not connect again: something must be fixed first. */
const FINAL = ["UNAUTHENTICATED", "FAILED_PRECONDITION", "INVALID_ARGUMENT", "PERMISSION_DENIED"];

/** Play match after match through the arena's gateway at `url` with the bot's remote token,
 * connecting again after each one and after a dropped connection (with a growing pause, at
 * most 10 s); `matches`: how many (0: until stopped). A Promise of the number played. */
async function playRemote(bot, url, token, { caFile = null, matches = 0, connectTimeout = CONNECT_TIMEOUT } = {}) {
  const grpc = kitPackage("@grpc/grpc-js");
  const { target, credentials, root, secure } = remoteTarget(url, caFile);
  const final = FINAL.map((name) => grpc.status[name]);
  let played = 0;
  let pause = 1;
  while (!matches || played < matches) {
    try {
      const session = await play(bot, target, token, connectTimeout, credentials);
      played += 1;
      pause = 1;
      log("INFO", `match ${played} over (${session.answers} answers); waiting for the next`);
      continue;
    } catch (error) {
      if (!(error instanceof ArenaError) || final.includes(error.code)) throw error;
      const why = error.unreachable && secure ? await untrustedCertificate(target, root) : null;
      if (why) throw new ArenaError(`${UNTRUSTED}: ${url}: ${why}`, grpc.status.FAILED_PRECONDITION);
      log("WARNING", `${error.message}; connecting again in ${pause} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, pause * 1000));
    pause = Math.min(10, pause * 2);
  }
  return played;
}

/** How often a bot that stays looks for its next match's token (ms); the arena freezes it
 * meanwhile, so the looking costs nothing between matches. */
const STAY_POLL_MS = 5;
/** How long a bot that stays waits for its next match before it exits (ms without a new token). */
const STAY_WAIT_MS = 3600 * 1000;

/** The next match's token, once the arena has written it to `file` (null after STAY_WAIT_MS). */
async function nextToken(file, last) {
  const limit = performance.now() + STAY_WAIT_MS;
  for (;;) {
    let token = "";
    try {
      token = fs.readFileSync(file, "utf8").trim();
    } catch (error) {
      token = "";
    }
    if (token && token !== last) return token;
    if (performance.now() > limit) return null;
    await new Promise((resolve) => setTimeout(resolve, STAY_POLL_MS));
  }
}

/** Play the match at `address`, and while the arena keeps the process (MatchEnd.stay) the next
 * ones, with the token it writes to `tokenFile` (none: one match). */
async function playMatches(bot, address, token, connectTimeout, tokenFile) {
  for (;;) {
    const session = await play(bot, address, token, connectTimeout, null, tokenFile !== null);
    if (!session.stay || tokenFile === null) return session;
    log("INFO", "the arena keeps this process for another match: waiting for it");
    const next = await nextToken(tokenFile, token);
    if (next === null) return session;
    token = next;
  }
}

/** Where the arena said to connect: its framed socket ($NIMMT_FRAMES, the cheaper transport, on
 * its own machine only) if it offers one, else its gRPC socket ($NIMMT_ENGINE), else "". */
function defaultAddress() {
  const frames = process.env.NIMMT_FRAMES ?? "";
  if (frames.startsWith("unix://")) return `frames+${frames}`;
  return process.env.NIMMT_ENGINE ?? "";
}

/** The token: the content of $NIMMT_TOKEN_FILE, else $NIMMT_TOKEN, else "". */
function tokenFromEnv() {
  const file = process.env.NIMMT_TOKEN_FILE;
  if (file) {
    try {
      return fs.readFileSync(file, "utf8").trim();
    } catch (error) {
      throw new ArenaError(`cannot read the token file $NIMMT_TOKEN_FILE=${file}: ${error.message}`);
    }
  }
  return process.env.NIMMT_TOKEN ?? "";
}

const USAGE =
  "usage: bot.js [--connect ADDRESS] [--token TOKEN] [--connect-timeout SECONDS] " +
  "[--remote URL [--ca FILE] [--matches N]] [--quiet]";

/** Parse the command line and environment, play; a Promise of the exit code (see above). */
async function main(bot, argv = process.argv.slice(2)) {
  let address = defaultAddress();
  let token = null;
  let connectTimeout = CONNECT_TIMEOUT;
  let remote = null;
  let caFile = process.env.NIMMT_REMOTE_CA || null;
  let matches = 0;
  const usageError = (text) => {
    process.stderr.write(`${USAGE}\nbot.js: error: ${text}\n`);
    return 2;
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].includes("=") ? argv[i].split(/=(.*)/s, 2) : [argv[i], undefined];
    const value = () => (inline !== undefined ? inline : argv[++i]);
    if (flag === "-h" || flag === "--help") {
      process.stdout.write(
        `${USAGE}\n\nRun the bot '${bot.name}' in a Nimmt Arena match.\n\n` +
          "  --connect ADDRESS          the arena's address: unix:///path for gRPC, frames+unix:///path for\n" +
          "                             the framed socket (default: $NIMMT_FRAMES if set, else $NIMMT_ENGINE)\n" +
          "  --token TOKEN              the bot's token (default: the content of $NIMMT_TOKEN_FILE, else $NIMMT_TOKEN)\n" +
          `  --connect-timeout SECONDS  how long to wait for the arena to accept the connection (${CONNECT_TIMEOUT} s)\n` +
          "  --remote URL               play from this machine through the arena's gateway, e.g.\n" +
          "                             grpcs://arena.example.org:7443, with the remote token in $NIMMT_REMOTE_TOKEN\n" +
          "  --ca FILE                  with --remote: trust the gateway certificate in FILE ($NIMMT_REMOTE_CA)\n" +
          "  --matches N                with --remote: stop after N matches (default: until stopped)\n" +
          "  --quiet                    log only warnings and errors\n",
      );
      return 0;
    } else if (flag === "--quiet") log.quiet = true;
    else if (flag === "--connect") address = value() ?? "";
    else if (flag === "--token") token = value() ?? "";
    else if (flag === "--remote") remote = value() ?? "";
    else if (flag === "--ca") caFile = value() ?? null;
    else if (flag === "--matches") {
      const text = value();
      matches = Number(text);
      if (!Number.isInteger(matches) || matches < 0) return usageError(`argument --matches: invalid count: '${text}'`);
    }
    else if (flag === "--connect-timeout") {
      const text = value();
      connectTimeout = Number(text);
      if (text === undefined || text === "" || !(connectTimeout >= 0)) {
        return usageError(`argument --connect-timeout: invalid number: '${text}'`);
      }
    } else return usageError(`unrecognized arguments: ${argv[i]}`);
  }
  if (remote !== null) {
    const remoteToken = (process.env.NIMMT_REMOTE_TOKEN ?? "").trim();
    if (!remoteToken) {
      log("ERROR", "set NIMMT_REMOTE_TOKEN to the bot's remote token (shown on the bot's page)");
      return 2;
    }
    try {
      await playRemote(bot, remote, remoteToken, { caFile, matches, connectTimeout });
    } catch (error) {
      if (error instanceof BotCodeError) {
        log("CRITICAL", `${error.message}; the bot stops here (a crash)\n${error.cause?.stack ?? ""}`);
        return 3;
      }
      log("ERROR", error instanceof ArenaError ? error.message : `the bot kit failed: ${error.stack ?? error}`);
      return 1;
    }
    return 0;
  }
  if (!address) {
    return usageError(
      "no arena address: the arena sets NIMMT_ENGINE; to connect by hand pass --connect unix:///path/to/engine.sock",
    );
  }
  try {
    const tokenFile = token === null ? process.env.NIMMT_TOKEN_FILE || null : null;
    await playMatches(bot, address, token ?? tokenFromEnv(), connectTimeout, tokenFile);
  } catch (error) {
    if (error instanceof ArenaError) {
      log("ERROR", error.message);
      return 1;
    }
    if (error instanceof BotCodeError) {
      log("CRITICAL", `${error.message}; the bot stops here (a crash)\n${error.cause?.stack ?? ""}`);
      return 3;
    }
    log("CRITICAL", `the bot kit failed: ${error.stack ?? error}`); // an unreadable message, say
    return 1;
  }
  return 0;
}

/** Play the match the environment (or --connect) names, then exit the process. */
function run(bot, argv) {
  main(bot, argv).then(
    (code) => process.exit(code),
    (error) => {
      log("CRITICAL", `the bot kit failed: ${error.stack ?? error}`);
      process.exit(3);
    },
  );
}

module.exports = {
  ArenaError,
  KitBot,
  PROTOCOL_VERSION,
  Random,
  bullheads,
  cutUtf8,
  decisionText,
  defaultAddress,
  fewestBullheadsRow,
  main,
  placeLuck,
  play,
  playAction,
  playRemote,
  remoteTarget,
  playTile,
  run,
  takeRow,
  timeLeft,
  tokenFromEnv,
  viewFromProto,
};
