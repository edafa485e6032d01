/* A bot's notes on its decisions, in the replay viewer, for the bot's owner only.
 *
 * The game page embeds the notes (#viewer-notes, `{"format": "nimmt-notes/1", "seats", "notes"}`)
 * only for the owner of a seat's bot: the site never sends them to anyone else, so this script
 * hides nothing. Each note names its decision (docs/REPLAY.md, notes files): `turn` (0-based),
 * `seat`, `kind` and `index` (the seat's count of decisions of that kind in the turn). It is
 * shown at the step where the engine asks for that decision: a tile choice at the position
 * before the turn (the frame after the previous turn), any other decision at the index-th frame
 * of the turn whose `asks` is that seat and kind. The panel sits below the viewer's caption and
 * follows the viewer's "nimmt:frame" events.
 */
(function () {
  "use strict";

  function start() {
    var root = document.getElementById("viewer");
    var source = document.getElementById("viewer-notes");
    if (!root || !source) return;
    var data;
    try { data = JSON.parse(source.textContent); } catch (e) { return; }
    if (!data || !data.notes || !data.notes.length) return;
    var panel = document.createElement("div");
    panel.className = "viewer-notes";
    panel.setAttribute("aria-live", "polite");
    var caption = root.querySelector(".viewer-side .caption");
    if (caption && caption.parentNode) caption.parentNode.insertBefore(panel, caption.nextSibling);
    else root.appendChild(panel);
    var atFrame = {}; // frame index -> notes shown there
    var names = [];

    function place(game) {
      atFrame = {};
      names = game.names || [];
      data.notes.forEach(function (note) {
        var frame = frameOf(game, note);
        if (frame === null) return;
        (atFrame[frame] = atFrame[frame] || []).push(note);
      });
    }

    function frameOf(game, note) {
      if (typeof note.turn !== "number" || note.turn < 0 || note.turn >= game.turns) return null;
      if (note.kind === "tile") return game.turnEnd[note.turn];
      var seen = 0;
      for (var i = game.turnEnd[note.turn] + 1; i <= game.turnEnd[note.turn + 1]; i++) {
        var asks = game.frames[i].asks;
        if (asks && asks.seat === note.seat && asks.kind === note.kind) {
          if (seen === note.index) return i;
          seen++;
        }
      }
      return game.turnEnd[note.turn] + 1; // the turn's reveal, if the step is not found
    }

    function show(index) {
      var notes = atFrame[index] || [];
      panel.textContent = "";
      var head = document.createElement("p");
      head.className = "small";
      var strong = document.createElement("strong");
      strong.textContent = "Your bot\u2019s notes";
      head.appendChild(strong);
      head.appendChild(document.createTextNode(notes.length ? " (only you see these)" : ": none at this step (only you see them)"));
      panel.appendChild(head);
      notes.forEach(function (note) {
        var block = document.createElement("div");
        block.className = "viewer-note";
        block.setAttribute("data-seat", String(note.seat));
        block.setAttribute("data-turn", String(note.turn));
        var who = document.createElement("p");
        who.className = "small muted";
        who.textContent = (names[note.seat] || "seat " + note.seat) + ", turn " + (note.turn + 1) + ", " +
          note.kind.replace("_", " ") + ": played " + note.decision;
        block.appendChild(who);
        if (note.text) {
          var text = document.createElement("p");
          text.className = "viewer-note-text";
          text.textContent = note.text;
          block.appendChild(text);
        }
        if (note.values && note.values.length) block.appendChild(valueTable(note));
        panel.appendChild(block);
      });
    }

    function valueTable(note) {
      var table = document.createElement("table");
      table.className = "data viewer-note-values";
      var head = table.createTHead().insertRow();
      ["Option", "Bot\u2019s value"].forEach(function (label, i) {
        var th = document.createElement("th");
        th.textContent = label;
        if (i) th.className = "num";
        head.appendChild(th);
      });
      var body = table.createTBody();
      note.values.forEach(function (value, i) {
        var row = body.insertRow();
        var option = (note.options || [])[i] || "option " + (i + 1);
        if (option === note.decision) row.className = "chosen";
        row.insertCell().textContent = option;
        var cell = row.insertCell();
        cell.className = "num";
        cell.textContent = typeof value === "number" ? String(Math.round(value * 1000) / 1000) : "\u2014";
      });
      return table;
    }

    root.addEventListener("nimmt:load", function (e) { place(e.detail.game); });
    root.addEventListener("nimmt:frame", function (e) { show(e.detail.index); });
    // The viewer may have drawn its first frame before this script ran.
    if (window.nimmtViewer && window.nimmtViewer.ready) {
      window.nimmtViewer.ready.then(function (api) {
        if (!api.game) return;
        place(api.game);
        show(api.frame().index);
      }).catch(function () { return null; });
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
