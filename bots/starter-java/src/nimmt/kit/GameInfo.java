package nimmt.kit;

/** The game a GameStart announces; {@code seed} is for the bot's own random generator. */
public record GameInfo(String variant, int players, int seat, long seed, String gameId) {}
