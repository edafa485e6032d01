// The starter bot: copy this folder, rename the bot in nimmt-bot.toml, make it yours.
//
// It overrides one decision of the bot kit's nimmt::KitBot and keeps the defaults for the
// others (first free space for a luck card, no action card, the row with the fewest bullheads
// in the card game). It plays exactly as bots/starter-python does. See README.md.
#include <algorithm>
#include <optional>
#include <stdexcept>
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
// game: nullopt, the player must take a row).
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
  if (!highest) throw std::runtime_error("no open row to place a tile on");
  return highest;
}

class StarterBot : public nimmt::KitBot {
 public:
  std::string name() const override { return "starter"; }

  // Prefer tiles that do not complete a row, the closest fit first.
  int choose_tile(const nimmt::View& view) override {
    auto risk = [&](int tile) -> std::pair<int, int> {
      std::optional<int> row = target_row(view, tile);
      if (!row) return {1, tile};  // card game: lower than every row, we would take one
      const std::vector<int>& spaces = view.spaces[*row];
      // Board game: the last space is the final one. Card game: the sixth card takes.
      int room = static_cast<int>(spaces.size()) - filled(spaces) - (view.variant == "classic" ? 0 : 1);
      return {room <= 0 ? 1 : 0, tile - last_tile(spaces)};
    };
    int best = view.hand.front();
    auto best_risk = risk(best);
    for (int tile : view.hand) {
      auto r = risk(tile);
      if (r < best_risk) best = tile, best_risk = r;  // the first of equal risks, as Python's min
    }
    return best;
  }
};

}  // namespace

int main(int argc, char** argv) {
  StarterBot bot;
  return nimmt::run(bot, argc, argv);
}
