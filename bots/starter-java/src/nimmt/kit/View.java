package nimmt.kit;

import java.util.List;

/**
 * One seat's view (RULES.md 6): everything it may know, and its legal options; the fields of
 * protos/nimmt/v1/arena.proto's Observation as plain Java values. Rows, spaces and seats count
 * from 0.
 *
 * @param layout one string per row, ".+-FDAC" (empty for the card game)
 * @param spaces per row, per space: the tile, 0 empty, -1 skipped
 * @param hand ascending
 * @param chosen the tile chosen this turn before the reveal, or {@code null}
 * @param history per turn, per seat: the tile revealed (0: none)
 * @param pending the decision under way, {@code null} once the game is over
 * @param legal this seat's legal options, in the engine's order
 */
public record View(
    String variant,
    int seat,
    int players,
    int turn,
    int setNumber,
    List<String> layout,
    List<List<Integer>> spaces,
    List<Marker> markers,
    List<Integer> stops,
    List<Integer> hand,
    List<String> actionCards,
    Integer chosen,
    List<Integer> scores,
    List<Integer> handSizes,
    List<Integer> actionCounts,
    List<List<Integer>> history,
    List<Choice> choices,
    List<Placement> toPlace,
    int supplySize,
    int luckDeckSize,
    int actionDeckSize,
    Pending pending,
    List<Decision> legal) {

  /** The decision the game waits for: who must answer, the tile to place, the luck card. */
  public record Pending(Decision.Kind kind, List<Integer> seats, Integer tile, String card) {}

  /** A decision already taken this turn (public); {@code null} where unused. */
  public record Choice(
      int seat,
      Decision.Kind kind,
      String card,
      Integer tile,
      Integer row,
      Integer space,
      Integer newTile) {}

  /** A luck card ("plus5", "final10") lying on the board. */
  public record Marker(int row, int space, String card) {}

  /** A revealed tile waiting to be placed. */
  public record Placement(int tile, int seat) {}
}
