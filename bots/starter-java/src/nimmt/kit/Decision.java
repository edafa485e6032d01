package nimmt.kit;

import java.util.Objects;

/**
 * A decision; {@link #kind} says which fields mean something.
 *
 * <ul>
 *   <li>{@code TILE}: {@link #tile} (from the hand)
 *   <li>{@code LUCK}: {@link #row}, {@link #space} (a free space for the drawn luck card)
 *   <li>{@code ACTION}: {@link #card} ({@code null} declines; "stop", "swap", "skip", "front",
 *       "ascending", "anywhere", "another", "plus5"), {@link #actionRow} (stop, front, ascending,
 *       anywhere), {@link #newTile} (swap, another); {@code null} where unused
 *   <li>{@code TAKE_ROW}: {@link #row} (card game)
 * </ul>
 */
public record Decision(
    Kind kind, int tile, int row, int space, String card, Integer actionRow, Integer newTile) {

  /** What a decision is about. */
  public enum Kind {
    TILE,
    LUCK,
    ACTION,
    TAKE_ROW
  }

  public static Decision playTile(int tile) {
    return new Decision(Kind.TILE, tile, 0, 0, null, null, null);
  }

  public static Decision placeLuck(int row, int space) {
    return new Decision(Kind.LUCK, 0, row, space, null, null, null);
  }

  public static Decision playAction(String card, Integer row, Integer newTile) {
    return new Decision(Kind.ACTION, 0, 0, 0, card, row, newTile);
  }

  public static Decision takeRow(int row) {
    return new Decision(Kind.TAKE_ROW, 0, row, 0, null, null, null);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Decision d && toString().equals(d.toString());
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(toString());
  }

  /**
   * The engine's text form: "tile 37", "luck 2 4", "action none", "action stop row=3", "action
   * swap new_tile=12", "take_row 1".
   */
  @Override
  public String toString() {
    switch (kind) {
      case TILE:
        return "tile " + tile;
      case LUCK:
        return "luck " + row + " " + space;
      case TAKE_ROW:
        return "take_row " + row;
      default:
        String text = "action " + (card == null ? "none" : card);
        if (actionRow != null) text += " row=" + actionRow;
        if (newTile != null) text += " new_tile=" + newTile;
        return text;
    }
  }
}
