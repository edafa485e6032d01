import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import nimmt.kit.KitBot;
import nimmt.kit.Note;
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
   * (card game: {@code null}, the player must take a row). {@code null} too when Stop cards
   * closed every row that holds a tile: nothing is known of where it goes.
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
    return highest;
  }

  /**
   * The tile of the lowest {@link #risk} (the first of equal ones in the hand's order); say why
   * in a note.
   */
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
    Map<Integer, Double> values = new HashMap<>();
    for (int tile : view.hand()) values.put(tile, tileValue(view, tile));
    annotate(tileNote(view, best), Note.tileValues(view, values));
    return best;
  }

  /**
   * Where {@code tile} would go: its row (null: card game, lower than every row, we would take
   * one; or no row open), whether it completes the row, and its distance from the row's last
   * tile (negative: the board game puts a tile lower than every row's end after the highest end).
   */
  record Fit(Integer row, boolean completes, int gap) {}

  static Fit fit(View view, int tile) {
    Integer row = targetRow(view, tile);
    if (row == null) return new Fit(null, true, 0);
    List<Integer> spaces = view.spaces().get(row);
    // Board game: the last space is the final one. Card game: the sixth card takes.
    int room = spaces.size() - filled(spaces) - (view.variant().equals("classic") ? 0 : 1);
    return new Fit(row, room <= 0, tile - lastTile(spaces));
  }

  /** The bullheads of the row's tiles (the card game's). */
  static int rowBullheads(List<Integer> row) {
    int total = 0;
    for (int tile : row) if (tile > 0) total += KitBot.bullheads(tile);
    return total;
  }

  /**
   * How the starter ranks a tile, the lowest first: a tile that goes after a lower row end
   * without completing the row, the closest fit first; then one lower than every row's end (the
   * board game puts it after the highest end), the closest first; then one that completes its
   * row (board game: the closest first; card game: the fewest bullheads taken first, a tile lower
   * than every row taking the cheapest row); last, in the board game, one that finds no open row
   * (Stop cards closed them all), the lowest first.
   */
  static int[] risk(View view, int tile) {
    Fit f = fit(view, tile);
    if (view.variant().equals("classic") && f.completes()) {
      if (f.row() != null) return new int[] {2, rowBullheads(view.spaces().get(f.row()))};
      int cheapest = -1;
      for (List<Integer> row : view.spaces()) {
        int cost = rowBullheads(row);
        if (cheapest < 0 || cost < cheapest) cheapest = cost;
      }
      return new int[] {2, cheapest};
    }
    if (f.row() == null) return new int[] {3, tile};
    if (f.completes()) return new int[] {2, Math.abs(f.gap())};
    return f.gap() < 0 ? new int[] {1, -f.gap()} : new int[] {0, f.gap()};
  }

  /**
   * The starter's own number for a tile, shown to its owner beside the note: the distance from
   * the end of the row it goes to (a close fit is safer), -1 if it completes or takes a row.
   */
  static double tileValue(View view, int tile) {
    Fit f = fit(view, tile);
    return f.completes() ? -1.0 : f.gap();
  }

  /** A line about the tile choice for the bot's owner: each tile's row and fit. */
  static String tileNote(View view, int chosen) {
    List<String> parts = new ArrayList<>();
    for (int tile : view.hand()) {
      Fit f = fit(view, tile);
      if (f.row() == null && !view.variant().equals("classic")) parts.add(tile + "\u2192no open row");
      else if (f.row() == null) parts.add(tile + "\u2192takes a row");
      else if (f.completes()) parts.add(tile + "\u2192row " + f.row() + " completes");
      else parts.add(tile + "\u2192row " + f.row() + " gap " + f.gap());
    }
    return "chose " + chosen + ": " + String.join(", ", parts);
  }

  public static void main(String[] args) {
    KitBot.run(new StarterBot(), args);
  }
}
