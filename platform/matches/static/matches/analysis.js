/* The decision analysis panel of the replay viewer (markup: matches/includes/analysis.html).
 *
 * The analysis is computed by the site (arena/analysis.py, format `nimmt-analysis/1`, served as
 * JSON at the panel's data-url with the seat in place of the last 0): per decision of one seat,
 * its options' expected final scores with their 95% intervals, the option taken, and the cost of
 * the choice. This script only shows it: for the step the viewer is at, the options of the
 * seat's decision asked there; and the costliest decisions, each a button that moves the viewer
 * to its step. It asks for an analysis (POST to data-request-url) and polls until it is done.
 *
 * It uses the viewer's public API only (window.nimmtViewer: ready, game.names, goToStep, frame
 * indices, seat and setSeat) and its events on #viewer: "nimmt:frame" (a step was drawn) and
 * "nimmt:load" (another seat's view): the panel's seat and the viewer's "Seen by" follow each
 * other, so the options are shown next to the hand the seat held.
 * For tests: window.nimmtAnalysis.data is the analysis shown (null before one is loaded).
 */
(function () {
  "use strict";

  var POLL_MS = 1500;

  function fixed(x) { return x === null || x === undefined ? "\u2013" : (Math.round(x * 100) / 100).toFixed(2); }

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }

  function Panel(root, api) {
    this.root = root;
    this.api = api;
    this.data = null;
    this.timer = null;
    this.index = api.viewer.index;  // the step the viewer shows
    this.part = function (name) { return root.querySelector("[data-analysis=" + name + "]"); };
    var select = this.part("seat");
    api.game.names.forEach(function (name, seat) {
      var option = el("option", name + " (seat " + seat + ")");
      option.value = String(seat);
      select.appendChild(option);
    });
    var self = this;
    select.addEventListener("change", function () {
      self.load();
      if (api.setSeat && api.seat && api.seat() !== self.seat()) api.setSeat(self.seat());
    });
    if (api.seat && api.seat() !== null && api.seat() !== undefined) select.value = String(api.seat());
    this.part("form").addEventListener("submit", function (e) { e.preventDefault(); self.ask(); });
    window.nimmtAnalysis = { panel: this, data: null };
    this.load();
  }

  Panel.prototype.seat = function () { return +this.part("seat").value; };

  Panel.prototype.url = function () {
    return this.root.getAttribute("data-url").replace(/\/0\/$/, "/" + this.seat() + "/");
  };

  Panel.prototype.say = function (text, bad) {
    var status = this.part("status");
    status.textContent = text;
    status.classList.toggle("bad", !!bad);
  };

  Panel.prototype.load = function () {
    var self = this;
    clearTimeout(this.timer);
    var seat = this.seat();
    fetch(this.url(), { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (body) { if (seat === self.seat()) self.show(body); })
      .catch(function () { self.say("The analysis could not be loaded.", true); });
  };

  Panel.prototype.ask = function () {
    var self = this;
    var form = this.part("form");
    var button = this.part("request");
    if (button) button.disabled = true;
    fetch(this.root.getAttribute("data-request-url"), {
      method: "POST", body: new FormData(form), credentials: "same-origin", headers: { Accept: "application/json" },
    })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (answer) {
        if (button) button.disabled = false;
        if (!answer.ok) { self.say(answer.body.error || "The analysis could not be asked for.", true); return; }
        self.show(answer.body);
      })
      .catch(function () { if (button) button.disabled = false; self.say("The analysis could not be asked for.", true); });
  };

  Panel.prototype.show = function (body) {
    var self = this;
    clearTimeout(this.timer);
    this.data = body.status === "done" ? body.analysis : null;
    window.nimmtAnalysis.data = this.data;
    this.root.setAttribute("data-status", body.status);
    if (body.status === "none") this.say("This seat has not been analysed yet.");
    else if (body.status === "queued" || body.status === "running") {
      this.say(body.status === "queued" ? "Waiting for a worker\u2026" : "Analysing\u2026");
      this.timer = setTimeout(function () { self.load(); }, POLL_MS);
    } else if (body.status === "failed") this.say("The analysis failed: " + body.error, true);
    else {
      var a = this.data;
      this.say(a.decisions.length + " decisions, " + a.samples + " deals each, in " + fixed(a.seconds) + " s" +
        (a.complete ? "." : " (cut short by its time budget: the later decisions are missing).") +
        (a.higher_is_better ? " Scores are points: more is better." : " Scores are penalty points: fewer is better."));
    }
    this.drawList();
    this.follow();
  };

  Panel.prototype.drawList = function () {
    var self = this;
    var box = this.part("costly");
    var list = this.part("list");
    list.textContent = "";
    box.hidden = !this.data;
    if (!this.data) return;
    var a = this.data;
    a.costliest.forEach(function (i) {
      var d = a.decisions[i];
      var item = el("li");
      var button = el("button", "Turn " + d.turn + ", " + d.kind + ": took \u201c" + d.chosen + "\u201d, best \u201c" + d.best +
        "\u201d \u2014 cost " + fixed(d.cost) + " \u00b1 " + fixed(d.cost_half));
      button.type = "button";
      button.setAttribute("data-frame", String(d.frame));
      button.addEventListener("click", function () { self.api.goToStep(d.frame); });
      item.appendChild(button);
      list.appendChild(item);
    });
  };

  /* The options of the seat's decision asked right after the viewer's current step. */
  Panel.prototype.follow = function () {
    var box = this.part("step");
    if (!this.data) { box.hidden = true; return; }
    var index = this.index;
    var found = this.data.decisions.filter(function (d) { return d.frame === index; });
    box.hidden = false;
    var body = this.part("options");
    body.textContent = "";
    var note = this.part("step-note");
    if (!found.length) {
      var next = this.data.decisions.filter(function (d) { return d.frame > index; })[0];
      note.textContent = "The seat has no decision to take at this step (or only one option)." +
        (next ? " Its next one: turn " + next.turn + " (" + next.kind + ")." : "");
      return;
    }
    var d = found[0];
    var shown = d.options.length < d.legal ? " (" + d.options.length + " of " + d.legal + " legal options estimated)" : "";
    note.textContent = "Turn " + d.turn + ", " + d.kind + ": took \u201c" + d.chosen + "\u201d; cost " + fixed(d.cost) + " \u00b1 " + fixed(d.cost_half) + shown + ".";
    var sign = this.data.higher_is_better ? -1 : 1;
    d.options.slice().sort(function (x, y) { return sign * (x.mean - y.mean); }).forEach(function (o) {
      var row = el("tr");
      var name = el("td", o.decision);
      if (o.decision === d.chosen) { row.classList.add("chosen"); name.appendChild(el("strong", " \u00b7 taken")); }
      if (o.decision === d.best) { row.classList.add("best"); name.appendChild(el("span", " \u00b7 best", "muted")); }
      row.appendChild(name);
      row.appendChild(el("td", fixed(o.mean), "num"));
      row.appendChild(el("td", fixed(o.half), "num"));
      row.appendChild(el("td", String(o.samples), "num"));
      body.appendChild(row);
    });
  };

  function start() {
    var root = document.getElementById("analysis");
    if (!root || !window.nimmtViewer) return;
    window.nimmtViewer.ready.then(function (api) {
      var panel = new Panel(root, api);
      var viewer = document.getElementById("viewer");
      viewer.addEventListener("nimmt:frame", function (e) { panel.index = e.detail.index; panel.follow(); });
      viewer.addEventListener("nimmt:load", function (e) {
        var seat = e.detail.seat;
        if (seat !== null && seat !== undefined && seat !== panel.seat()) {
          panel.part("seat").value = String(seat);
          panel.load();
        }
      });
    }, function () { root.hidden = true; });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
