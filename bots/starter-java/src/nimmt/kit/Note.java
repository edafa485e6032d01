package nimmt.kit;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a bot says it was thinking about one decision, for its owner's eyes only: a text, and one
 * number per legal option in the order of {@code view.legal()} ({@code Double.NaN} for none).
 * The site's viewer shows it to the bot's owner at that decision; {@code nimmt match} writes it
 * to notes/game-00001.json. A note never causes a fault: the kit cuts the text to {@link
 * #NOTE_BYTES} bytes of UTF-8 (between characters) and the values to {@link #MAX_VALUES} and to
 * the number of options; a value that is not finite counts as none. Make one with {@link
 * KitBot#annotate}.
 */
public record Note(String text, List<Double> values) {
  /** The longest note the arena keeps, in bytes of UTF-8. */
  public static final int NOTE_BYTES = 1000;
  /** The most values the arena keeps. */
  public static final int MAX_VALUES = 128;

  /** Values per legal option from numbers per tile (NaN for an option without one). */
  public static List<Double> tileValues(View view, Map<Integer, Double> byTile) {
    List<Double> values = new ArrayList<>();
    for (Decision option : view.legal()) {
      Double value = option.kind() == Decision.Kind.TILE ? byTile.get(option.tile()) : null;
      values.add(value == null ? Double.NaN : value);
    }
    return values;
  }

  /** {@code text} cut to at most {@code limit} bytes of UTF-8, never inside a character. */
  public static String cutUtf8(String text, int limit) {
    CharsetEncoder encoder =
        StandardCharsets.UTF_8
            .newEncoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
    ByteBuffer out = ByteBuffer.allocate(limit);
    encoder.encode(CharBuffer.wrap(text), out, true); // stops before a character that won't fit
    return new String(out.array(), 0, out.position(), StandardCharsets.UTF_8);
  }

  /** The values as the answer carries them: at most one per option, NaN where not finite. */
  List<Double> bounded(int options) {
    List<Double> kept = new ArrayList<>();
    if (values == null) return kept;
    for (Double value : values) {
      if (kept.size() >= Math.min(options, MAX_VALUES)) break;
      kept.add(value == null || !Double.isFinite(value) ? Double.NaN : value);
    }
    return kept;
  }
}
