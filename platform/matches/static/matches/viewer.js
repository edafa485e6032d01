/* The replay viewer of Nimmt Arena: draws a game's frames as SVG and plays them back.
 *
 * The engine computes the frames (arena/engine/frames.py, format `nimmt-frames/1`, served at the
 * page's data-frames-url): the position after every step of play, the deal, each turn's reveal,
 * every action card, every tile landing on its space, every completed or taken row, every luck
 * card and the end of each turn, with what happened at that step. This script knows no rules:
 * it only draws a frame, words its caption and animates from frame to frame; tiles are SVG
 * groups keyed by their number, so a tile that moves glides there.
 *
 * A seat's point of view: the chooser "Seen by" (or #seat=S in the address) loads the frames the
 * engine computes for that seat (the frames URL with ?seat=S): the seat's hand at every step, its
 * own action cards, the other seats' only as a count. The page is never sent what the seat did
 * not know; the script hides nothing itself.
 *
 * For tests, tools and other panels, window.nimmtViewer (once `ready` resolves):
 *   boardAt(k)      the board after turn k (0: the deal), as the engine's `Game.spaces`: per
 *                   row, per space, the tile number, 0 (empty) or -1 (skipped);
 *   stateAt(k), steps(), goToTurn(k), goToStep(i), turn(), frame() (the frame shown, as read
 *   below), seat() (the seat whose view is shown, or null), setSeat(s) (a promise; null: the
 *   public view), hand() (the hand shown, or null).
 * Panels of their own (annotations, analysis) listen on the #viewer element:
 *   "nimmt:frame"  detail {index, turn, frame, seat}: a frame was drawn;
 *   "nimmt:load"   detail {game, seat}: frames were loaded (the first time, or another seat's).
 * A running match's page has data-live-url instead: the frames arrive as server-sent events
 * and the board follows them (startLive below).
 * No dependencies; no network access but the frames' own URL or the live events'.
 */
(function () {
  "use strict";

  // ------------------------------------------------------------------ frames (from the engine)

  var SKIPPED = -1;
  var CARD_NAMES = {
    stop: "Stop", swap: "Swap", skip: "Skip", front: "Front", ascending: "Ascending",
    anywhere: "Anywhere", another: "Another", plus5: "Plus five",
  };
  var SPACE_NAMES = { ".": "", "+": " (+)", "-": " (\u2212)", F: " (final)", D: " (draw)", A: " (action)", C: " (claim)" };

  function LoadProblem(message) { this.message = message; }

  function signed(n) { return n > 0 ? "+" + n : n < 0 ? "\u2212" + (-n) : "\u00b10"; }

  /* Whether a raw frame ends the game (the end of its last turn). */
  function isOver(raw) { return !!raw && raw.step.kind === "end" && !!raw.step.over; }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  /* The engine's frames (nimmt-frames/1) as the drawing below reads them: each frame with its
   * caption, the tile or seat in focus, and a card game's sixth card. */
  function readFrames(data) {
    if (!data || data.format !== "nimmt-frames/1" || !data.frames || !data.frames.length) {
      throw new LoadProblem("These are not nimmt-frames/1 frames.");
    }
    var names = data.players.map(function (n, i) { return String(n || "seat " + i); });
    var layout = data.layout || [];
    var classic = layout.length === 0;
    var game = {
      frames: [], turnEnd: data.turn_ends.slice(), players: names.length, names: names,
      layout: layout, classic: classic, pro: /^pro/.test(data.variant), nrows: data.row_lengths.length,
      rowLengths: data.row_lengths.slice(), variant: data.variant, turns: data.turns,
      // a live game's frames so far: its turns are the turns ended so far, and it is over only
      // once its last turn's end says so
      over: !!data.result || isOver(data.frames[data.frames.length - 1]),
      result: data.result || null, bullheads: data.bullheads, higherIsBetter: data.higher_is_better,
      seat: typeof data.seat === "number" ? data.seat : null, // a seat's view, or null
    };

    function spaceName(row, space) {
      var kind = classic ? "." : layout[row][space];
      return "row " + (row + 1) + ", space " + (space + 1) + (SPACE_NAMES[kind] || "");
    }

    function caption(f, s, delta) {
      var who = s.seat !== undefined ? names[s.seat] : "";
      var said;
      switch (s.kind) {
        case "setup":
          return "The deal: " + f.spaces.filter(function (row) { return row.some(function (t) { return t > 0; }); }).length +
            " rows start with one tile; everyone holds " + f.hands[0] + " tiles.";
        case "reveal":
          return "Turn " + f.turn + ": " + f.tray.map(function (p) { return names[p[1]] + " " + p[0]; }).join(" \u00b7 ") +
            " \u2014 placed in this order.";
        case "action":
          said = who + " plays " + (CARD_NAMES[s.card] || s.card) + " on " + s.tile;
          if (s.card === "stop") return said + ": row " + (s.row + 1) + " is closed for this turn.";
          if (s.card === "swap") return said + ": takes it back and plays " + s.new_tile + " instead.";
          if (s.card === "another") return said + ": reveals " + s.new_tile + " too.";
          if (s.card === "skip") return said + ": it skips a space.";
          if (s.card === "front") return said + ": it goes in front of row " + (s.row + 1) + ".";
          if (s.card === "ascending" || s.card === "anywhere") return said + ": it goes to row " + (s.row + 1) + ".";
          if (s.card === "plus5") return said + ": +5 for this placement.";
          return said + ".";
        case "added":
          return who + "\u2019s new tile " + s.tile + " is revealed; " + who + "\u2019s tiles go lowest first.";
        case "land":
          if (!classic && s.space === game.rowLengths[s.row] - 1) {
            return who + "\u2019s " + s.tile + " fills the last space of row " + (s.row + 1) + ".";
          }
          said = who + "\u2019s " + s.tile + " goes to " + (classic ? "row " + (s.row + 1) : spaceName(s.row, s.space));
          var effects = [];
          if (s.marker === "plus5") effects.push("luck marker +5");
          if ((s.drew || []).indexOf("tile") >= 0) effects.push("draws a tile");
          if ((s.drew || []).indexOf("action") >= 0) effects.push("draws an action card");
          if (effects.length) said += ": " + effects.join(", ");
          if (delta) said += " (" + signed(delta) + ")";
          return said + ".";
        case "complete":
          said = s.to === "hand"
            ? who + " claims " + plural((s.tiles || []).length, "tile") + " into hand"
            : who + " takes " + plural(s.heads || 0, "bullhead");
          if (s.marker === "final10") said += ", +10 from the luck marker";
          return said + " (" + signed(delta) + "); " + s.tile + " moves to row " + (s.to_row + 1) + ".";
        case "sixth":
          return who + "\u2019s " + s.tile + " is the 6th card of row " + (s.row + 1) + ".";
        case "take":
          return (s.chosen ? who + "\u2019s " + s.tile + " is lower than every row: " : "") + who + " takes row " + (s.row + 1) +
            ": " + plural((s.tiles || []).length, "card") + ", " + plural(s.heads || 0, "bullhead") + " (penalty " + signed(delta) + ").";
        case "luck":
          return who + " draws a luck card and puts " + (s.card === "plus5" ? "+5" : "+10 final") + " on " + spaceName(s.row, s.space) + ".";
        case "end":
          said = "End of turn " + f.turn + ".";
          if (s.second_set) said += " Second set: everyone draws a new hand.";
          if (s.over) {
            said += " The game is over.";
            if (game.result && game.result.scores.join() !== f.scores.join()) said += " Tiles left in hand cost their bullheads.";
          }
          return said;
        default:
          return "";
      }
    }

    function focusOf(s) {
      switch (s.kind) {
        case "land": return { tile: s.tile, seat: s.seat, row: s.row, space: s.space };
        case "complete": return { tile: s.tile, seat: s.seat, row: s.to_row, space: 0 };
        case "take": return { tile: s.tile, seat: s.seat, row: s.row, space: 0 };
        case "sixth": return { tile: s.tile, seat: s.seat, row: s.row, space: game.rowLengths[s.row] };
        case "luck": return { seat: s.seat, row: s.row, space: s.space, marker: true };
        case "action": return { seat: s.seat, row: s.row };
        default: return null;
      }
    }

    data.frames.forEach(function (raw, index) {
      var s = raw.step;
      var markers = raw.spaces.map(function (row) { return row.map(function () { return null; }); });
      raw.markers.forEach(function (m) { markers[m[0]][m[1]] = m[2]; });
      var delta = s.seat !== undefined ? raw.deltas[s.seat] : 0;
      game.frames.push({
        index: index,
        turn: raw.turn,
        kind: s.kind,
        step: s,
        caption: caption(raw, s, delta),
        spaces: raw.spaces,
        markers: markers,
        stops: raw.stops,
        tray: raw.tray.map(function (p) { return { tile: p[0], seat: p[1] }; }),
        scores: raw.scores,
        deltas: raw.deltas,
        hands: raw.hands,
        held: raw.held,
        hand: raw.hand || null, // a seat's view: the seat's tiles in hand
        history: raw.history || null, // and per turn so far, the tile each seat revealed
        supply: raw.supply,
        asks: raw.asks || null,
        focus: focusOf(s),
        overflow: s.kind === "sixth" ? { row: s.row, tile: s.tile } : null,
      });
    });
    return game;
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

  function tileInner(tile, n) {
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
    this.index = 0;
    this.playing = false;
    this.speed = 1;
    this.timer = null;
    this.load(game);
    this.bindControls();
  }

  /* Draw a game from its start: the board, the players, the turn slider. */
  Viewer.prototype.load = function (game) {
    if (this.playing) this.pause();
    this.game = game;
    this.index = 0;
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
    this.root.querySelector("[data-act=turn]").max = game.turns;
  };

  /* The same game with more frames (a live game going on): shown at once if the viewer was
   * following it (at its last frame, or playing), else only the turn count grows. */
  Viewer.prototype.extend = function (game) {
    var following = this.playing || this.index >= this.game.frames.length - 1;
    this.game = game;
    this.root.querySelector("[data-act=turn]").max = game.turns;
    if (following) this.goTo(game.frames.length - 1, true);
    else this.renderSide(game.frames[this.index], false);
  };

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
    head.querySelectorAll("th.held-head").forEach(function (th) { th.remove(); });
    if (g.pro) head.insertAdjacentHTML("beforeend", '<th class="num held-head" title="action cards held">Cards</th>');
    body.innerHTML = "";
    this.playerRows = [];
    for (var p = 0; p < g.players; p++) {
      var row = document.createElement("tr");
      row.setAttribute("data-seat", p);
      row.innerHTML = '<td><span class="seat-dot"></span>' + esc(g.names[p]) +
        '<span class="fault-tag"></span></td><td class="num score"><span class="value"></span><span class="delta"></span></td>' +
        '<td class="num hand"></td>' + (g.pro ? '<td class="num held"></td>' : "");
      // Set through the style object: the site's Content-Security-Policy drops style attributes.
      row.querySelector(".seat-dot").style.background = SEAT_COLOURS[p % 10];
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
      var heads = this.game.bullheads[tile] || 1;
      node = el("g", { class: "tile b" + heads, "data-tile": tile }, tileInner(tile, heads));
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
    if (f.overflow) {
      var beyond = g.rowLengths[f.overflow.row];
      place(f.overflow.tile, this.spaceXY(f.overflow.row, beyond), { row: f.overflow.row, space: beyond, overflow: true });
    }
    // Revealed tiles waiting to be placed.
    var labels = "";
    for (var k = 0; k < f.tray.length; k++) {
      var t = f.tray[k], q = this.trayXY(k);
      place(t.tile, q, { tray: t.seat, slot: k });
      labels += '<text class="tray-name" x="' + (q.x + TW / 2) + '" y="' + (q.y + TH + 13) + '" fill="' + SEAT_COLOURS[t.seat % 10] + '">' +
        esc(shortName(g.names[t.seat])) + "</text>";
    }
    if (!f.tray.length) {
      labels = '<text class="tray-empty" x="' + this.width / 2 + '" y="' + (this.trayH / 2) + '">' +
        (f.kind === "setup" ? "The deal" : f.kind === "end" && f.step.over ? "Game over" : "Turn " + f.turn + " done") + "</text>";
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
    this.root.dispatchEvent(new CustomEvent("nimmt:frame", { detail: { index: this.index, turn: f.turn, frame: f, seat: g.seat } }));
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
      if (where.tray !== undefined) {
        node.setAttribute("data-tray", where.tray);
        node.setAttribute("data-tray-slot", where.slot); // its place in the placing order
      } else {
        node.removeAttribute("data-tray");
        node.removeAttribute("data-tray-slot");
      }
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
        cell.title = held.every(function (c) { return CARD_NAMES[c]; })
          ? held.map(function (c) { return CARD_NAMES[c]; }).join(", ")
          : plural(held.length, "action card") + (g.seat !== null
            ? ", which " + g.names[g.seat] + " does not see"
            : ", not shown while the game goes on");
      }
      row.classList.toggle("acting", !!(f.focus && f.focus.seat === p));
      row.classList.toggle("viewpoint", g.seat === p);
      var rank = atEnd && g.result ? g.result.ranks[p] : null;
      row.setAttribute("data-rank", rank || "");
    }
    var caption = f.caption;
    if (atEnd && g.result) {
      caption += " Final scores: " + g.names.map(function (n, i) { return n + " " + g.result.scores[i] + " (#" + g.result.ranks[i] + ")"; }).join(", ") + ".";
    }
    this.root.querySelector(".caption").textContent = caption;
    this.renderHand(f);
    var turn = this.currentTurn();
    var slider = this.root.querySelector("[data-act=turn]");
    slider.value = turn;
    // A live game's number of turns is not known before its end: only the turn is shown.
    this.root.querySelector(".turn-out").textContent = (f.kind === "setup" ? "Deal" : "Turn " + f.turn) +
      (g.over ? " / " + g.turns : "") +
      (this.isTurnBoundary() ? "" : " \u00b7 step " + (this.index - g.turnEnd[f.turn - 1]));
    this.root.querySelector("[data-act=play]").textContent = this.playing ? "\u275a\u275a Pause" : "\u25b6 Play";
    this.root.querySelector("[data-act=play]").setAttribute("aria-pressed", this.playing ? "true" : "false");
    var link = this.root.querySelector("[data-act=link]");
    link.href = hashOf(g.seat, turn);
    link.textContent = "Link to turn " + turn;
  };

  /* A seat's view: the seat's hand and action cards under the caption (nothing otherwise). */
  Viewer.prototype.renderHand = function (f) {
    var g = this.game;
    var box = this.root.querySelector(".seat-hand");
    if (!box) return;
    box.hidden = g.seat === null || !f.hand;
    if (box.hidden) return;
    box.querySelector(".seat-hand-name").textContent = g.names[g.seat];
    var tiles = box.querySelector(".seat-hand-tiles");
    var html = "";
    for (var i = 0; i < f.hand.length; i++) {
      var t = f.hand[i], n = g.bullheads[t] || 1;
      html += '<svg class="hand-tile" data-tile="' + t + '" viewBox="0 0 ' + TW + " " + TH + '" role="img" aria-label="' + t + '">' +
        '<g class="tile b' + n + '">' + tileInner(t, n) + "</g></svg>";
    }
    tiles.innerHTML = html || '<span class="muted small">no tiles in hand</span>';
    var cards = box.querySelector(".seat-hand-cards");
    var held = f.held[g.seat] || [];
    cards.hidden = !g.pro;
    cards.textContent = "Action cards: " + (held.length ? held.map(function (c) { return CARD_NAMES[c] || c; }).join(", ") : "none");
    // What every seat revealed turn by turn so far: what this seat could remember.
    var list = box.querySelector(".seat-hand-history ul");
    if (list) {
      var history = f.history || [];
      list.innerHTML = g.names.map(function (name, p) {
        var tiles = history.map(function (plays) { return plays[p]; }).filter(function (t) { return t !== null && t !== undefined; });
        return '<li data-seat="' + p + '"><strong>' + esc(name) + ":</strong> " +
          '<span class="tiles">' + (tiles.length ? tiles.join(" \u00b7 ") : "\u2014") + "</span></li>";
      }).join("");
    }
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
      var hash = hashOf(this.game.seat, this.currentTurn());
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

  /* The seat of #seat=S in the address, or null (the public view). */
  function seatFromHash() {
    var m = /(?:^#|&)seat=(\d+)/.exec(window.location.hash);
    return m ? parseInt(m[1], 10) : null;
  }

  function hashOf(seat, turn) {
    return "#" + (seat !== null ? "seat=" + seat + "&" : "") + "turn=" + turn;
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
      if (what === "tile") svg.innerHTML = '<g class="tile b2">' + tileInner(35, 2) + "</g>";
      else if (what === "skipped") svg.innerHTML = '<g class="space k-plain skipped"><rect class="slot" width="' + TW + '" height="' + TH + '" rx="5"/><path class="skip-mark" d="M8 8L' + (TW - 8) + " " + (TH - 8) + "M" + (TW - 8) + " 8L8 " + (TH - 8) + '"/></g>';
      else if (what === "plus5" || what === "final10") svg.innerHTML = '<g class="marker ' + what + '" transform="translate(' + TW / 2 + " " + TH / 2 + ') scale(1.4)">' + markerSvg(what) + "</g>";
      else if (what === "stop") svg.innerHTML = '<g class="stop" transform="translate(' + TW / 2 + " " + TH / 2 + ') scale(1.1)">' + stopSvg() + "</g>";
    });
  }

  // ------------------------------------------------------------------ start

  /* A running match: its games' frames arrive as server-sent events (matches/live.py), each
   * "chunk" the next frames of a game (with the game's header first), "reset" when the match
   * started over, "end" when it is no longer running. The board follows the newest frame. */
  function startLive(root, api, status, resolveReady) {
    var url = root.getAttribute("data-live-url");
    var games = {}; // number -> the frames data of that game, as the frames URL would serve it
    var shown = null; // the number of the game on the board
    var viewer = null;
    var ready = false;
    var gameLabel = document.querySelector("[data-live=game]");
    var endNotice = document.querySelector("[data-live=end]");
    var title = document.querySelector("[data-live=title]");
    api.live = true;
    api.games = games;
    api.game = function () { return shown; };
    /* Every frame received of game n, as the engine sent them. */
    api.frames = function (n) { return games[n] ? games[n].frames.slice() : []; };
    /* The board on the screen, read from the drawing, as the engine's Game.spaces. */
    api.board = function () {
      if (!viewer) return null;
      return viewer.game.frames[viewer.index].spaces.map(function (row) { return row.slice(); });
    };
    api.atLast = function () { return !!viewer && viewer.index === viewer.game.frames.length - 1; };
    api.ended = null;

    function show(n) {
      var game = readFrames(games[n]);
      if (viewer && shown === n) { viewer.extend(game); return; }
      shown = n;
      if (!viewer) {
        viewer = new Viewer(root, game);
        api.viewer = viewer;
      } else {
        viewer.load(game);
      }
      viewer.goTo(game.frames.length - 1, false);
      if (gameLabel) gameLabel.textContent = "game " + n;
      if (!ready) {
        ready = true;
        status.textContent = "";
        status.hidden = true;
        root.setAttribute("data-ready", "1");
        resolveReady(api);
      }
    }

    var source = new EventSource(url);
    api.source = source;
    if (title) title.textContent = "waiting for the first moves";
    source.addEventListener("chunk", function (e) {
      var chunk = JSON.parse(e.data);
      var data = games[chunk.game];
      if (chunk.header) {
        data = games[chunk.game] = Object.assign({}, chunk.header, { frames: [], turn_ends: [0], turns: 0, result: null });
      }
      if (!data || chunk.first !== data.frames.length) return; // not the continuation: wait for a reset
      chunk.frames.forEach(function (f) {
        data.frames.push(f);
        if (f.step.kind === "end") { data.turn_ends.push(data.frames.length - 1); data.turns += 1; }
      });
      if (title) title.textContent = chunk.over ? "game " + chunk.game + " is over" : "game " + chunk.game;
      if (shown === null || chunk.game >= shown) show(chunk.game);
    });
    source.addEventListener("reset", function () {
      Object.keys(games).forEach(function (k) { delete games[k]; });
      shown = null;
      if (title) title.textContent = "the match started over";
    });
    source.addEventListener("end", function (e) {
      var end = JSON.parse(e.data);
      source.close();
      api.ended = end.status;
      if (title) title.textContent = "the match is " + end.status;
      if (endNotice) {
        endNotice.hidden = false;
        endNotice.innerHTML = "The match is " + esc(end.status) + ". <a href=\"" + esc(end.url) + "\">Results and replays</a>";
      }
      if (!ready) { status.textContent = "The match is " + end.status + "."; root.setAttribute("data-ready", "ended"); resolveReady(api); }
    });
  }

  function start() {
    var root = document.getElementById("viewer");
    if (!root) return;
    drawLegend(document);
    var status = root.querySelector(".viewer-status");
    var resolveReady, rejectReady;
    var api = {
      ready: new Promise(function (resolve, reject) { resolveReady = resolve; rejectReady = reject; }),
    };
    window.nimmtViewer = api;
    if (root.hasAttribute("data-live-url")) { startLive(root, api, status, resolveReady); return; }
    var url = root.getAttribute("data-frames-url");
    var chooser = root.querySelector("[data-act=seat]");
    var viewer = null;

    /* Draw a game's frames (another seat's view of the same game: at the same step). */
    function show(game, index) {
      if (!viewer) {
        viewer = new Viewer(root, game);
        api.viewer = viewer;
      } else {
        viewer.load(game);
      }
      api.game = game;
      api.turns = game.turns;
      if (chooser) {
        if (chooser.options.length !== game.players + 1) {
          chooser.innerHTML = '<option value="">everyone (no hands)</option>' + game.names.map(function (n, i) {
            return '<option value="' + i + '">' + esc(n) + "</option>";
          }).join("");
        }
        chooser.value = game.seat === null ? "" : String(game.seat);
      }
      root.setAttribute("data-seat", game.seat === null ? "" : String(game.seat));
      root.dispatchEvent(new CustomEvent("nimmt:load", { detail: { game: game, seat: game.seat } }));
      viewer.goTo(index, false);
    }

    api.boardAt = function (turn) {
      var frame = api.game.frames[api.game.turnEnd[turn]];
      return frame.spaces.map(function (row) { return row.slice(); });
    };
    api.stateAt = function (turn) {
      var f = api.game.frames[api.game.turnEnd[turn]];
      return { spaces: api.boardAt(turn), markers: f.markers.map(function (row) { return row.slice(); }), scores: f.scores.slice(), hands: f.hands.slice() };
    };
    /* Every step: its frame index, turn, kind, and the decision the engine asks for after it. */
    api.steps = function () {
      return api.game.frames.map(function (f) { return { index: f.index, turn: f.turn, kind: f.kind, asks: f.asks }; });
    };
    api.goToTurn = function (turn) { viewer.pause(); viewer.goToTurn(turn, false); };
    api.goToStep = function (index) { viewer.pause(); viewer.goTo(index, false); };
    api.turn = function () { return viewer.currentTurn(); };
    api.frame = function () { return viewer.game.frames[viewer.index]; };
    api.seat = function () { return api.game.seat; };
    api.hand = function () { var f = api.frame(); return f.hand ? f.hand.slice() : null; };
    /* Show the game as seat `seat` saw it (null: the public view), at the same step. */
    api.setSeat = function (seat) {
      var at = viewer ? viewer.index : 0;
      if (viewer) viewer.pause();
      return loadFrames(url, seat).then(function (game) {
        show(game, at);
        if (viewer.isTurnBoundary()) history.replaceState(null, "", hashOf(game.seat, viewer.currentTurn()));
      });
    };
    if (chooser) {
      chooser.addEventListener("change", function () {
        var seat = chooser.value === "" ? null : +chooser.value;
        api.setSeat(seat).catch(function (error) {
          status.hidden = false;
          status.textContent = error && error.message ? error.message : String(error);
          status.classList.add("bad");
        });
      });
    }
    window.addEventListener("hashchange", function () {
      var seat = seatFromHash();
      if (viewer && seat !== api.game.seat) api.setSeat(seat);
    });

    loadFrames(url, seatFromHash())
      .then(function (game) {
        var wanted = turnFromHash();
        show(game, game.turnEnd[Math.max(0, Math.min(game.turns, wanted === null ? 0 : wanted))]);
        status.textContent = "";
        status.hidden = true;
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

  /* The engine's frames of the page's game, the public ones or seat `seat`'s view. */
  function loadFrames(url, seat) {
    var target = seat === null ? url : url + (url.indexOf("?") >= 0 ? "&" : "?") + "seat=" + seat;
    return fetch(target, { credentials: "same-origin" })
      .then(function (response) {
        return response.json().catch(function () { return null; }).then(function (body) {
          if (response.ok && body) return body;
          throw new LoadProblem(body && body.error ? body.error : "The replay could not be loaded (HTTP " + response.status + ").");
        });
      })
      .then(readFrames);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
