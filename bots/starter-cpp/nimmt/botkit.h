// The C++ bot kit: write a bot as a class with one method per decision, then
// `return nimmt::run(bot, argc, argv);` connects it to the arena.
//
// It mirrors the Python kit (arena/botkit.py): a KitBot overrides only the decisions it cares
// about; the others keep the arena's defaults (lowest tile, first legal luck space, no action
// card, the row with the fewest bullheads). Every method gets the seat's whole view, a View
// (the fields of protos/nimmt/v1/arena.proto's Observation as plain C++ values), whose `legal`
// lists every legal option.
//
//     #include "nimmt/botkit.h"
//
//     class Lowball : public nimmt::KitBot {
//      public:
//       std::string name() const override { return "lowball"; }
//       int choose_tile(const nimmt::View& view) override { return view.hand.front(); }
//     };
//
//     int main(int argc, char** argv) { Lowball bot; return nimmt::run(bot, argc, argv); }
//
// Where to connect: the arena sets NIMMT_ENGINE (e.g. unix:///run/nimmt/engine.sock) and
// NIMMT_TOKEN_FILE, the file holding the bot's token; by hand, pass --connect ADDRESS and
// --token TOKEN (or set NIMMT_TOKEN). When the arena also sets NIMMT_FRAMES (a bot it started
// on its own machine), the kit plays there instead: the same messages without gRPC, each
// prefixed by its length (arena.proto, "The framed socket"), at less CPU per decision;
// --connect frames+unix:///path does the same by hand. run() plays until the match ends and returns the exit
// code: 0 after a normal match, 1 if the arena ended the connection with an error (the reason
// is logged to stderr, which the arena keeps as the bot's log), 2 for a usage error, 3 if the
// bot's own code threw.
//
// Notes: in a method, annotate("text", values) says what the bot was thinking about the
// decision, for its owner's eyes only (the site's viewer shows it to the owner at that step;
// `nimmt match` writes it to notes/game-00001.json). `values` are numbers per legal option, in
// the order of view.legal (tile_values makes them from numbers per tile; NaN for none). The kit
// cuts the text to 1000 bytes of UTF-8 (between characters) and the values to 128 and to the
// number of options; a value that is not finite counts as none. Notes never cause a fault.
#ifndef NIMMT_BOTKIT_H
#define NIMMT_BOTKIT_H

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace nimmt {

// The protocol version this kit speaks (Hello.protocol_version).
constexpr int kProtocolVersion = 1;

// What a decision is about.
enum class Kind { kTile, kLuck, kAction, kTakeRow };

// A decision: `kind` says which fields mean something.
//   kTile:    tile (from the hand)
//   kLuck:    row, space (a free space for the drawn luck card)
//   kAction:  card ("" declines; "stop", "swap", "skip", "front", "ascending", "anywhere",
//             "another", "plus5"), row (stop, front, ascending, anywhere), new_tile (swap,
//             another)
//   kTakeRow: row (card game)
struct Decision {
  Kind kind = Kind::kTile;
  int tile = 0;
  int row = 0;
  int space = 0;
  std::string card;
  std::optional<int> action_row;
  std::optional<int> new_tile;

  static Decision play_tile(int tile);
  static Decision place_luck(int row, int space);
  static Decision play_action(std::string card, std::optional<int> row = std::nullopt,
                              std::optional<int> new_tile = std::nullopt);
  static Decision take_row(int row);
  bool operator==(const Decision& other) const;
  // The engine's text form: "tile 37", "luck 2 4", "action none", "action stop row=3",
  // "action swap new_tile=12", "take_row 1".
  std::string str() const;
};

// An action card to play (PlayAction in the protocol); see KitBot::play_action.
struct PlayAction {
  std::string card;
  std::optional<int> row;
  std::optional<int> new_tile;
};

// The decision the game waits for.
struct Pending {
  Kind kind = Kind::kTile;
  std::vector<int> seats;   // who must still answer
  std::optional<int> tile;  // the tile about to be placed (action, take row)
  std::string card;         // the luck card to place ("plus5", "final10"; luck only)
};

// A decision already taken this turn (public).
struct Choice {
  int seat = 0;
  Kind kind = Kind::kLuck;
  std::string card;  // the luck card placed or the action card played
  std::optional<int> tile;
  std::optional<int> row;
  std::optional<int> space;
  std::optional<int> new_tile;
};

// A luck card lying on the board.
struct Marker {
  int row = 0;
  int space = 0;
  std::string card;  // "plus5" or "final10"
};

// A revealed tile waiting to be placed.
struct Placement {
  int tile = 0;
  int seat = 0;
};

// One seat's view (RULES.md 6): everything it may know, and its legal options.
struct View {
  std::string variant;  // "basic", "basic+luck", "pro", "pro+luck", "classic"
  int seat = 0;
  int players = 0;
  int turn = 0;
  int set_number = 1;
  std::vector<std::string> layout;       // one string per row, ".+-FDAC"; empty: card game
  std::vector<std::vector<int>> spaces;  // per row, per space: tile, 0 empty, -1 skipped
  std::vector<Marker> markers;
  std::vector<int> stops;                // rows closed by a Stop card this turn
  std::vector<int> hand;                 // ascending
  std::vector<std::string> action_cards;
  std::optional<int> chosen;
  std::vector<int> scores;
  std::vector<int> hand_sizes;
  std::vector<int> action_counts;
  std::vector<std::vector<int>> history;  // per turn, per seat: the tile revealed (0: none)
  std::vector<Choice> choices;
  std::vector<Placement> to_place;
  int supply_size = 0;
  int luck_deck_size = 0;
  int action_deck_size = 0;
  std::optional<Pending> pending;  // unset once the game is over
  std::vector<Decision> legal;     // this seat's legal options, in the engine's order
};

// The game a GameStart announces.
struct GameInfo {
  std::string variant;
  int players = 0;
  int seat = 0;
  uint64_t seed = 0;  // for the bot's own random generator
  std::string game_id;
};

// What a bot says it was thinking about one decision (see "Notes" above).
struct Note {
  std::string text;
  std::vector<double> values;  // per legal option, in the order of View::legal; NaN: none
};

// The longest note the arena keeps (bytes of UTF-8), and the most values.
constexpr std::size_t kNoteBytes = 1000;
constexpr std::size_t kMaxValues = 128;

// `text` cut to at most `limit` bytes, never inside a UTF-8 character.
std::string cut_utf8(const std::string& text, std::size_t limit = kNoteBytes);
// Values per legal option from numbers per tile (NaN for an option without one).
std::vector<double> tile_values(const View& view, const std::map<int, double>& by_tile);

// Bullheads printed on a tile (the card game's table).
int bullheads(int tile);
// The row whose tiles carry the fewest bullheads (the topmost of equal rows).
int fewest_bullheads_row(const std::vector<std::vector<int>>& spaces);

// A bot with one method per decision; override the ones you want.
class KitBot {
 public:
  virtual ~KitBot() = default;
  // The bot's own name, for its log (the arena names seats from the manifest).
  virtual std::string name() const { return "kitbot"; }
  // A game begins; an override must call KitBot::start_game(info).
  virtual void start_game(const GameInfo& info);
  // A game is over: the final view, scores and ranks in seat order.
  virtual void end_game(const View& view, const std::vector<int>& scores,
                        const std::vector<int>& ranks);
  // Dispatches on view.pending->kind to the four methods below.
  virtual Decision decide(const View& view);

  // The tile to reveal this turn, from view.hand. Default: the lowest.
  virtual int choose_tile(const View& view);
  // (row, space) for the luck card `card` just drawn; view.legal has the free spaces.
  // Default: the first.
  virtual std::pair<int, int> place_luck(const View& view, const std::string& card);
  // An action card to play on `tile` (yours, about to be placed), or nullopt to keep the
  // cards; view.legal has the legal ones. Default: nullopt.
  virtual std::optional<PlayAction> play_action(const View& view, int tile);
  // Card game: the row to take because `tile` is lower than every row's end.
  // Default: the row with the fewest bullheads.
  virtual int take_row(const View& view, int tile);

  // Seconds left to answer the current request (infinity outside a request).
  double time_left() const;

  // A note on the decision being made, for the bot's owner (a later call replaces it).
  void annotate(std::string text, std::vector<double> values = {});
  // The note annotate() made for the decision just taken (taken once; nullopt if none).
  std::optional<Note> take_note();

 protected:
  GameInfo info;        // the current game
  std::mt19937_64 rng;  // seeded from the game's seed: same match seed, same game

 private:
  std::optional<Note> note_;
};

// Parse the command line and environment, play the match, return the exit code (see above).
int run(KitBot& bot, int argc, char** argv);

}  // namespace nimmt

#endif  // NIMMT_BOTKIT_H
