/* A person's seat at a table (tables/views.py): their hand, action cards, the decision asked
 * and its clock; the board above is the shared viewer in live mode (matches/viewer.js).
 *
 * The script polls the table's state URL (the person's own view, JSON) and posts the chosen
 * decision to the answer URL. It knows no rules: the options are the legal decisions the
 * engine listed in the person's view; the server takes one of them once, before the deadline.
 * Click or tap an option; or press 1-9 for the numbered options, arrows and Enter on the tiles.
 * For tests: window.nimmtSeat.state is the last state read, .sent the decisions sent.
 */
(function () {
  "use strict";

  var POLL_MS = 200;
  var CARD_NAMES = {
    stop: "Stop", swap: "Swap", skip: "Skip", front: "Front", ascending: "Ascending",
    anywhere: "Anywhere", another: "Another", plus5: "Plus five", final10: "Final ten",
  };

  function cardName(card) { return CARD_NAMES[card] || String(card); }

  /* A legal decision's text ("tile 42", "luck 1 3", "action stop row=2", "take_row 0") in words. */
  function label(text) {
    var words = text.split(" ");
    if (words[0] === "tile") return "Tile " + words[1];
    if (words[0] === "luck") return "Row " + (+words[1] + 1) + ", space " + (+words[2] + 1);
    if (words[0] === "take_row") return "Take row " + (+words[1] + 1);
    if (words[0] === "action") {
      if (words[1] === "none") return "No action card";
      var out = cardName(words[1]);
      words.slice(2).forEach(function (w) {
        var kv = w.split("=");
        if (kv[0] === "row") out += " on row " + (+kv[1] + 1);
        if (kv[0] === "new_tile") out += " with tile " + kv[1];
      });
      return out;
    }
    return text;
  }

  /* A new decision brings the board to the top of the screen (the seat is a sheet at its
   * bottom, table.css), unless it is in sight already: the rows are what the person decides on.
   * False while the board is not drawn yet (the viewer's first frame then tries again). */
  function boardInSight() {
    var board = document.querySelector("#viewer svg.board");
    if (!board || !board.hasAttribute("viewBox")) return false;
    var box = board.getBoundingClientRect();
    var sheet = document.getElementById("seat").getBoundingClientRect();
    if (box.top < 0 || box.bottom > sheet.top + 1) window.scrollBy(0, box.top);
    return true;
  }
  var boardWanted = false; // a decision came before the board was drawn
  var viewerRoot = document.getElementById("viewer");
  if (viewerRoot) {
    viewerRoot.addEventListener("nimmt:frame", function () {
      if (boardWanted) boardWanted = !boardInSight();
    });
  }

  function prompt(kind, view) {
    var pending = view && view.pending;
    if (kind === "tile") return "Choose the tile you play this turn.";
    if (kind === "luck") return "Place your luck card" + (pending && pending.card ? " (" + cardName(pending.card) + ")" : "") + ": choose a space.";
    if (kind === "action") return "Play an action card" + (pending && pending.tile ? " on tile " + pending.tile : "") + "?";
    if (kind === "take_row") return "Your card" + (pending && pending.tile ? " " + pending.tile : "") + " is lower than every row: take a row.";
    return "Your decision.";
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function start() {
    var root = document.getElementById("seat");
    if (!root) return;
    var stateUrl = root.getAttribute("data-state-url");
    var answerUrl = root.getAttribute("data-answer-url");
    var csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
    function part(name) { return root.querySelector("[data-seat=" + name + "]"); }
    var parts = {
      clock: part("clock"), clockText: part("clock-text"), clockBar: part("clock-bar"),
      prompt: part("prompt"), options: part("options"), error: part("error"), hand: part("hand"),
      cards: part("cards"), cardsWrap: part("cards-wrap"), notices: part("notices"), end: part("end"),
    };
    var title = document.querySelector("[data-table=title]");
    var api = { state: null, sent: [] };
    window.nimmtSeat = api;
    var shownAsk = null; // the request number whose options are on screen
    var sentFor = null; // the request number answered from this page
    var deadline = 0; // performance.now() at which the open decision runs out
    var total = 1;
    var timer = null;
    var drawn = null; // what the options and the hand on screen were drawn from

    function bullheads(tile) {
      var viewer = window.nimmtViewer;
      var state = api.state;
      if (!viewer || !viewer.games || !state) return null;
      var data = viewer.games[state.game];
      return data && data.bullheads ? data.bullheads[tile] : null;
    }

    function tileButton(tile, legal) {
      var b = el("button", "tbl-tile");
      b.type = "button";
      b.setAttribute("data-decision", "tile " + tile);
      b.appendChild(el("span", "n", String(tile)));
      var heads = bullheads(tile);
      if (heads) b.appendChild(el("span", "h", "\u2022".repeat(heads)));
      b.setAttribute("aria-label", "Tile " + tile + (heads ? ", " + heads + " bullhead" + (heads === 1 ? "" : "s") : ""));
      b.disabled = !legal;
      if (legal) b.addEventListener("click", function () { send("tile " + tile); });
      return b;
    }

    function drawHand(state) {
      var view = state.view;
      var ask = state.ask;
      var open = ask && ask.kind === "tile" && sentFor !== ask.request;
      parts.hand.textContent = "";
      (view ? view.hand : []).forEach(function (tile) {
        parts.hand.appendChild(tileButton(tile, !!open && ask.legal.indexOf("tile " + tile) >= 0));
      });
      if (view && view.chosen) parts.hand.appendChild(el("span", "tbl-chosen small", "played: " + view.chosen));
      var cards = view ? view.action_cards : [];
      parts.cardsWrap.hidden = !cards.length;
      parts.cards.textContent = "";
      cards.forEach(function (card) { parts.cards.appendChild(el("span", "tbl-card", cardName(card))); });
    }

    function drawOptions(state) {
      var ask = state.ask;
      parts.options.textContent = "";
      if (!ask || ask.kind === "tile" || sentFor === ask.request) return;
      ask.legal.forEach(function (text, i) {
        var b = el("button", "tbl-option");
        b.type = "button";
        b.setAttribute("data-decision", text);
        b.textContent = (i < 9 ? i + 1 + ". " : "") + label(text);
        b.addEventListener("click", function () { send(text); });
        parts.options.appendChild(b);
      });
    }

    function tick() {
      var left = Math.max(0, deadline - performance.now());
      var ask = api.state && api.state.ask;
      if (!ask) { parts.clock.hidden = true; return; }
      var inBank = left < ask.bank_ms;
      parts.clock.hidden = false;
      parts.clock.classList.toggle("bank", inBank);
      parts.clockText.textContent = (left / 1000).toFixed(1) + " s" + (inBank ? " (bank)" : " (+ bank " + (ask.bank_ms / 1000).toFixed(0) + " s)");
      parts.clockBar.style.width = (100 * left / total).toFixed(1) + "%";
    }

    function show(state) {
      api.state = state;
      var ask = state.ask;
      if (title) title.textContent = state.status === "running" ? (ask && sentFor !== ask.request ? "your move" : "playing") : state.status;
      if (ask && ask.request !== shownAsk) {
        shownAsk = ask.request;
        boardWanted = !boardInSight();
        deadline = performance.now() + ask.remaining_ms;
        total = Math.max(ask.remaining_ms, 1);
        parts.error.hidden = true;
      }
      if (!ask) shownAsk = null;
      if (ask && sentFor !== ask.request) parts.prompt.textContent = prompt(ask.kind, state.view);
      else if (ask) parts.prompt.textContent = "Sent. Waiting for the others…";
      else if (state.status === "running") parts.prompt.textContent = state.dropped ? "The arena dropped you: " + state.dropped : "Waiting for the others…";
      else if (state.status === "queued") parts.prompt.textContent = "Waiting for a worker to deal…";
      else parts.prompt.textContent = "";
      // Redrawn only when they change, so that the focus stays on a tile between polls.
      var key = JSON.stringify([ask && ask.request, ask && ask.legal, sentFor, state.view && state.view.hand, state.view && state.view.action_cards, state.view && state.view.chosen, state.game, bullheads(1) !== null]);
      if (key !== drawn) {
        drawn = key;
        var focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.getAttribute("data-decision") : null;
        drawOptions(state);
        drawHand(state);
        if (focused) {
          var again = root.querySelector('[data-decision="' + focused + '"]:not([disabled])');
          if (again) again.focus();
        }
      }
      tick();
      parts.notices.textContent = "";
      state.notices.slice(-5).reverse().forEach(function (n) { parts.notices.appendChild(el("li", "", n.message)); });
      if (state.status === "finished" || state.status === "failed") {
        parts.end.hidden = false;
        parts.end.textContent = "";
        var r = state.result;
        parts.end.appendChild(document.createTextNode(state.status === "failed" ? "The match failed: " + state.error + " " : r ? "Game over: you ranked " + r.rank + " with " + r.score + " points. " : "Game over. "));
        var a = el("a", "", "Results and replay");
        a.href = state.match_url;
        parts.end.appendChild(a);
        parts.clock.hidden = true;
        var resign = root.querySelector("[data-seat=resign]");
        if (resign) resign.hidden = true;
        root.setAttribute("data-over", "1");
        return false;
      }
      return true;
    }

    // One poll at a time, and only the latest counts: a poll in flight when the person
    // answers may come back after a newer state, and showing it would reopen a decision
    // already answered. An answer (or a newer poll) makes the older polls' replies stale;
    // a stale reply is dropped and schedules nothing, so one chain of polls runs.
    var pollNumber = 0;

    function poll() {
      var mine = ++pollNumber;
      fetch(stateUrl, { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); })
        .then(function (state) {
          if (mine !== pollNumber) return;
          if (show(state)) timer = setTimeout(poll, POLL_MS);
        })
        .catch(function () { if (mine === pollNumber) timer = setTimeout(poll, POLL_MS * 3); });
    }

    function send(text) {
      var ask = api.state && api.state.ask;
      if (!ask || sentFor === ask.request) return;
      sentFor = ask.request;
      pollNumber++; // the polls in flight asked before this answer
      api.sent.push(text);
      show(api.state);
      fetch(answerUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify({ request: ask.request, decision: text }),
      }).then(function (r) {
        return r.json().then(function (body) {
          if (!r.ok) {
            parts.error.hidden = false;
            parts.error.textContent = body.error || "HTTP " + r.status;
            if (r.status === 400) { sentFor = null; show(api.state); }
          }
        });
      }).catch(function (e) { sentFor = null; parts.error.hidden = false; parts.error.textContent = String(e); });
      clearTimeout(timer);
      timer = setTimeout(poll, 100);
    }

    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (/^[1-9]$/.test(e.key)) {
        var option = parts.options.querySelectorAll("button")[+e.key - 1];
        if (option) { e.preventDefault(); e.stopPropagation(); option.click(); }
        return;
      }
      if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && parts.hand.contains(document.activeElement)) {
        var tiles = Array.prototype.slice.call(parts.hand.querySelectorAll("button:not([disabled])"));
        var i = tiles.indexOf(document.activeElement);
        var next = tiles[i + (e.key === "ArrowRight" ? 1 : -1)];
        if (next) next.focus();
        e.preventDefault();
        e.stopPropagation(); // not the viewer's step keys
      }
    }, true);

    setInterval(tick, 100);
    poll();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
