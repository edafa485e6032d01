/* The replay viewer of Nimmt Arena: draws a `nimmt-replay/1` game as SVG and plays it back.
 *
 * The replay holds the deal and every decision, not the board, so the viewer re-simulates the
 * game with a port of the rules (shared/RULES.md; the reference is arena/engine/game.py, and
 * the browser tests compare this port with it after every turn of games of all five variants).
 * The simulation turns the game into *frames*: the deal, then per turn the reveal, each
 * placement (a completed row takes two frames: the tile lands, then the row clears and the tile
 * moves), each luck card and action card, and the end of the turn. Playing animates from frame
 * to frame; tiles are SVG groups keyed by their number, so a tile that moves glides there.
 *
 * For tests and tools: window.nimmtViewer.boardAt(k) is the board after turn k (0: the deal),
 * as the engine's `Game.spaces`: per row, per space, the tile number, 0 (empty) or -1 (skipped).
 * No dependencies; no network access but the replay's own URL.
 */
(function () {
  "use strict";

  // ------------------------------------------------------------------ rules (RULES.md)

  var EMPTY = 0;
  var SKIPPED = -1;
  var CLASSIC_ROW_LENGTH = 5;
  var PRO_TURN_CAP = 200; // arena/engine/variants.py: a pro game that never empties a hand
  var CARD_NAMES = {
    stop: "Stop", swap: "Swap", skip: "Skip", front: "Front", ascending: "Ascending",
    anywhere: "Anywhere", another: "Another", plus5: "Plus five",
  };

  function bullheads(tile) {
    if (tile === 55) return 7;
    if (tile % 11 === 0) return 5;
    if (tile % 10 === 0) return 3;
    if (tile % 5 === 0) return 2;
    return 1;
  }

  function sum(list) {
    var total = 0;
    for (var i = 0; i < list.length; i++) total += list[i];
    return total;
  }

  function byNumber(a, b) { return a - b; }

  function ReplayProblem(message) { this.message = message; }

  /* Re-play `replay`; returns {frames, turnEnd, problems, players, layout, classic, pro}. */
  function simulate(replay) {
    if (!replay || replay.format !== "nimmt-replay/1") {
      throw new ReplayProblem("This is not a nimmt-replay/1 file.");
    }
    var variant = replay.variant;
    var classic = variant === "classic";
    var pro = variant === "pro" || variant === "pro+luck";
    var setup = replay.setup;
    var layout = classic ? [] : replay.layout.slice();
    var nrows = classic ? setup.rows.length : layout.length;
    var players = setup.hands.length;
    var handSize = classic ? 10 : 12;
    var names = [];
    for (var p = 0; p < players; p++) {
      var entry = replay.players[p] || {};
      names.push(String(entry.name || "seat " + p));
    }

    var S = {
      spaces: [], fill: [], markers: [], stops: [],
      hands: setup.hands.map(function (h) { return h.slice().sort(byNumber); }),
      held: [], scores: [], supply: setup.supply.slice(),
      luck: setup.luck_deck.slice(), actions: setup.action_deck.slice(), set: 1,
    };
    for (var r = 0; r < nrows; r++) {
      var length = classic ? CLASSIC_ROW_LENGTH : layout[r].length;
      var spaces = [], marks = [];
      for (var s = 0; s < length; s++) { spaces.push(EMPTY); marks.push(null); }
      var start = setup.rows[r] || [];
      for (var t = 0; t < start.length; t++) spaces[t] = start[t];
      S.spaces.push(spaces);
      S.markers.push(marks);
      S.fill.push(start.length);
    }
    for (p = 0; p < players; p++) { S.held.push([]); S.scores.push(0); }

    var frames = [];
    var turnEnd = [0];
    var problems = [];
    var tray = []; // revealed {tile, seat} not yet on the board, in placing order
    var turnNo = 0;
    var choices = [];
    var choiceAt = 0;
    var lastScores = S.scores.slice();

    function snapshot(kind, caption, extra) {
      var frame = {
        index: frames.length,
        turn: turnNo,
        kind: kind,
        caption: caption,
        spaces: S.spaces.map(function (row) { return row.slice(); }),
        markers: S.markers.map(function (row) { return row.slice(); }),
        stops: S.stops.slice(),
        tray: tray.map(function (x) { return { tile: x.tile, seat: x.seat }; }),
        scores: S.scores.slice(),
        deltas: S.scores.map(function (v, i) { return v - lastScores[i]; }),
        hands: S.hands.map(function (h) { return h.length; }),
        held: S.held.map(function (h) { return h.slice(); }),
        supply: S.supply.length,
        focus: null,
        overflow: null,
        leaving: [],
      };
      lastScores = S.scores.slice();
      if (extra) for (var key in extra) frame[key] = extra[key];
      frames.push(frame);
      return frame;
    }

    function lastTile(row) {
      var f = S.fill[row];
      return f ? S.spaces[row][f - 1] : 0;
    }

    function targetRow(tile) {
      var best = -1, bestEnd = 0, high = -1, highEnd = 0;
      for (var r = 0; r < S.spaces.length; r++) {
        var end = lastTile(r);
        if (end === 0 || S.stops.indexOf(r) >= 0) continue;
        if (bestEnd < end && end < tile) { best = r; bestEnd = end; }
        if (end > highEnd) { high = r; highEnd = end; }
      }
      if (best >= 0) return best;
      return classic ? null : high;
    }

    function luckSpaces(card) {
      var free = [];
      for (var r = 0; r < S.spaces.length; r++) {
        var last = S.spaces[r].length - 1;
        var from = card === "plus5" ? 1 : last;
        var to = card === "plus5" ? last - 1 : last;
        for (var s = from; s <= to; s++) {
          if (S.spaces[r][s] === EMPTY && S.markers[r][s] === null) free.push([r, s]);
        }
      }
      return free;
    }

    function nextChoice(kind, seat) {
      var choice = choices[choiceAt];
      if (!choice || choice.kind !== kind || choice.seat !== seat) {
        throw new ReplayProblem(
          "turn " + turnNo + ": the game asks " + names[seat] + " for a " + kind +
          " decision, the replay records " + (choice ? choice.kind + " by seat " + choice.seat : "none"));
      }
      choiceAt += 1;
      return choice;
    }

    function fromTray(tile) {
      for (var i = 0; i < tray.length; i++) {
        if (tray[i].tile === tile) { tray.splice(i, 1); return; }
      }
    }

    function removeFromHand(seat, tile) {
      var hand = S.hands[seat];
      var at = hand.indexOf(tile);
      if (at < 0) {
        throw new ReplayProblem("turn " + turnNo + ": tile " + tile + " is not in " + names[seat] + "'s hand");
      }
      hand.splice(at, 1);
    }

    function addToHand(seat, tiles) {
      S.hands[seat] = S.hands[seat].concat(tiles).sort(byNumber);
    }

    function signed(n) { return n > 0 ? "+" + n : n < 0 ? "\u2212" + (-n) : "\u00b10"; }

    function spaceName(row, space) {
      var kind = classic ? "." : layout[row][space];
      var what = { ".": "", "+": " (+)", "-": " (\u2212)", F: " (final)", D: " (draw)", A: " (action)", C: " (claim)" }[kind];
      return "row " + (row + 1) + ", space " + (space + 1) + what;
    }

    function land(seat, tile, row, space, bonus) {
      var spaces = S.spaces[row];
      var kind = layout[row][space];
      var marker = S.markers[row][space];
      spaces[space] = tile;
      S.fill[row] = space + 1;
      fromTray(tile);
      var delta = bonus;
      var focus = { tile: tile, seat: seat, row: row, space: space };
      if (space === spaces.length - 1) {
        var others = spaces.filter(function (x) { return x > 0 && x !== tile; });
        snapshot("place", names[seat] + "\u2019s " + tile + " fills the last space of row " + (row + 1) + ".", { focus: focus });
        if (marker === "final10") delta += 10;
        var heads = sum(others.map(bullheads));
        var leaving;
        if (kind === "C") {
          addToHand(seat, others);
          leaving = others.map(function (x) { return { tile: x, to: "hand", seat: seat }; });
        } else {
          delta -= heads;
          leaving = others.map(function (x) { return { tile: x, to: "box", seat: seat }; });
        }
        var length = spaces.length;
        S.spaces[row] = []; S.markers[row] = [];
        for (var i = 0; i < length; i++) { S.spaces[row].push(EMPTY); S.markers[row].push(null); }
        S.fill[row] = 0;
        S.stops = S.stops.filter(function (x) { return x !== row; });
        var dest = -1;
        for (var r = 0; r < S.spaces.length; r++) {
          if (r !== row && S.fill[r] === 0) { dest = r; break; }
        }
        if (dest < 0) throw new ReplayProblem("turn " + turnNo + ": no empty row to move " + tile + " to");
        S.spaces[dest][0] = tile;
        S.fill[dest] = 1;
        S.scores[seat] += delta;
        var said = kind === "C"
          ? names[seat] + " claims " + others.length + " tile" + (others.length === 1 ? "" : "s") + " into hand"
          : names[seat] + " takes " + heads + " bullhead" + (heads === 1 ? "" : "s");
        if (marker === "final10") said += ", +10 from the luck marker";
        snapshot("clear", said + " (" + signed(delta) + "); " + tile + " moves to row " + (dest + 1) + ".",
          { focus: { tile: tile, seat: seat, row: dest, space: 0 }, leaving: leaving, cleared: row });
      } else {
        var effect = "";
        if (marker === "plus5") { delta += 5; effect = "luck marker +5"; }
        else if (kind === "+") { delta += bullheads(tile); effect = "plus space"; }
        else if (kind === "-") { delta -= bullheads(tile); effect = "minus space"; }
        else if (kind === "D") {
          if (S.supply.length) { addToHand(seat, [S.supply.shift()]); effect = "draws a tile"; }
          else effect = "the supply is empty";
        } else if (kind === "A" && S.actions.length) {
          S.held[seat].push(S.actions.shift());
          effect = "draws an action card";
        }
        S.scores[seat] += delta;
        var text = names[seat] + "\u2019s " + tile + " goes to " + spaceName(row, space);
        if (effect) text += ": " + effect;
        if (delta) text += " (" + signed(delta) + ")";
        snapshot("place", text + ".", { focus: focus });
      }
      if (delta < 0 && S.luck.length && luckSpaces(S.luck[0]).length) {
        var card = S.luck.shift();
        var choice = nextChoice("luck", seat);
        if (choice.card !== card) {
          throw new ReplayProblem("turn " + turnNo + ": luck card " + choice.card + " recorded, " + card + " drawn");
        }
        var ok = luckSpaces(card).some(function (rs) { return rs[0] === choice.row && rs[1] === choice.space; });
        if (!ok) throw new ReplayProblem("turn " + turnNo + ": a luck card cannot go on row " + (choice.row + 1) + ", space " + (choice.space + 1));
        S.markers[choice.row][choice.space] = card;
        snapshot("luck", names[seat] + " draws a luck card and puts " + (card === "plus5" ? "+5" : "+10 final") +
          " on " + spaceName(choice.row, choice.space) + ".", { focus: { seat: seat, row: choice.row, space: choice.space, marker: true } });
      }
    }

    function takeRow(seat, tile, row, why) {
      var taken = S.spaces[row].filter(function (x) { return x > 0; });
      var heads = sum(taken.map(bullheads));
      S.scores[seat] += heads;
      fromTray(tile);
      S.spaces[row] = [tile];
      for (var i = 1; i < CLASSIC_ROW_LENGTH; i++) S.spaces[row].push(EMPTY);
      S.fill[row] = 1;
      snapshot("clear", why + names[seat] + " takes row " + (row + 1) + ": " + taken.length + " cards, " + heads +
        " bullhead" + (heads === 1 ? "" : "s") + " (penalty " + signed(heads) + ").",
        { focus: { tile: tile, seat: seat, row: row, space: 0 },
          leaving: taken.map(function (x) { return { tile: x, to: "box", seat: seat }; }), cleared: row });
    }

    function placeNormally(seat, tile, bonus) {
      var row = targetRow(tile);
      if (row === null) {
        var choice = nextChoice("take_row", seat);
        if (!(choice.row >= 0 && choice.row < S.spaces.length)) throw new ReplayProblem("turn " + turnNo + ": no row " + choice.row);
        takeRow(seat, tile, choice.row, names[seat] + "\u2019s " + tile + " is lower than every row: ");
        return;
      }
      if (!classic) { land(seat, tile, row, S.fill[row], bonus); return; }
      if (S.fill[row] === CLASSIC_ROW_LENGTH) {
        fromTray(tile);
        snapshot("place", names[seat] + "\u2019s " + tile + " is the 6th card of row " + (row + 1) + ".",
          { focus: { tile: tile, seat: seat, row: row, space: CLASSIC_ROW_LENGTH }, overflow: { row: row, tile: tile } });
        takeRow(seat, tile, row, "");
        return;
      }
      S.spaces[row][S.fill[row]] = tile;
      S.fill[row] += 1;
      fromTray(tile);
      snapshot("place", names[seat] + "\u2019s " + tile + " goes to row " + (row + 1) + ".",
        { focus: { tile: tile, seat: seat, row: row, space: S.fill[row] - 1 } });
    }

    function playAction(seat, tile, choice, queue) {
      var card = choice.card;
      var at = S.held[seat].indexOf(card);
      if (at < 0) throw new ReplayProblem("turn " + turnNo + ": " + names[seat] + " plays " + card + " without holding it");
      S.held[seat].splice(at, 1);
      var said = names[seat] + " plays " + (CARD_NAMES[card] || card) + " on " + tile;
      if (card === "stop") {
        S.stops.push(choice.row);
        snapshot("action", said + ": row " + (choice.row + 1) + " is closed for this turn.", { focus: { seat: seat, row: choice.row } });
        placeNormally(seat, tile, 0);
      } else if (card === "swap") {
        removeFromHand(seat, choice.new_tile);
        addToHand(seat, [tile]);
        for (var i = 0; i < tray.length; i++) if (tray[i].tile === tile) tray[i] = { tile: choice.new_tile, seat: seat };
        snapshot("action", said + ": takes it back and plays " + choice.new_tile + " instead.", { focus: { seat: seat } });
        placeNormally(seat, choice.new_tile, 0);
      } else if (card === "another") {
        removeFromHand(seat, choice.new_tile);
        queue.unshift({ tile: choice.new_tile, seat: seat });
        for (var j = 0; j < tray.length; j++) {
          if (tray[j].tile === tile) { tray.splice(j + 1, 0, { tile: choice.new_tile, seat: seat }); break; }
        }
        snapshot("action", said + ": reveals " + choice.new_tile + " too, placed right after.", { focus: { seat: seat } });
        placeNormally(seat, tile, 0);
      } else if (card === "skip") {
        var row = targetRow(tile);
        snapshot("action", said + ": it skips a space of row " + (row + 1) + ".", { focus: { seat: seat, row: row } });
        S.spaces[row][S.fill[row]] = SKIPPED;
        land(seat, tile, row, S.fill[row] + 1, 0);
      } else if (card === "front") {
        var spaces = S.spaces[choice.row];
        var n = S.fill[choice.row];
        for (var k = n; k > 0; k--) spaces[k] = spaces[k - 1];
        spaces[0] = tile;
        S.fill[choice.row] = n + 1;
        fromTray(tile);
        snapshot("place", said + ": it goes in front of row " + (choice.row + 1) + ".",
          { focus: { tile: tile, seat: seat, row: choice.row, space: 0 } });
      } else if (card === "ascending" || card === "anywhere") {
        snapshot("action", said + ": it goes to row " + (choice.row + 1) + ".", { focus: { seat: seat, row: choice.row } });
        land(seat, tile, choice.row, S.fill[choice.row], 0);
      } else if (card === "plus5") {
        snapshot("action", said + ": +5 on top of its space.", { focus: { seat: seat } });
        placeNormally(seat, tile, 5);
      } else {
        throw new ReplayProblem("turn " + turnNo + ": unknown action card " + card);
      }
    }

    function playTurn(turn) {
      var plays = turn.plays;
      var queue = [];
      for (var seat = 0; seat < players; seat++) {
        var tile = plays[seat];
        if (tile === null || tile === undefined) continue;
        removeFromHand(seat, tile);
        queue.push({ tile: tile, seat: seat });
      }
      queue.sort(function (a, b) { return a.tile - b.tile; });
      tray = queue.map(function (x) { return { tile: x.tile, seat: x.seat }; });
      choices = turn.choices || [];
      choiceAt = 0;
      snapshot("reveal", "Turn " + turnNo + ": " + queue.map(function (x) { return names[x.seat] + " " + x.tile; }).join(" \u00b7 ") +
        " \u2014 placed lowest first.");
      while (queue.length) {
        var next = queue.shift();
        var choice = choices[choiceAt];
        if (choice && choice.kind === "action" && choice.seat === next.seat && choice.tile === next.tile) {
          choiceAt += 1;
          playAction(next.seat, next.tile, choice, queue);
        } else {
          placeNormally(next.seat, next.tile, 0);
        }
      }
      if (choiceAt !== choices.length) {
        problems.push("turn " + turnNo + ": " + (choices.length - choiceAt) + " recorded choice(s) left over");
      }
    }

    function endTurn(turn) {
      S.stops = [];
      var said = "End of turn " + turnNo + ".";
      if (turn.scores && turn.scores.join() !== S.scores.join()) {
        problems.push("turn " + turnNo + ": scores " + S.scores.join(", ") + ", the replay says " + turn.scores.join(", "));
      }
      var setOver = pro ? !S.hands.every(function (h) { return h.length; }) : !S.hands.some(function (h) { return h.length; });
      var over = pro && turnNo >= PRO_TURN_CAP;
      if (setOver) {
        if (!classic && players <= 3 && S.set === 1 && S.supply.length >= handSize * players) {
          S.set = 2;
          for (var seat = 0; seat < players; seat++) addToHand(seat, S.supply.splice(0, handSize));
          said += " Second set: everyone draws " + handSize + " tiles from the supply.";
        } else {
          over = true;
        }
      }
      if (over) {
        said += " The game is over.";
        if (pro) said += " Tiles left in hand cost their bullheads.";
      }
      tray = [];
      snapshot("end", said);
      turnEnd.push(frames.length - 1);
      return over;
    }

    snapshot("setup", "The deal: " + setup.rows.filter(function (row) { return row.length; }).length +
      " rows start with one tile; everyone holds " + handSize + " tiles.");
    var over = false;
    try {
      for (var i = 0; i < replay.turns.length; i++) {
        if (over) { problems.push("turns after the end of the game"); break; }
        turnNo = i + 1;
        playTurn(replay.turns[i]);
        over = endTurn(replay.turns[i]);
      }
    } catch (error) {
      if (!(error instanceof ReplayProblem)) throw error;
      problems.push(error.message);
    }
    return {
      frames: frames, turnEnd: turnEnd, problems: problems, players: players, names: names,
      layout: layout, classic: classic, pro: pro, nrows: nrows, variant: variant,
      turns: turnEnd.length - 1, result: replay.result || null,
    };
  }

  // ------------------------------------------------------------------ drawing

  var SVGNS = "http://www.w3.org/2000/svg";
  var TW = 40, TH = 52, PX = 46, PY = 60, LABEL = 28, STOPW = 40, PAD = 8;
  var TRAY_PX = 64; // revealed tiles stand further apart: their players' names are under them
  var SEAT_COLOURS = ["#d0413a", "#2f6fdb", "#2e9b4f", "#c98a00", "#8a4fd0", "#d9598c", "#1b9aa0", "#7a6a3a", "#5a6478", "#e06f1f"];

  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }[c];
    });
  }

  function el(name, attrs, html) {
    var node = document.createElementNS(SVGNS, name);
    for (var key in attrs) node.setAttribute(key, attrs[key]);
    if (html) node.innerHTML = html;
    return node;
  }

  var KIND_CLASS = { ".": "k-plain", "+": "k-plus", "-": "k-minus", F: "k-final", D: "k-draw", A: "k-action", C: "k-claim" };

  /* The symbol of a space kind, drawn in a TW x TH box (also used by the legend). */
  function kindSymbol(kind) {
    var cx = TW / 2, cy = TH / 2;
    switch (kind) {
      case "+": return '<path class="sym" d="M' + (cx - 9) + " " + cy + "h18M" + cx + " " + (cy - 9) + 'v18"/>';
      case "-": return '<path class="sym" d="M' + (cx - 9) + " " + cy + 'h18"/>';
      case "F": return '<path class="sym flag" d="M' + (cx - 7) + " " + (cy + 11) + "V" + (cy - 11) + "l14 5-14 5\"/>";
      case "D": return '<rect class="sym" x="' + (cx - 6) + '" y="' + (cy - 10) + '" width="12" height="15" rx="2"/>' +
        '<path class="sym" d="M' + cx + " " + (cy + 2) + "v9m-4-4 4 4 4-4\"/>";
      case "A": return '<path class="sym star" d="M' + cx + " " + (cy - 11) + "l3.2 6.8 7.3.9-5.4 5 1.4 7.3-6.5-3.6-6.5 3.6 1.4-7.3-5.4-5 7.3-.9z\"/>";
      case "C": return '<path class="sym flag" d="M' + (cx - 8) + " " + (cy + 2) + "V" + (cy - 12) + "l12 4.5-12 4.5\"/>" +
        '<path class="sym" d="M' + (cx - 9) + " " + (cy + 5) + "q9 8 18 0\"/><path class=\"sym\" d=\"M" + (cx + 6) + " " + (cy + 1) + "l3 4-4.5 1.5\"/>";
      default: return "";
    }
  }

  function headsSvg(n) {
    // Bull heads (a face with two horns) in one row, or two rows for more than four.
    var rows = n > 4 ? [Math.ceil(n / 2), Math.floor(n / 2)] : [n];
    var out = "";
    for (var line = 0; line < rows.length; line++) {
      var count = rows[line], step = 8.4;
      var y = rows.length === 1 ? TH - 10 : TH - 17 + line * 9;
      var x0 = TW / 2 - (step * (count - 1)) / 2;
      for (var i = 0; i < count; i++) {
        out += '<g class="head" transform="translate(' + (x0 + i * step) + " " + y + ')">' +
          '<ellipse cx="0" cy=".9" rx="2.3" ry="2.7"/><path d="M-4.2-2.7q.5 2.3 2.5 1.7M4.2-2.7q-.5 2.3-2.5 1.7"/></g>';
      }
    }
    return out;
  }

  function tileInner(tile) {
    var n = bullheads(tile);
    var y = n > 4 ? TH / 2 - 7 : TH / 2 - 4;
    return '<rect class="face" width="' + TW + '" height="' + TH + '" rx="5"/>' +
      '<text class="num" x="' + TW / 2 + '" y="' + y + '">' + tile + "</text>" + headsSvg(n);
  }

  function shortName(name) {
    return name.length > 9 ? name.slice(0, 8) + "\u2026" : name;
  }

  function markerSvg(card) {
    if (card === "plus5") {
      return '<circle class="m-body" r="9"/><text class="m-text" y="3.5">+5</text>';
    }
    return '<path class="m-body" d="M0-11l3.1 6.3 6.9 1-5 4.9 1.2 6.9L0 4.8-6.2 8.1-5 1.2-10-3.7l6.9-1z" transform="scale(1.15)"/><text class="m-text" y="3.5">10</text>';
  }

  function stopSvg() {
    return '<path class="stop-body" d="M-6.5-15.5h13l9 9v13l-9 9h-13l-9-9v-13z"/><text class="stop-text" y="3">STOP</text>';
  }

  function Viewer(root, game) {
    this.root = root;
    this.game = game;
    this.index = 0;
    this.playing = false;
    this.speed = 1;
    this.timer = null;
    this.tiles = new Map();
    var maxSpaces = 0;
    var rows = game.frames[0].spaces;
    for (var r = 0; r < rows.length; r++) maxSpaces = Math.max(maxSpaces, rows[r].length + (game.classic ? 1 : 0));
    this.boardW = LABEL + maxSpaces * PX + STOPW;
    this.trayCols = Math.max(1, Math.floor((this.boardW - 2 * PAD) / TRAY_PX));
    var trayRows = Math.ceil(game.players / this.trayCols) || 1;
    this.trayH = trayRows * (TH + 24) + 14;
    this.width = this.boardW + 2 * PAD;
    this.height = this.trayH + rows.length * PY + PAD;
    this.buildSvg();
    this.buildPlayers();
    this.bindControls();
  }

  Viewer.prototype.spaceXY = function (row, space) {
    return { x: PAD + LABEL + space * PX, y: this.trayH + row * PY };
  };

  Viewer.prototype.trayXY = function (k) {
    var col = k % this.trayCols, line = Math.floor(k / this.trayCols);
    return { x: PAD + 12 + col * TRAY_PX, y: 8 + line * (TH + 24) };
  };

  Viewer.prototype.buildSvg = function () {
    var g = this.game;
    var svg = this.root.querySelector("svg.board");
    svg.setAttribute("viewBox", "0 0 " + this.width + " " + this.height);
    svg.setAttribute("data-variant", g.variant);
    svg.innerHTML = "";
    svg.appendChild(el("rect", { class: "tray-bg", x: 2, y: 2, width: this.width - 4, height: this.trayH - 8, rx: 8 }));
    this.trayLabels = el("g", { class: "tray-labels" });
    svg.appendChild(this.trayLabels);
    var spacesLayer = el("g", { class: "spaces" });
    this.spaceNodes = [];
    var rows = g.frames[0].spaces;
    for (var r = 0; r < rows.length; r++) {
      var y = this.trayH + r * PY;
      spacesLayer.appendChild(el("text", { class: "row-label", x: PAD + LABEL / 2 - 2, y: y + TH / 2 + 4 }, String(r + 1)));
      var nodes = [];
      for (var s = 0; s < rows[r].length; s++) {
        var kind = g.classic ? "." : g.layout[r][s];
        var final = !g.classic && s === rows[r].length - 1;
        var p = this.spaceXY(r, s);
        var node = el("g", {
          class: "space " + KIND_CLASS[kind] + (final ? " final" : ""),
          "data-row": r, "data-space": s, "data-kind": kind,
          transform: "translate(" + p.x + " " + p.y + ")",
        }, '<rect class="slot" width="' + TW + '" height="' + TH + '" rx="5"/>' + kindSymbol(kind) +
          '<path class="skip-mark" d="M8 8L' + (TW - 8) + " " + (TH - 8) + "M" + (TW - 8) + " 8L8 " + (TH - 8) + '"/>');
        nodes.push(node);
        spacesLayer.appendChild(node);
      }
      if (g.classic) {
        var q = this.spaceXY(r, rows[r].length);
        spacesLayer.appendChild(el("g", { class: "space sixth", transform: "translate(" + q.x + " " + q.y + ")" },
          '<rect class="slot" width="' + TW + '" height="' + TH + '" rx="5"/><text class="sixth-text" x="' + TW / 2 + '" y="' + (TH / 2 - 2) + '">6th</text><text class="sixth-text" x="' + TW / 2 + '" y="' + (TH / 2 + 10) + '">takes</text>'));
      }
      this.spaceNodes.push(nodes);
    }
    svg.appendChild(spacesLayer);
    this.tileLayer = el("g", { class: "tiles" });
    svg.appendChild(this.tileLayer);
    this.markerLayer = el("g", { class: "markers" });
    svg.appendChild(this.markerLayer);
    this.stopLayer = el("g", { class: "stops" });
    svg.appendChild(this.stopLayer);
    this.svg = svg;
    this.tiles = new Map();
  };

  Viewer.prototype.buildPlayers = function () {
    var g = this.game;
    var body = this.root.querySelector(".players tbody");
    var head = this.root.querySelector(".players thead tr");
    if (g.pro) head.insertAdjacentHTML("beforeend", '<th class="num" title="action cards held">Cards</th>');
    body.innerHTML = "";
    this.playerRows = [];
    for (var p = 0; p < g.players; p++) {
      var row = document.createElement("tr");
      row.setAttribute("data-seat", p);
      row.innerHTML = '<td><span class="seat-dot" style="background:' + SEAT_COLOURS[p % 10] + '"></span>' + esc(g.names[p]) +
        '<span class="fault-tag"></span></td><td class="num score"><span class="value"></span><span class="delta"></span></td>' +
        '<td class="num hand"></td>' + (g.pro ? '<td class="num held"></td>' : "");
      body.appendChild(row);
      this.playerRows.push(row);
    }
    var faults = (g.result && g.result.faults) || [];
    for (var i = 0; i < faults.length; i++) {
      var f = faults[i];
      var target = this.playerRows[f.seat];
      if (target) {
        target.querySelector(".fault-tag").insertAdjacentHTML("beforeend",
          ' <span class="badge failed" title="fault in turn ' + (f.turn + 1) + '">' + esc(f.kind) + " t" + (f.turn + 1) + "</span>");
      }
    }
  };

  Viewer.prototype.tileNode = function (tile) {
    var node = this.tiles.get(tile);
    if (!node) {
      node = el("g", { class: "tile b" + bullheads(tile), "data-tile": tile }, tileInner(tile));
      this.tileLayer.appendChild(node);
      this.tiles.set(tile, node);
      node.isNew = true;
    }
    return node;
  };

  Viewer.prototype.render = function (animate) {
    var g = this.game, f = g.frames[this.index], self = this;
    var svg = this.svg;
    if (!animate) svg.classList.add("instant");
    var seen = new Set();
    // Tiles on the board.
    for (var r = 0; r < f.spaces.length; r++) {
      for (var s = 0; s < f.spaces[r].length; s++) {
        var v = f.spaces[r][s];
        this.spaceNodes[r][s].classList.toggle("skipped", v === SKIPPED);
        this.spaceNodes[r][s].classList.toggle("stopped", f.stops.indexOf(r) >= 0);
        if (v > 0) {
          var p = this.spaceXY(r, s);
          place(v, p, { row: r, space: s });
        }
      }
    }
    if (f.overflow) place(f.overflow.tile, this.spaceXY(f.overflow.row, CLASSIC_ROW_LENGTH), { row: f.overflow.row, space: CLASSIC_ROW_LENGTH, overflow: true });
    // Revealed tiles waiting to be placed.
    var labels = "";
    for (var k = 0; k < f.tray.length; k++) {
      var t = f.tray[k], q = this.trayXY(k);
      place(t.tile, q, { tray: t.seat });
      labels += '<text class="tray-name" x="' + (q.x + TW / 2) + '" y="' + (q.y + TH + 13) + '" fill="' + SEAT_COLOURS[t.seat % 10] + '">' +
        esc(shortName(g.names[t.seat])) + "</text>";
    }
    if (!f.tray.length) {
      labels = '<text class="tray-empty" x="' + this.width / 2 + '" y="' + (this.trayH / 2) + '">' +
        (f.kind === "setup" ? "The deal" : f.turn >= g.turns ? "Game over" : "Turn " + f.turn + " done") + "</text>";
    }
    this.trayLabels.innerHTML = labels;
    // Tiles that left the board (taken, claimed, or not yet dealt in this position).
    this.tiles.forEach(function (node, tile) {
      if (seen.has(tile)) return;
      self.tiles.delete(tile);
      if (animate) {
        node.classList.add("leaving");
        node.removeAttribute("data-row");
        node.removeAttribute("data-space");
        setTimeout(function () { node.remove(); }, 900 / self.speed);
      } else {
        node.remove();
      }
    });
    // Markers and stops.
    var markers = "";
    for (r = 0; r < f.markers.length; r++) {
      for (s = 0; s < f.markers[r].length; s++) {
        var card = f.markers[r][s];
        if (!card) continue;
        var m = this.spaceXY(r, s);
        markers += '<g class="marker ' + card + '" data-row="' + r + '" data-space="' + s + '" data-marker="' + card +
          '" transform="translate(' + (m.x + TW - 4) + " " + (m.y + 4) + ')">' + markerSvg(card) + "</g>";
      }
    }
    this.markerLayer.innerHTML = markers;
    var stops = "";
    for (var i = 0; i < f.stops.length; i++) {
      var row = f.stops[i];
      var z = this.spaceXY(row, f.spaces[row].length);
      stops += '<g class="stop" data-row="' + row + '" transform="translate(' + (z.x + 14) + " " + (z.y + TH / 2) + ')">' + stopSvg() + "</g>";
    }
    this.stopLayer.innerHTML = stops;
    // Focus: the tile or row that just changed.
    this.tiles.forEach(function (node) { node.classList.remove("focus"); node.style.removeProperty("--seat"); });
    if (f.focus && f.focus.tile && this.tiles.get(f.focus.tile)) {
      var focused = this.tiles.get(f.focus.tile);
      focused.classList.add("focus");
      focused.style.setProperty("--seat", SEAT_COLOURS[f.focus.seat % 10]);
    }
    svg.setAttribute("data-frame", this.index);
    svg.setAttribute("data-turn", f.turn);
    svg.setAttribute("data-at-turn-end", this.isTurnBoundary() ? "1" : "0");
    this.renderSide(f, animate);
    if (!animate) {
      svg.getBoundingClientRect(); // apply the positions before transitions come back
      svg.classList.remove("instant");
    }

    function place(tile, pos, where) {
      var node = self.tileNode(tile);
      seen.add(tile);
      node.classList.remove("leaving");
      if (where.row !== undefined) {
        node.setAttribute("data-row", where.row);
        node.setAttribute("data-space", where.space);
      } else {
        node.removeAttribute("data-row");
        node.removeAttribute("data-space");
      }
      if (where.tray !== undefined) node.setAttribute("data-tray", where.tray); else node.removeAttribute("data-tray");
      node.classList.toggle("overflow", !!where.overflow);
      var transform = "translate(" + pos.x + "px, " + pos.y + "px)";
      if (node.isNew && animate) {
        node.style.transform = transform + " scale(.6)";
        node.style.opacity = "0";
        node.getBoundingClientRect();
        node.style.opacity = "";
      }
      node.isNew = false;
      node.style.transform = transform;
    }
  };

  Viewer.prototype.renderSide = function (f, animate) {
    var g = this.game;
    var atEnd = this.index === g.frames.length - 1;
    for (var p = 0; p < g.players; p++) {
      var row = this.playerRows[p];
      row.querySelector(".score .value").textContent = atEnd && g.result ? g.result.scores[p] : f.scores[p];
      var delta = row.querySelector(".score .delta");
      var d = f.deltas[p];
      delta.textContent = d ? (d > 0 ? " +" + d : " \u2212" + -d) : "";
      delta.className = "delta" + (d > 0 ? " up" : d < 0 ? " down" : "");
      if (animate && d) { delta.classList.remove("flash"); delta.getBoundingClientRect(); delta.classList.add("flash"); }
      row.querySelector(".hand").textContent = f.hands[p];
      if (g.pro) {
        var held = f.held[p];
        var cell = row.querySelector(".held");
        cell.textContent = held.length;
        cell.title = held.map(function (c) { return CARD_NAMES[c] || c; }).join(", ");
      }
      row.classList.toggle("acting", !!(f.focus && f.focus.seat === p));
      var rank = atEnd && g.result ? g.result.ranks[p] : null;
      row.setAttribute("data-rank", rank || "");
    }
    var caption = f.caption;
    if (atEnd && g.result) {
      caption += " Final scores: " + g.names.map(function (n, i) { return n + " " + g.result.scores[i] + " (#" + g.result.ranks[i] + ")"; }).join(", ") + ".";
    }
    this.root.querySelector(".caption").textContent = caption;
    var turn = this.currentTurn();
    var slider = this.root.querySelector("[data-act=turn]");
    slider.value = turn;
    this.root.querySelector(".turn-out").textContent = (f.kind === "setup" ? "Deal" : "Turn " + f.turn) + " / " + g.turns +
      (this.isTurnBoundary() ? "" : " \u00b7 step " + (this.index - g.turnEnd[f.turn - 1]));
    this.root.querySelector("[data-act=play]").textContent = this.playing ? "\u275a\u275a Pause" : "\u25b6 Play";
    this.root.querySelector("[data-act=play]").setAttribute("aria-pressed", this.playing ? "true" : "false");
    var link = this.root.querySelector("[data-act=link]");
    link.href = "#turn=" + turn;
    link.textContent = "Link to turn " + turn;
  };

  Viewer.prototype.isTurnBoundary = function () {
    return this.game.turnEnd.indexOf(this.index) >= 0;
  };

  /* The turn shown: k at the end of turn k (0: the deal); during turn k, k. */
  Viewer.prototype.currentTurn = function () {
    var f = this.game.frames[this.index];
    return f.turn;
  };

  Viewer.prototype.goTo = function (index, animate) {
    var last = this.game.frames.length - 1;
    index = Math.max(0, Math.min(last, index));
    this.index = index;
    this.render(!!animate);
    if (this.isTurnBoundary()) {
      var hash = "#turn=" + this.currentTurn();
      if (window.location.hash !== hash) history.replaceState(null, "", hash);
    }
  };

  Viewer.prototype.goToTurn = function (turn, animate) {
    var k = Math.max(0, Math.min(this.game.turns, turn | 0));
    this.goTo(this.game.turnEnd[k], animate);
  };

  Viewer.prototype.step = function (by) {
    this.goTo(this.index + by, by === 1);
  };

  Viewer.prototype.stepTurn = function (by) {
    var turn = this.game.frames[this.index].turn;
    // From the end of turn k (or from inside turn k) back to the end of turn k - 1.
    if (by > 0) this.goToTurn(this.isTurnBoundary() ? turn + 1 : turn, false);
    else this.goToTurn(turn - 1, false);
  };

  Viewer.prototype.delay = function () {
    return 1100 / this.speed;
  };

  Viewer.prototype.play = function () {
    if (this.index >= this.game.frames.length - 1) this.goTo(0, false);
    this.playing = true;
    this.schedule();
    this.renderSide(this.game.frames[this.index], false);
  };

  Viewer.prototype.pause = function () {
    this.playing = false;
    clearTimeout(this.timer);
    this.renderSide(this.game.frames[this.index], false);
  };

  Viewer.prototype.schedule = function () {
    var self = this;
    clearTimeout(this.timer);
    this.timer = setTimeout(function () {
      if (!self.playing) return;
      if (self.index >= self.game.frames.length - 1) { self.pause(); return; }
      self.step(1);
      self.schedule();
    }, this.delay());
  };

  Viewer.prototype.setSpeed = function (speed) {
    this.speed = speed;
    this.root.style.setProperty("--dur", Math.round(600 / speed) + "ms");
  };

  Viewer.prototype.bindControls = function () {
    var self = this;
    var root = this.root;
    var slider = root.querySelector("[data-act=turn]");
    slider.max = this.game.turns;
    slider.addEventListener("input", function () {
      var turn = +slider.value; // read first: pausing redraws the slider
      self.pause();
      self.goToTurn(turn, false);
    });
    root.querySelector("[data-act=speed]").addEventListener("change", function (e) { self.setSpeed(+e.target.value); });
    var actions = {
      first: function () { self.pause(); self.goTo(0, false); },
      last: function () { self.pause(); self.goTo(self.game.frames.length - 1, false); },
      prev: function () { self.pause(); self.step(-1); },
      next: function () { self.pause(); self.step(1); },
      "prev-turn": function () { self.pause(); self.stepTurn(-1); },
      "next-turn": function () { self.pause(); self.stepTurn(1); },
      play: function () { if (self.playing) self.pause(); else self.play(); },
    };
    root.querySelectorAll("button[data-act]").forEach(function (button) {
      button.addEventListener("click", function () { actions[button.getAttribute("data-act")](); });
    });
    document.addEventListener("keydown", function (e) {
      var tag = (e.target && e.target.tagName) || "";
      if (e.altKey || e.ctrlKey || e.metaKey || tag === "SELECT" || tag === "TEXTAREA") return;
      if (tag === "INPUT" && e.target.type !== "range") return;
      // A focused button or link acts on Space and Enter by itself.
      if ((tag === "BUTTON" || tag === "A") && (e.key === " " || e.key === "Enter")) return;
      var act = null;
      if (e.key === " " || e.key === "k") act = "play";
      else if (e.key === "ArrowRight") act = e.shiftKey ? "next-turn" : "next";
      else if (e.key === "ArrowLeft") act = e.shiftKey ? "prev-turn" : "prev";
      else if (e.key === "PageDown" || e.key === "ArrowDown") act = "next-turn";
      else if (e.key === "PageUp" || e.key === "ArrowUp") act = "prev-turn";
      else if (e.key === "Home") act = "first";
      else if (e.key === "End") act = "last";
      if (!act) return;
      e.preventDefault();
      actions[act]();
    });
    window.addEventListener("hashchange", function () {
      var turn = turnFromHash();
      if (turn !== null && turn !== self.currentTurn()) { self.pause(); self.goToTurn(turn, false); }
    });
    this.setSpeed(1);
  };

  function turnFromHash() {
    var m = /(?:^#|&)turn=(\d+)/.exec(window.location.hash);
    return m ? parseInt(m[1], 10) : null;
  }

  // ------------------------------------------------------------------ the legend

  function drawLegend(root) {
    root.querySelectorAll("svg[data-legend-kind]").forEach(function (svg) {
      var kind = svg.getAttribute("data-legend-kind");
      svg.setAttribute("viewBox", "0 0 " + TW + " " + TH);
      var final = kind === "F" || kind === "C";
      svg.innerHTML = '<g class="space ' + KIND_CLASS[kind] + (final ? " final" : "") + '"><rect class="slot" width="' + TW + '" height="' + TH + '" rx="5"/>' + kindSymbol(kind) + "</g>";
    });
    root.querySelectorAll("svg[data-legend]").forEach(function (svg) {
      var what = svg.getAttribute("data-legend");
      svg.setAttribute("viewBox", "0 0 " + TW + " " + TH);
      if (what === "tile") svg.innerHTML = '<g class="tile b2">' + tileInner(35) + "</g>";
      else if (what === "skipped") svg.innerHTML = '<g class="space k-plain skipped"><rect class="slot" width="' + TW + '" height="' + TH + '" rx="5"/><path class="skip-mark" d="M8 8L' + (TW - 8) + " " + (TH - 8) + "M" + (TW - 8) + " 8L8 " + (TH - 8) + '"/></g>';
      else if (what === "plus5" || what === "final10") svg.innerHTML = '<g class="marker ' + what + '" transform="translate(' + TW / 2 + " " + TH / 2 + ') scale(1.4)">' + markerSvg(what) + "</g>";
      else if (what === "stop") svg.innerHTML = '<g class="stop" transform="translate(' + TW / 2 + " " + TH / 2 + ') scale(1.1)">' + stopSvg() + "</g>";
    });
  }

  // ------------------------------------------------------------------ start

  function start() {
    var root = document.getElementById("viewer");
    if (!root) return;
    drawLegend(document);
    var status = root.querySelector(".viewer-status");
    var resolveReady, rejectReady;
    var api = {
      ready: new Promise(function (resolve, reject) { resolveReady = resolve; rejectReady = reject; }),
      simulate: simulate,
      bullheads: bullheads,
    };
    window.nimmtViewer = api;
    fetch(root.getAttribute("data-replay-url"), { credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new ReplayProblem("The replay could not be loaded (HTTP " + response.status + ").");
        return response.json();
      })
      .then(function (replay) {
        var game = simulate(replay);
        var viewer = new Viewer(root, game);
        api.game = game;
        api.viewer = viewer;
        api.turns = game.turns;
        api.problems = game.problems;
        api.boardAt = function (turn) {
          var frame = game.frames[game.turnEnd[turn]];
          return frame.spaces.map(function (row) { return row.slice(); });
        };
        api.stateAt = function (turn) {
          var f = game.frames[game.turnEnd[turn]];
          return { spaces: api.boardAt(turn), markers: f.markers.map(function (row) { return row.slice(); }), scores: f.scores.slice(), hands: f.hands.slice() };
        };
        api.goToTurn = function (turn) { viewer.pause(); viewer.goToTurn(turn, false); };
        api.turn = function () { return viewer.currentTurn(); };
        var wanted = turnFromHash();
        viewer.goToTurn(wanted === null ? 0 : wanted, false);
        if (game.problems.length) {
          status.textContent = "This replay does not re-play cleanly here: " + game.problems.slice(0, 3).join("; ");
          status.classList.add("bad");
        } else {
          status.textContent = "";
          status.hidden = true;
        }
        root.setAttribute("data-ready", "1");
        resolveReady(api);
      })
      .catch(function (error) {
        status.textContent = error && error.message ? error.message : String(error);
        status.classList.add("bad");
        root.setAttribute("data-ready", "error");
        rejectReady(error);
      });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
