"use strict";
/**
 * The starter bot: copy this folder, rename the bot in nimmt-bot.toml, make it yours.
 *
 * It overrides one decision of the bot kit's KitBot and keeps the defaults for the others
 * (first free space for a luck card, no action card, the row with the fewest bullheads in the
 * card game). It plays exactly as bots/starter-python does. See README.md beside this file.
 */

const { KitBot, run } = require("./nimmt/botkit");

/** The row's last tile, 0 if the row is empty (skipped spaces hold -1). */
function lastTile(row) {
  const tiles = row.filter((t) => t > 0);
  return tiles.length ? tiles[tiles.length - 1] : 0;
}

/** How many spaces of the row are used (tiles and skipped spaces). */
function filled(row) {
  for (let i = row.length - 1; i >= 0; i--) if (row[i] !== 0) return i + 1;
  return 0;
}

/**
 * The row `tile` goes to by the normal rule (RULES.md 3.2): the active row whose last tile is
 * the highest one below `tile`; if there is none, the row with the highest last tile (card
 * game: null, the player must take a row).
 */
function targetRow(view, tile) {
  let below = null;
  let highest = null;
  view.spaces.forEach((row, r) => {
    const end = lastTile(row);
    if (!end || view.stops.includes(r)) return;
    if (end < tile && (below === null || end > lastTile(view.spaces[below]))) below = r;
    if (highest === null || end > lastTile(view.spaces[highest])) highest = r;
  });
  if (below !== null) return below;
  if (view.variant === "classic") return null;
  if (highest === null) throw new Error("no open row to place a tile on");
  return highest;
}

/**
 * Where `tile` would go: [its row (null: card game, lower than every row, we would take one),
 * whether it completes the row, its distance from the row's last tile].
 */
function fit(view, tile) {
  const row = targetRow(view, tile);
  if (row === null) return [null, true, 0];
  const spaces = view.spaces[row];
  // Board game: the last space is the final one. Card game: the sixth card takes.
  const room = spaces.length - filled(spaces) - (view.variant === "classic" ? 0 : 1);
  return [row, room <= 0, tile - lastTile(spaces)];
}

/** The starter's own number for a tile, shown to its owner beside the note: the distance from
 * the end of the row it goes to (a close fit is safer), -1 if it completes or takes a row. */
function tileValue(view, tile) {
  const [, completes, gap] = fit(view, tile);
  return completes ? -1 : gap;
}

/** A line about the tile choice for the bot's owner: each tile's row and fit. */
function tileNote(view, chosen) {
  const parts = view.hand.map((tile) => {
    const [row, completes, gap] = fit(view, tile);
    if (row === null) return `${tile}\u2192takes a row`;
    if (completes) return `${tile}\u2192row ${row} completes`;
    return `${tile}\u2192row ${row} gap ${gap}`;
  });
  return `chose ${chosen}: ` + parts.join(", ");
}

class StarterBot extends KitBot {
  name = "starter";

  /** Prefer tiles that do not complete a row, the closest fit first; say why in a note. */
  chooseTile(view) {
    const risk = (tile) => {
      const [row, completes, gap] = fit(view, tile);
      return row === null ? [1, tile] : [completes ? 1 : 0, gap];
    };
    let best = view.hand[0];
    let bestRisk = risk(best);
    for (const tile of view.hand) {
      const r = risk(tile);
      // the first of equal risks, as Python's min()
      if (r[0] < bestRisk[0] || (r[0] === bestRisk[0] && r[1] < bestRisk[1])) {
        best = tile;
        bestRisk = r;
      }
    }
    const values = {};
    for (const tile of view.hand) values[tile] = tileValue(view, tile);
    this.annotate(tileNote(view, best), values);
    return best;
  }
}

module.exports = { StarterBot };

if (require.main === module) run(new StarterBot());
