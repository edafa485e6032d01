package nimmt.kit;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import nimmt.v1.ArenaOuterClass;
import nimmt.v1.ArenaOuterClass.BotMessage;
import nimmt.v1.ArenaOuterClass.EngineMessage;

/**
 * The conversation with the arena (protos/nimmt/v1/arena.proto): the command line, the choice
 * of socket, and the protocol's messages turned into the kit's values and back.
 *
 * <p>The arena offers a sandboxed bot two Unix sockets with the same conversation: the framed
 * one ({@code $NIMMT_FRAMES}, {@link Framed}: length-prefixed messages, no gRPC), which the kit
 * takes whenever it is offered because gRPC costs more CPU per decision than the decision, and
 * the gRPC one ({@code $NIMMT_ENGINE}, {@link Grpc}). This class loads neither gRPC nor netty.
 */
final class Arena {
  static final int PROTOCOL_VERSION = 1;
  static final String KIT = "nimmt-botkit-java/" + PROTOCOL_VERSION;
  static final double CONNECT_TIMEOUT = 10.0;

  private static volatile long deadline = Long.MAX_VALUE; // System.nanoTime() to answer by
  private static boolean quiet = false;

  private Arena() {}

  static double timeLeft() {
    long d = deadline;
    if (d == Long.MAX_VALUE) return Double.POSITIVE_INFINITY;
    return Math.max(0.0, (d - System.nanoTime()) / 1e9);
  }

  static void log(String level, String text) {
    if (quiet && level.equals("INFO")) return;
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
    System.err.println(stamp + " nimmt.botkit " + level + " " + text);
    System.err.flush();
  }

  /**
   * The arena refused the bot, ended the match early, or cannot be reached; {@code code} is the
   * name of the gRPC status it ended the stream with (UNAVAILABLE when it could not be reached),
   * or null.
   */
  static final class ArenaError extends Exception {
    final String code;

    ArenaError(String message) {
      this(message, null);
    }

    ArenaError(String message, String code) {
      super(message);
      this.code = code;
    }
  }

  /** The bot's own code threw. */
  static final class BotCodeError extends Exception {
    BotCodeError(String message, Throwable cause) {
      super(message, cause);
    }
  }

  // ------------------------------------------------------------------------- the command line

  static final String USAGE =
      "usage: bot [--connect ADDRESS] [--token TOKEN] [--connect-timeout SECONDS] [--quiet]\n"
          + "           [--remote URL] [--ca FILE] [--matches N]";

  static int main(KitBot bot, String[] args) {
    String address = defaultAddress();
    String token = null;
    double connectTimeout = CONNECT_TIMEOUT;
    String remote = null;
    String ca = System.getenv().getOrDefault("NIMMT_REMOTE_CA", "");
    int matches = 0;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String flag = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
      String inline = arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : null;
      boolean hasValue = inline != null || i + 1 < args.length;
      switch (flag) {
        case "-h", "--help" -> {
          System.out.println(
              USAGE
                  + "\n\nRun the bot '"
                  + bot.name()
                  + "' in a Nimmt Arena match.\n\n"
                  + "  --connect ADDRESS          the arena's address: unix:///path for gRPC,"
                  + " frames+unix:///path for\n"
                  + "                             the framed socket (default: the framed"
                  + " $NIMMT_FRAMES if set, else\n"
                  + "                             $NIMMT_ENGINE)\n"
                  + "  --token TOKEN              the bot's token (default: the content of"
                  + " $NIMMT_TOKEN_FILE, else $NIMMT_TOKEN)\n"
                  + "  --connect-timeout SECONDS  how long to wait for the arena to accept the"
                  + " connection (10 s)\n"
                  + "  --quiet                    log only warnings and errors\n"
                  + "  --remote URL               play from this machine through the arena's"
                  + " gateway, e.g.\n"
                  + "                             grpcs://arena.example.org:7443, with the remote"
                  + " token in $NIMMT_REMOTE_TOKEN\n"
                  + "  --ca FILE                  with --remote: trust the gateway certificate in"
                  + " this file (default: $NIMMT_REMOTE_CA)\n"
                  + "  --matches N                with --remote: stop after N matches (default:"
                  + " play until stopped)");
          return 0;
        }
        case "--quiet" -> quiet = true;
        case "--connect", "--token", "--connect-timeout", "--remote", "--ca", "--matches" -> {
          if (!hasValue) return usageError("argument " + flag + ": expected one argument");
          String value = inline != null ? inline : args[++i];
          if (flag.equals("--connect")) address = value;
          else if (flag.equals("--token")) token = value;
          else if (flag.equals("--remote")) remote = value;
          else if (flag.equals("--ca")) ca = value;
          else if (flag.equals("--matches")) {
            try {
              matches = Integer.parseInt(value);
            } catch (NumberFormatException e) {
              matches = -1;
            }
            if (matches < 0) return usageError("argument --matches: invalid count: '" + value + "'");
          } else {
            try {
              connectTimeout = Double.parseDouble(value);
            } catch (NumberFormatException e) {
              connectTimeout = -1;
            }
            if (!(connectTimeout >= 0)) {
              return usageError("argument --connect-timeout: invalid number: '" + value + "'");
            }
          }
        }
        default -> {
          return usageError("unrecognized arguments: " + arg);
        }
      }
    }
    if (remote != null) return Remote.main(bot, remote, ca, matches, connectTimeout);
    if (address.isEmpty()) {
      return usageError(
          "no arena address: the arena sets NIMMT_ENGINE; to connect by hand pass --connect"
              + " unix:///path/to/engine.sock");
    }
    try {
      String file = token == null ? System.getenv("NIMMT_TOKEN_FILE") : null;
      boolean stays = file != null && !file.isEmpty();
      String secret = token != null ? token : tokenFromEnv();
      // While the arena keeps the process (MatchEnd.stay), the next match with the next token.
      while (play(bot, address, secret, connectTimeout, stays) && stays) {
        log("INFO", "the arena keeps this process for another match: waiting for it");
        secret = nextToken(file, secret);
        if (secret == null) break;
      }
    } catch (ArenaError e) {
      log("ERROR", e.getMessage());
      return 1;
    } catch (BotCodeError e) {
      java.io.StringWriter trace = new java.io.StringWriter();
      e.getCause().printStackTrace(new java.io.PrintWriter(trace));
      log("CRITICAL", e.getMessage() + "; the bot stops here (a crash)\n" + trace);
      return 3;
    } catch (RuntimeException e) { // a message this kit cannot read, say
      java.io.StringWriter trace = new java.io.StringWriter();
      e.printStackTrace(new java.io.PrintWriter(trace));
      log("CRITICAL", "the bot kit failed: " + e + "\n" + trace);
      return 1;
    }
    return 0;
  }

  /** An address's prefix for the framed socket ({@code frames+unix:///run/nimmt/frames.sock}). */
  static final String FRAMED = "frames+unix://";

  /**
   * Where the arena said to connect: its framed socket ($NIMMT_FRAMES, the cheaper one, on this
   * machine only) if it offers one, else its gRPC socket ($NIMMT_ENGINE), else "".
   */
  static String defaultAddress() {
    String frames = System.getenv().getOrDefault("NIMMT_FRAMES", "");
    if (frames.startsWith("unix://")) return "frames+" + frames;
    return System.getenv().getOrDefault("NIMMT_ENGINE", "");
  }

  static int usageError(String text) {
    System.err.println(USAGE + "\nbot: error: " + text);
    return 2;
  }

  /** The token: the content of $NIMMT_TOKEN_FILE, else $NIMMT_TOKEN, else "". */
  static String tokenFromEnv() throws ArenaError {
    String file = System.getenv("NIMMT_TOKEN_FILE");
    if (file != null && !file.isEmpty()) {
      try {
        return Files.readString(Path.of(file)).strip();
      } catch (IOException e) {
        throw new ArenaError(
            "cannot read the token file $NIMMT_TOKEN_FILE=" + file + ": " + e.getMessage());
      }
    }
    return System.getenv().getOrDefault("NIMMT_TOKEN", "");
  }

  // ------------------------------------------------------------------------- the connection

  static void play(KitBot bot, String address, String token, double connectTimeout)
      throws ArenaError, BotCodeError {
    play(bot, address, token, connectTimeout, false);
  }

  /**
   * Plays one match at {@code address} (frames+unix:///path: the framed socket; else gRPC);
   * {@code stays}: say that this bot stays for another match if the arena asks (Hello.stays).
   * True if the arena asked it to (MatchEnd.stay).
   */
  static boolean play(KitBot bot, String address, String token, double connectTimeout, boolean stays)
      throws ArenaError, BotCodeError {
    if (address.startsWith(FRAMED)) {
      String path = address.substring(FRAMED.length());
      return Framed.play(bot, connectUnix(path, address, connectTimeout), token, stays);
    }
    return Grpc.play(bot, address, token, connectTimeout, stays);
  }

  /**
   * A connection to the Unix socket at {@code path}, trying again until {@code timeout} seconds
   * have passed (the arena may still be starting).
   */
  static SocketChannel connectUnix(String path, String address, double timeout) throws ArenaError {
    long until = System.nanoTime() + (long) (timeout * 1e9);
    while (true) {
      SocketChannel channel = null;
      try {
        channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        channel.connect(UnixDomainSocketAddress.of(path));
        return channel;
      } catch (IOException | RuntimeException e) {
        if (channel != null) {
          try {
            channel.close();
          } catch (IOException ignored) {
            // closing anyway
          }
        }
        if (System.nanoTime() >= until) {
          throw new ArenaError(
              "cannot reach the arena at "
                  + address
                  + " within "
                  + timeout
                  + " s: is the match running, and is the address right? ("
                  + e.getMessage()
                  + ")");
        }
        try {
          Thread.sleep(50);
        } catch (InterruptedException interrupted) {
          throw new ArenaError("interrupted");
        }
      }
    }
  }

  /** How often a bot that stays looks for its next match's token (ms; it is frozen meanwhile). */
  static final long STAY_POLL_MS = 5;
  /** How long a bot that stays waits for its next match before it exits (ms). */
  static final long STAY_WAIT_MS = 3600_000;

  /** The next match's token, once the arena has written it to {@code file} (null after STAY_WAIT_MS). */
  static String nextToken(String file, String last) {
    long limit = System.nanoTime() + STAY_WAIT_MS * 1_000_000L;
    while (true) {
      try {
        String token = Files.readString(Path.of(file)).strip();
        if (!token.isEmpty() && !token.equals(last)) return token;
      } catch (IOException e) {
        // not there yet: look again
      }
      if (System.nanoTime() > limit) return null;
      try {
        Thread.sleep(STAY_POLL_MS);
      } catch (InterruptedException e) {
        return null;
      }
    }
  }

  // ------------------------------------------------------------------------- the messages

  /** The first message of a connection. */
  static BotMessage hello(KitBot bot, String token, boolean stays) {
    return BotMessage.newBuilder()
        .setHello(
            ArenaOuterClass.Hello.newBuilder()
                .setProtocolVersion(PROTOCOL_VERSION)
                .setBotName(bot.name())
                .setToken(token)
                .setKit(KIT)
                .setStays(stays))
        .build();
  }

  /** Turns arena messages into calls of the bot and its answers into messages. */
  static final class Session {
    private final KitBot bot;
    /** The socket's name in the log: "framed socket" or "gRPC". */
    private final String transport;
    private int answers = 0;
    /** Whether the arena keeps the process for another match (MatchEnd.stay). */
    boolean stay = false;

    Session(KitBot bot, String transport) {
      this.bot = bot;
      this.transport = transport;
    }

    interface Call<T> {
      T call() throws Exception;
    }

    private static <T> T call(String method, Call<T> f) throws BotCodeError {
      try {
        return f.call();
      } catch (Exception | StackOverflowError e) {
        throw new BotCodeError("the bot's " + method + "() threw " + e, e);
      }
    }

    BotMessage handle(EngineMessage message, long received) throws BotCodeError {
      switch (message.getBodyCase()) {
        case REQUEST:
          return answer(message.getRequest(), received);
        case GAME_START:
          {
            ArenaOuterClass.GameStart s = message.getGameStart();
            GameInfo game =
                new GameInfo(s.getVariant(), s.getPlayers(), s.getSeat(), s.getSeed(), s.getGameId());
            call(
                "startGame",
                () -> {
                  bot.startGame(game);
                  return null;
                });
            break;
          }
        case GAME_END:
          {
            ArenaOuterClass.GameEnd end = message.getGameEnd();
            View view = view(end.getView());
            List<Integer> scores = end.getScoresList(), ranks = end.getRanksList();
            call(
                "endGame",
                () -> {
                  bot.endGame(view, scores, ranks);
                  return null;
                });
            int seat = view.seat();
            StringBuilder line = new StringBuilder(end.getGameId() + " over: seat " + seat);
            if (seat < scores.size() && seat < ranks.size()) {
              line.append(", score ").append(scores.get(seat)).append(", rank ");
              line.append(ranks.get(seat)).append(" of ").append(ranks.size());
            }
            for (ArenaOuterClass.Fault fault : end.getFaultsList()) {
              if (fault.getSeat() != seat) continue;
              line.append("; fault ").append(shortName(fault.getKind().name()));
              line.append(" in turn ").append(fault.getTurn() + 1).append(": ");
              line.append(fault.getDetail());
            }
            log("INFO", line.toString());
            break;
          }
        case NOTICE:
          {
            ArenaOuterClass.Notice n = message.getNotice();
            String text =
                shortName(n.getKind().name())
                    + " (request "
                    + Long.toUnsignedString(n.getRequestId())
                    + ", game "
                    + n.getGameId()
                    + "): "
                    + n.getMessage();
            if (n.hasPlayed()) text += "; the arena played '" + decision(n.getPlayed()) + "'";
            log("WARNING", "arena notice: " + text);
            break;
          }
        case WELCOME:
          {
            ArenaOuterClass.Welcome w = message.getWelcome();
            log(
                "INFO",
                "in the match "
                    + w.getMatchId()
                    + " as '"
                    + w.getBotName()
                    + "' ("
                    + transport
                    + "): "
                    + w.getGames()
                    + " games, "
                    + w.getDecisionMs()
                    + " ms per decision + "
                    + w.getBankMs()
                    + " ms bank per game, dropped after "
                    + w.getMaxFaults()
                    + " faults");
            break;
          }
        case MATCH_END:
          {
            ArenaOuterClass.MatchEnd e = message.getMatchEnd();
            stay = e.getStay();
            log(
                "INFO",
                "match over: " + e.getGames() + " games, " + answers + " answers, " + e.getFaults()
                    + " faults");
            break;
          }
        default:
          break;
      }
      return null;
    }

    private BotMessage answer(ArenaOuterClass.DecisionRequest request, long received)
        throws BotCodeError {
      deadline = received + request.getDeadlineMs() * 1_000_000L;
      View view = view(request.getView());
      Decision decision = call("decide", () -> bot.decide(view));
      if (decision == null) {
        throw new BotCodeError(
            "the bot's decide() returned null, not a decision",
            new NullPointerException("decision"));
      }
      String id = Long.toUnsignedString(request.getRequestId());
      if (!view.legal().contains(decision)) {
        List<String> shown = new ArrayList<>();
        for (Decision d : view.legal().subList(0, Math.min(12, view.legal().size()))) {
          shown.add(d.toString());
        }
        log(
            "WARNING",
            "request " + id + ": decide() returned '" + decision + "', which is not among the"
                + " legal options (" + String.join(", ", shown)
                + "); the arena will count it as illegal");
      }
      long spentNs = System.nanoTime() - received;
      if (spentNs > request.getDeadlineMs() * 1_000_000L) {
        log(
            "WARNING",
            "request " + id + ": answered after " + Math.round(spentNs / 1e6) + " ms, the deadline was "
                + request.getDeadlineMs() + " ms");
      }
      deadline = Long.MAX_VALUE;
      answers++;
      ArenaOuterClass.Answer.Builder answer =
          ArenaOuterClass.Answer.newBuilder().setRequestId(request.getRequestId());
      try {
        answer.setDecision(proto(decision));
      } catch (IllegalArgumentException e) {
        throw new BotCodeError("the bot's decide() returned " + decision + ": " + e.getMessage(), e);
      }
      Note note = call("takeNote", bot::takeNote);
      if (note != null) { // cut here: a message over 64 KiB would be unreadable
        answer.setNote(Note.cutUtf8(note.text(), Note.NOTE_BYTES));
        answer.addAllOptionValues(note.bounded(view.legal().size()));
      }
      return BotMessage.newBuilder().setAnswer(answer).build();
    }
  }

  static String shortName(String name) {
    return name.substring(name.lastIndexOf('_') + 1).toLowerCase(Locale.ROOT);
  }

  private static String cardName(String enumName, String prefix) {
    return enumName.substring(prefix.length()).toLowerCase(Locale.ROOT);
  }

  static Decision.Kind kind(ArenaOuterClass.DecisionKind kind) {
    return switch (kind) {
      case DECISION_KIND_LUCK -> Decision.Kind.LUCK;
      case DECISION_KIND_ACTION -> Decision.Kind.ACTION;
      case DECISION_KIND_TAKE_ROW -> Decision.Kind.TAKE_ROW;
      default -> Decision.Kind.TILE;
    };
  }

  static String luck(ArenaOuterClass.LuckCard card) {
    return card == ArenaOuterClass.LuckCard.LUCK_CARD_NONE
            || card == ArenaOuterClass.LuckCard.UNRECOGNIZED
        ? null
        : cardName(card.name(), "LUCK_CARD_");
  }

  static String action(ArenaOuterClass.ActionCard card) {
    return card == ArenaOuterClass.ActionCard.ACTION_CARD_NONE
            || card == ArenaOuterClass.ActionCard.UNRECOGNIZED
        ? null
        : cardName(card.name(), "ACTION_CARD_");
  }

  static Decision decision(ArenaOuterClass.Decision m) {
    switch (m.getDecisionCase()) {
      case LUCK:
        return Decision.placeLuck(m.getLuck().getRow(), m.getLuck().getSpace());
      case ACTION:
        ArenaOuterClass.PlayAction a = m.getAction();
        return Decision.playAction(
            action(a.getCard()),
            a.hasRow() ? a.getRow() : null,
            a.hasNewTile() ? a.getNewTile() : null);
      case TAKE_ROW:
        return Decision.takeRow(m.getTakeRow().getRow());
      default:
        return Decision.playTile(m.getTile().getTile());
    }
  }

  static ArenaOuterClass.Decision proto(Decision d) {
    ArenaOuterClass.Decision.Builder b = ArenaOuterClass.Decision.newBuilder();
    switch (d.kind()) {
      case TILE -> b.setTile(ArenaOuterClass.PlayTile.newBuilder().setTile(d.tile()));
      case LUCK -> b.setLuck(
          ArenaOuterClass.PlaceLuck.newBuilder().setRow(d.row()).setSpace(d.space()));
      case TAKE_ROW -> b.setTakeRow(ArenaOuterClass.TakeRow.newBuilder().setRow(d.row()));
      case ACTION -> {
        ArenaOuterClass.PlayAction.Builder a = ArenaOuterClass.PlayAction.newBuilder();
        if (d.card() == null) a.setCard(ArenaOuterClass.ActionCard.ACTION_CARD_NONE);
        else {
          try {
            a.setCard(
                ArenaOuterClass.ActionCard.valueOf("ACTION_CARD_" + d.card().toUpperCase(Locale.ROOT)));
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                "unknown action card '" + d.card()
                    + "' (stop, swap, skip, front, ascending, anywhere, another, plus5, or null)");
          }
        }
        if (d.actionRow() != null) a.setRow(d.actionRow());
        if (d.newTile() != null) a.setNewTile(d.newTile());
        b.setAction(a);
      }
    }
    return b.build();
  }

  static View view(ArenaOuterClass.Observation m) {
    List<List<Integer>> spaces = new ArrayList<>();
    for (ArenaOuterClass.Row row : m.getSpacesList()) spaces.add(List.copyOf(row.getTilesList()));
    List<View.Marker> markers = new ArrayList<>();
    for (ArenaOuterClass.Marker mk : m.getMarkersList()) {
      markers.add(new View.Marker(mk.getRow(), mk.getSpace(), luck(mk.getCard())));
    }
    List<String> actionCards = new ArrayList<>();
    for (ArenaOuterClass.ActionCard card : m.getActionCardsList()) actionCards.add(action(card));
    List<List<Integer>> history = new ArrayList<>();
    for (ArenaOuterClass.TurnPlays plays : m.getHistoryList()) {
      history.add(List.copyOf(plays.getTilesList()));
    }
    List<View.Choice> choices = new ArrayList<>();
    for (ArenaOuterClass.Choice c : m.getChoicesList()) {
      Decision.Kind kind = kind(c.getKind());
      String card =
          kind == Decision.Kind.LUCK
              ? luck(c.getLuckCard())
              : kind == Decision.Kind.ACTION ? action(c.getActionCard()) : null;
      choices.add(
          new View.Choice(
              c.getSeat(),
              kind,
              card,
              c.hasTile() ? c.getTile() : null,
              c.hasRow() ? c.getRow() : null,
              c.hasSpace() ? c.getSpace() : null,
              c.hasNewTile() ? c.getNewTile() : null));
    }
    List<View.Placement> toPlace = new ArrayList<>();
    for (ArenaOuterClass.Placement p : m.getToPlaceList()) {
      toPlace.add(new View.Placement(p.getTile(), p.getSeat()));
    }
    View.Pending pending = null;
    if (m.hasPending()) {
      ArenaOuterClass.Pending p = m.getPending();
      pending =
          new View.Pending(
              kind(p.getKind()),
              List.copyOf(p.getSeatsList()),
              p.hasTile() ? p.getTile() : null,
              luck(p.getCard()));
    }
    List<Decision> legal = new ArrayList<>();
    for (ArenaOuterClass.Decision d : m.getLegalList()) legal.add(decision(d));
    return new View(
        m.getVariant(),
        m.getSeat(),
        m.getPlayers(),
        m.getTurn(),
        m.getSetNumber(),
        List.copyOf(m.getLayoutList()),
        List.copyOf(spaces),
        List.copyOf(markers),
        List.copyOf(m.getStopsList()),
        List.copyOf(m.getHandList()),
        List.copyOf(actionCards),
        m.hasChosen() ? m.getChosen() : null,
        List.copyOf(m.getScoresList()),
        List.copyOf(m.getHandSizesList()),
        List.copyOf(m.getActionCountsList()),
        List.copyOf(history),
        List.copyOf(choices),
        List.copyOf(toPlace),
        m.getSupplySize(),
        m.getLuckDeckSize(),
        m.getActionDeckSize(),
        pending,
        List.copyOf(legal));
  }
}
