import java.util.List;
import nimmt.kit.KitBot;
import nimmt.kit.View;

/**
 * The starter bot: copy this folder, rename the bot in nimmt-bot.toml, make it yours.
 *
 * <p>It overrides one decision of the bot kit's {@link KitBot} and keeps the defaults for the
 * others (first free space for a luck card, no action card, the row with the fewest bullheads in
 * the card game). It plays exactly as bots/starter-python does. See README.md.
 */
public final class StarterBot extends KitBot {
  @Override
  public String name() {
    return "starter";
  }

  /** The row's last tile, 0 if the row is empty (skipped spaces hold -1). */
  static int lastTile(List<Integer> row) {
    for (int i = row.size() - 1; i >= 0; i--) if (row.get(i) > 0) return row.get(i);
    return 0;
  }

  /** How many spaces of the row are used (tiles and skipped spaces). */
  static int filled(List<Integer> row) {
    for (int i = row.size() - 1; i >= 0; i--) if (row.get(i) != 0) return i + 1;
    return 0;
  }

  /**
   * The row {@code tile} goes to by the normal rule (RULES.md 3.2): the active row whose last tile
   * is the highest one below {@code tile}; if there is none, the row with the highest last tile
   * (card game: {@code null}, the player must take a row).
   */
  static Integer targetRow(View view, int tile) {
    Integer below = null;
    Integer highest = null;
    for (int r = 0; r < view.spaces().size(); r++) {
      int end = lastTile(view.spaces().get(r));
      if (end == 0 || view.stops().contains(r)) continue;
      if (end < tile && (below == null || end > lastTile(view.spaces().get(below)))) below = r;
      if (highest == null || end > lastTile(view.spaces().get(highest))) highest = r;
    }
    if (below != null) return below;
    if (view.variant().equals("classic")) return null;
    if (highest == null) throw new IllegalStateException("no open row to place a tile on");
    return highest;
  }

  /** Prefer tiles that do not complete a row, the closest fit first. */
  @Override
  public int chooseTile(View view) {
    int best = view.hand().get(0);
    int[] bestRisk = risk(view, best);
    for (int tile : view.hand()) {
      int[] r = risk(view, tile);
      // the first of equal risks, as Python's min()
      if (r[0] < bestRisk[0] || (r[0] == bestRisk[0] && r[1] < bestRisk[1])) {
        best = tile;
        bestRisk = r;
      }
    }
    return best;
  }

  private static int[] risk(View view, int tile) {
    Integer row = targetRow(view, tile);
    if (row == null) return new int[] {1, tile}; // card game: lower than every row, we take one
    List<Integer> spaces = view.spaces().get(row);
    // Board game: the last space is the final one. Card game: the sixth card takes.
    int room = spaces.size() - filled(spaces) - (view.variant().equals("classic") ? 0 : 1);
    return new int[] {room <= 0 ? 1 : 0, tile - lastTile(spaces)};
  }

  public static void main(String[] args) {
    KitBot.run(new StarterBot(), args);
  }
}
