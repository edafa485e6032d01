// The starter bot: copy this folder, rename the bot in nimmt-bot.toml, make it yours.
//
// It overrides one decision of the bot kit's nimmt::KitBot and keeps the defaults for the
// others (first free space for a luck card, no action card, the row with the fewest bullheads
// in the card game). It plays exactly as bots/starter-python does. See README.md.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "nimmt/botkit.h"

namespace {

// The row's last tile, 0 if the row is empty (skipped spaces hold -1).
int last_tile(const std::vector<int>& row) {
  for (auto it = row.rbegin(); it != row.rend(); ++it) {
    if (*it > 0) return *it;
  }
  return 0;
}

// How many spaces of the row are used (tiles and skipped spaces).
int filled(const std::vector<int>& row) {
  for (int i = static_cast<int>(row.size()) - 1; i >= 0; --i) {
    if (row[i] != 0) return i + 1;
  }
  return 0;
}

// The row `tile` goes to by the normal rule (RULES.md 3.2): the active row whose last tile is
// the highest one below `tile`; if there is none, the row with the highest last tile (card
// game: nullopt, the player must take a row). nullopt too when Stop cards closed every row that
// holds a tile: nothing is known of where it goes.
std::optional<int> target_row(const nimmt::View& view, int tile) {
  std::optional<int> below, highest;
  for (int r = 0; r < static_cast<int>(view.spaces.size()); ++r) {
    int end = last_tile(view.spaces[r]);
    bool stopped = std::find(view.stops.begin(), view.stops.end(), r) != view.stops.end();
    if (end == 0 || stopped) continue;
    if (end < tile && (!below || end > last_tile(view.spaces[*below]))) below = r;
    if (!highest || end > last_tile(view.spaces[*highest])) highest = r;
  }
  if (below) return below;
  if (view.variant == "classic") return std::nullopt;
  return highest;
}

// Where `tile` would go: its row (nullopt: card game, lower than every row, we would take
// one; or no row open), whether it completes the row, and its distance from the row's last
// tile (negative: the board game puts a tile lower than every row's end after the highest end).
struct Fit {
  std::optional<int> row;
  bool completes = true;
  int gap = 0;
};

Fit fit(const nimmt::View& view, int tile) {
  std::optional<int> row = target_row(view, tile);
  if (!row) return {};
  const std::vector<int>& spaces = view.spaces[*row];
  // Board game: the last space is the final one. Card game: the sixth card takes.
  int room = static_cast<int>(spaces.size()) - filled(spaces) - (view.variant == "classic" ? 0 : 1);
  return {row, room <= 0, tile - last_tile(spaces)};
}

// The starter's own number for a tile, shown to its owner beside the note: the distance from
// the end of the row it goes to (a close fit is safer), -1 if it completes or takes a row.
double tile_value(const nimmt::View& view, int tile) {
  Fit f = fit(view, tile);
  return f.completes ? -1.0 : static_cast<double>(f.gap);
}

// A line about the tile choice for the bot's owner: each tile's row and fit.
std::string tile_note(const nimmt::View& view, int chosen) {
  std::string text = "chose " + std::to_string(chosen) + ": ";
  for (std::size_t i = 0; i < view.hand.size(); ++i) {
    int tile = view.hand[i];
    Fit f = fit(view, tile);
    if (i) text += ", ";
    text += std::to_string(tile) + "\u2192";
    if (!f.row && view.variant != "classic") {
      text += "no open row";
    } else if (!f.row) {
      text += "takes a row";
    } else if (f.completes) {
      text += "row " + std::to_string(*f.row) + " completes";
    } else {
      text += "row " + std::to_string(*f.row) + " gap " + std::to_string(f.gap);
    }
  }
  return text;
}

// The bullheads of the row's tiles (the card game's).
int row_bullheads(const std::vector<int>& row) {
  int total = 0;
  for (int tile : row) {
    if (tile > 0) total += nimmt::bullheads(tile);
  }
  return total;
}

// How the starter ranks a tile, the lowest first: a tile that goes after a lower row end
// without completing the row, the closest fit first; then one lower than every row's end (the
// board game puts it after the highest end), the closest first; then one that completes its
// row (board game: the closest first; card game: the fewest bullheads taken first, a tile lower
// than every row taking the cheapest row); last, in the board game, one that finds no open row
// (Stop cards closed them all), the lowest first.
std::pair<int, int> risk(const nimmt::View& view, int tile) {
  Fit f = fit(view, tile);
  if (view.variant == "classic" && f.completes) {
    if (f.row) return {2, row_bullheads(view.spaces[*f.row])};
    int cheapest = -1;
    for (const auto& row : view.spaces) {
      int cost = row_bullheads(row);
      if (cheapest < 0 || cost < cheapest) cheapest = cost;
    }
    return {2, cheapest};
  }
  if (!f.row) return {3, tile};
  if (f.completes) return {2, std::abs(f.gap)};
  return f.gap < 0 ? std::pair<int, int>{1, -f.gap} : std::pair<int, int>{0, f.gap};
}

class StarterBot : public nimmt::KitBot {
 public:
  std::string name() const override { return "starter"; }

  // The tile of the lowest risk (the first of equal ones in the hand's order); say why in a note.
  int choose_tile(const nimmt::View& view) override {
    int best = view.hand.front();
    auto best_risk = risk(view, best);
    for (int tile : view.hand) {
      auto r = risk(view, tile);
      if (r < best_risk) best = tile, best_risk = r;  // the first of equal risks, as Python's min
    }
    std::map<int, double> values;
    for (int tile : view.hand) values[tile] = tile_value(view, tile);
    annotate(tile_note(view, best), nimmt::tile_values(view, values));
    return best;
  }
};

}  // namespace

int main(int argc, char** argv) {
  StarterBot bot;
  return nimmt::run(bot, argc, argv);
}
