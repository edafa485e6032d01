package nimmt.kit;

/**
 * An action card to play on the own tile about to be placed (see {@link KitBot#playAction}):
 * {@code row} for stop, front, ascending and anywhere, {@code newTile} for swap and another,
 * {@code null} where unused.
 */
public record PlayAction(String card, Integer row, Integer newTile) {}
