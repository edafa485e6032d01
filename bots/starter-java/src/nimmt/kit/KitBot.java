package nimmt.kit;

import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The Java bot kit: a bot with one method per decision; override the ones you want, then
 * {@code KitBot.run(new MyBot(), args)} connects it to the arena.
 *
 * <p>It mirrors the Python kit (arena/botkit.py): the methods a bot does not override keep the
 * arena's defaults (lowest tile, first legal luck space, no action card, the row with the fewest
 * bullheads). Every method gets the seat's whole {@link View}, whose {@code legal()} lists every
 * legal option. {@link #info} is the current game and {@link #rng} a generator seeded from the
 * game's seed (same match seed, same game).
 *
 * <pre>
 * public final class Lowball extends KitBot {
 *   public String name() { return "lowball"; }
 *   public int chooseTile(View view) { return view.hand().get(0); }
 *   public static void main(String[] args) { KitBot.run(new Lowball(), args); }
 * }
 * </pre>
 *
 * <p>Where to connect: the arena sets NIMMT_ENGINE (e.g. unix:///run/nimmt/engine.sock) and
 * NIMMT_TOKEN_FILE, the file holding the bot's token; by hand, pass --connect ADDRESS and --token
 * TOKEN (or set NIMMT_TOKEN). {@link #run} plays until the match ends and exits the process: 0
 * after a normal match, 1 if the arena ended the connection with an error (the reason is logged
 * to stderr, which the arena keeps as the bot's log), 2 for a usage error, 3 if the bot's own
 * code threw.
 *
 * <p>Notes: in a method, {@link #annotate} says what the bot was thinking about the decision, for
 * its owner's eyes only (see {@link Note}).
 */
public abstract class KitBot {
  /** The current game. */
  protected GameInfo info = new GameInfo("", 0, 0, 0, "");
  /** Seeded from the game's seed at every game start. */
  protected Random rng = new Random(0);

  private Note note; // annotate()'s, until the kit sends it

  /** The bot's own name, for its log (the arena names seats from the manifest). */
  public String name() {
    return "kitbot";
  }

  /**
   * A note on the decision being made, for the bot's owner: {@code text}, and {@code values} per
   * legal option in the order of {@code view.legal()} ({@link Note#tileValues} makes them from
   * numbers per tile). A later call in the same decision replaces it.
   */
  public void annotate(String text, List<Double> values) {
    note = new Note(text == null ? "" : text, values == null ? List.of() : List.copyOf(values));
  }

  /** The note {@link #annotate} made for the decision just taken (taken once; null if none). */
  public Note takeNote() {
    Note taken = note;
    note = null;
    return taken;
  }

  /** A game begins; an override must call {@code super.startGame(info)}. */
  public void startGame(GameInfo info) {
    this.info = info;
    this.rng = new Random(info.seed());
  }

  /** A game is over: the final view, scores and ranks in seat order. */
  public void endGame(View view, List<Integer> scores, List<Integer> ranks) {}

  /** Dispatches on {@code view.pending().kind()} to the four methods below. */
  public Decision decide(View view) {
    View.Pending pending = view.pending();
    if (pending == null) {
      throw new IllegalStateException("seat " + view.seat() + " has nothing to decide");
    }
    note = null;
    switch (pending.kind()) {
      case TILE:
        return Decision.playTile(chooseTile(view));
      case LUCK:
        int[] place = placeLuck(view, pending.card());
        if (place == null || place.length != 2) {
          throw new IllegalArgumentException("placeLuck() must return {row, space}");
        }
        return Decision.placeLuck(place[0], place[1]);
      case ACTION:
        PlayAction action = playAction(view, pending.tile());
        if (action == null) return Decision.playAction(null, null, null);
        return Decision.playAction(action.card(), action.row(), action.newTile());
      default:
        return Decision.takeRow(takeRow(view, pending.tile()));
    }
  }

  /** The tile to reveal this turn, from {@code view.hand()}. Default: the lowest. */
  public int chooseTile(View view) {
    return Collections.min(view.hand());
  }

  /**
   * {row, space} for the luck card {@code card} ("plus5", "final10") just drawn; the legal spaces
   * are {@code view.legal()}. Default: the first.
   */
  public int[] placeLuck(View view, String card) {
    Decision first = view.legal().get(0);
    return new int[] {first.row(), first.space()};
  }

  /**
   * An action card to play on {@code tile} (yours, about to be placed), or {@code null} to keep
   * the cards; the legal ones are {@code view.legal()}. Default: {@code null}.
   */
  public PlayAction playAction(View view, int tile) {
    return null;
  }

  /**
   * Card game: the row to take because {@code tile} is lower than every row's end. Default: the
   * row with the fewest bullheads.
   */
  public int takeRow(View view, int tile) {
    return fewestBullheadsRow(view.spaces());
  }

  /** Seconds left to answer the current request (infinity outside a request). */
  public double timeLeft() {
    return Arena.timeLeft();
  }

  /** Bullheads printed on a tile (the card game's table). */
  public static int bullheads(int tile) {
    if (tile == 55) return 7;
    if (tile % 11 == 0) return 5;
    if (tile % 10 == 0) return 3;
    if (tile % 5 == 0) return 2;
    return 1;
  }

  /** The row whose tiles carry the fewest bullheads (the topmost of equal rows). */
  public static int fewestBullheadsRow(List<List<Integer>> spaces) {
    int best = 0;
    int fewest = Integer.MAX_VALUE;
    for (int r = 0; r < spaces.size(); r++) {
      int total = 0;
      for (int tile : spaces.get(r)) total += tile > 0 ? bullheads(tile) : 0;
      if (total < fewest) {
        fewest = total;
        best = r;
      }
    }
    return best;
  }

  /** Parse the command line and environment, play the match, exit the process. */
  public static void run(KitBot bot, String[] args) {
    System.exit(Arena.main(bot, args));
  }
}
