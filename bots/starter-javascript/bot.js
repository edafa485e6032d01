"use strict";
/**
 * The starter bot: copy this folder, rename the bot in nimmt-bot.toml, make it yours.
 *
 * It overrides one decision of the bot kit's KitBot and keeps the defaults for the others
 * (first free space for a luck card, no action card, the row with the fewest bullheads in the
 * card game). It plays exactly as bots/starter-python does. See README.md beside this file.
 */

const { KitBot, bullheads, run } = require("./nimmt/botkit");

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
 * game: null, the player must take a row). null too when Stop cards closed every row that
 * holds a tile: nothing is known of where it goes.
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
  return highest;
}

/**
 * Where `tile` would go: [its row (null: card game, lower than every row, we would take one;
 * or no row open), whether it completes the row, its distance from the row's last tile
 * (negative: the board game puts a tile lower than every row's end after the highest end)].
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
    if (row === null && view.variant !== "classic") return `${tile}\u2192no open row`;
    if (row === null) return `${tile}\u2192takes a row`;
    if (completes) return `${tile}\u2192row ${row} completes`;
    return `${tile}\u2192row ${row} gap ${gap}`;
  });
  return `chose ${chosen}: ` + parts.join(", ");
}

/** The bullheads of the row's tiles (the card game's). */
function rowBullheads(row) {
  return row.filter((t) => t > 0).reduce((total, t) => total + bullheads(t), 0);
}

/**
 * How the starter ranks a tile, the lowest first: a tile that goes after a lower row end
 * without completing the row, the closest fit first; then one lower than every row's end (the
 * board game puts it after the highest end), the closest first; then one that completes its
 * row (board game: the closest first; card game: the fewest bullheads taken first, a tile lower
 * than every row taking the cheapest row); last, in the board game, one that finds no open row
 * (Stop cards closed them all), the lowest first.
 */
function risk(view, tile) {
  const [row, completes, gap] = fit(view, tile);
  if (view.variant === "classic" && completes) {
    return [2, row !== null ? rowBullheads(view.spaces[row]) : Math.min(...view.spaces.map(rowBullheads))];
  }
  if (row === null) return [3, tile];
  if (completes) return [2, Math.abs(gap)];
  return gap < 0 ? [1, -gap] : [0, gap];
}

class StarterBot extends KitBot {
  name = "starter";

  /** The tile of the lowest risk (the first of equal ones in the hand's order); say why in a
   * note. */
  chooseTile(view) {
    let best = view.hand[0];
    let bestRisk = risk(view, best);
    for (const tile of view.hand) {
      const r = risk(view, tile);
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
