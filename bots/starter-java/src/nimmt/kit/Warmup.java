package nimmt.kit;

import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import nimmt.v1.ArenaGrpc;
import nimmt.v1.ArenaOuterClass;
import nimmt.v1.ArenaOuterClass.BotMessage;
import nimmt.v1.ArenaOuterClass.EngineMessage;

/**
 * Plays one short scripted match against a bot on each of the arena's sockets, in process (the
 * framed one on a Unix socket, gRPC over loopback), so that the JVM loads every class a match
 * needs: build.sh runs it with {@code -XX:ArchiveClassesAtExit} to make the class-data archive
 * that the bot then starts from (about half the JVM's start-up time).
 *
 * <p>{@code java -cp bot.jar nimmt.kit.Warmup MainClass}
 */
public final class Warmup {
  private Warmup() {}

  public static void main(String[] args) throws Exception {
    KitBot bot = (KitBot) Class.forName(args[0]).getDeclaredConstructor().newInstance();
    int code = framed(bot);
    if (code == 0) code = grpc(bot);
    System.exit(code);
  }

  /** The match on a framed socket in a temporary folder. */
  private static int framed(KitBot bot) throws Exception {
    Path folder = Files.createTempDirectory("nimmt-warmup");
    Path path = folder.resolve("frames.sock");
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(path));
    Thread arena = new Thread(() -> serveFramed(server), "nimmt-warmup-arena");
    arena.setDaemon(true);
    arena.start();
    try {
      return Arena.main(bot, new String[] {"--connect", "frames+unix://" + path, "--token", "w"});
    } finally {
      server.close();
      Files.deleteIfExists(path);
      Files.deleteIfExists(folder);
    }
  }

  private static void serveFramed(ServerSocketChannel server) {
    try (SocketChannel socket = server.accept()) {
      InputStream in = new BufferedInputStream(Channels.newInputStream(socket));
      OutputStream out = new BufferedOutputStream(Channels.newOutputStream(socket));
      Script script = new Script();
      while (!script.over()) {
        byte[] payload = Framed.read(in);
        if (payload == null) return;
        for (EngineMessage m : script.reply(BotMessage.parseFrom(payload))) m.writeDelimitedTo(out);
        out.flush();
      }
      byte[] status = "OK".getBytes(StandardCharsets.UTF_8);
      out.write(0); // the end, then the status
      out.write(status.length);
      out.write(status);
      out.flush();
    } catch (IOException e) {
      // the kit sees the connection end
    }
  }

  /** The match over gRPC on a loopback port. */
  private static int grpc(KitBot bot) throws Exception {
    NioEventLoopGroup loop = new NioEventLoopGroup(1);
    Server server =
        NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
            .bossEventLoopGroup(loop)
            .workerEventLoopGroup(loop)
            .channelType(NioServerSocketChannel.class)
            .directExecutor()
            .addService(new Service())
            .build()
            .start();
    try {
      int port = ((InetSocketAddress) server.getListenSockets().get(0)).getPort();
      return Arena.main(bot, new String[] {"--connect", "127.0.0.1:" + port, "--token", "w"});
    } finally {
      server.shutdownNow();
      loop.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  /** The script on the gRPC stream. */
  private static final class Service extends ArenaGrpc.ArenaImplBase {
    @Override
    public StreamObserver<BotMessage> play(StreamObserver<EngineMessage> out) {
      Script script = new Script();
      return new StreamObserver<BotMessage>() {
        @Override
        public void onNext(BotMessage message) {
          for (EngineMessage m : script.reply(message)) out.onNext(m);
          if (script.over()) out.onCompleted();
        }

        @Override
        public void onError(Throwable error) {}

        @Override
        public void onCompleted() {}
      };
    }
  }

  /** Welcome, a game with one request of each kind, its end, the match's end. */
  private static final class Script {
    private int asked = 0;
    private boolean over = false;

    boolean over() {
      return over;
    }

    /** What the arena sends after the bot's {@code message}. */
    List<EngineMessage> reply(BotMessage message) {
      List<EngineMessage> out = new ArrayList<>();
      if (message.hasHello()) {
        out.add(
            EngineMessage.newBuilder()
                .setWelcome(ArenaOuterClass.Welcome.newBuilder().setGames(1).setBotName("w"))
                .build());
        out.add(
            EngineMessage.newBuilder()
                .setGameStart(
                    ArenaOuterClass.GameStart.newBuilder()
                        .setGameId("w")
                        .setVariant("basic")
                        .setPlayers(2)
                        .addPlayerNames("w")
                        .addPlayerNames("x"))
                .build());
      }
      if (asked < ArenaOuterClass.DecisionKind.values().length - 2) {
        asked++;
        out.add(request(asked));
        return out;
      }
      out.add(
          EngineMessage.newBuilder()
              .setNotice(ArenaOuterClass.Notice.newBuilder().setMessage("warm-up"))
              .build());
      out.add(
          EngineMessage.newBuilder()
              .setGameEnd(
                  ArenaOuterClass.GameEnd.newBuilder()
                      .setView(view(ArenaOuterClass.DecisionKind.DECISION_KIND_TILE))
                      .addScores(1)
                      .addScores(2)
                      .addRanks(2)
                      .addRanks(1))
              .build());
      out.add(
          EngineMessage.newBuilder()
              .setMatchEnd(ArenaOuterClass.MatchEnd.newBuilder().setGames(1))
              .build());
      over = true;
      return out;
    }

    private static EngineMessage request(int kind) {
      ArenaOuterClass.DecisionKind which = ArenaOuterClass.DecisionKind.forNumber(kind);
      return EngineMessage.newBuilder()
          .setRequest(
              ArenaOuterClass.DecisionRequest.newBuilder()
                  .setRequestId(kind)
                  .setKind(which)
                  .setView(view(which))
                  .setDeadlineMs(10000))
          .build();
    }

    private static ArenaOuterClass.Observation view(ArenaOuterClass.DecisionKind kind) {
      ArenaOuterClass.Observation.Builder v =
          ArenaOuterClass.Observation.newBuilder()
              .setVariant(kind == ArenaOuterClass.DecisionKind.DECISION_KIND_TAKE_ROW ? "classic" : "pro+luck")
              .setPlayers(2)
              .setTurn(1)
              .setSetNumber(1)
              .addLayout("...F")
              .addSpaces(ArenaOuterClass.Row.newBuilder().addTiles(10).addTiles(0))
              .addSpaces(ArenaOuterClass.Row.newBuilder().addTiles(20).addTiles(-1))
              .addMarkers(
                  ArenaOuterClass.Marker.newBuilder()
                      .setCard(ArenaOuterClass.LuckCard.LUCK_CARD_PLUS5))
              .addHand(5)
              .addHand(30)
              .addActionCards(ArenaOuterClass.ActionCard.ACTION_CARD_STOP)
              .addScores(0)
              .addScores(0)
              .addHistory(ArenaOuterClass.TurnPlays.newBuilder().addTiles(1).addTiles(2))
              .addChoices(
                  ArenaOuterClass.Choice.newBuilder()
                      .setKind(ArenaOuterClass.DecisionKind.DECISION_KIND_LUCK)
                      .setRow(0)
                      .setSpace(1))
              .addToPlace(ArenaOuterClass.Placement.newBuilder().setTile(30));
      ArenaOuterClass.Pending.Builder pending = ArenaOuterClass.Pending.newBuilder().setKind(kind);
      ArenaOuterClass.Decision.Builder legal = ArenaOuterClass.Decision.newBuilder();
      switch (kind) {
        case DECISION_KIND_LUCK -> {
          pending.setCard(ArenaOuterClass.LuckCard.LUCK_CARD_PLUS5);
          legal.setLuck(ArenaOuterClass.PlaceLuck.newBuilder().setRow(0).setSpace(1));
        }
        case DECISION_KIND_ACTION -> {
          pending.setTile(30);
          legal.setAction(ArenaOuterClass.PlayAction.newBuilder());
        }
        case DECISION_KIND_TAKE_ROW -> {
          pending.setTile(5);
          legal.setTakeRow(ArenaOuterClass.TakeRow.newBuilder().setRow(0));
        }
        default -> {
          legal.setTile(ArenaOuterClass.PlayTile.newBuilder().setTile(5));
          v.addLegal(
              ArenaOuterClass.Decision.newBuilder()
                  .setTile(ArenaOuterClass.PlayTile.newBuilder().setTile(30)));
        }
      }
      return v.setPending(pending).addLegal(legal).build();
    }
  }
}
