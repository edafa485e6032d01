package nimmt.kit;

import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import nimmt.v1.ArenaGrpc;
import nimmt.v1.ArenaOuterClass;
import nimmt.v1.ArenaOuterClass.BotMessage;
import nimmt.v1.ArenaOuterClass.EngineMessage;

/**
 * Plays one short scripted match against a bot, in process over loopback, so that the JVM loads
 * every class a match needs: build.sh runs it with {@code -XX:ArchiveClassesAtExit} to make the
 * class-data archive that the bot then starts from (about half the JVM's start-up time).
 *
 * <p>{@code java -cp bot.jar nimmt.kit.Warmup MainClass}
 */
public final class Warmup {
  private Warmup() {}

  public static void main(String[] args) throws Exception {
    KitBot bot = (KitBot) Class.forName(args[0]).getDeclaredConstructor().newInstance();
    NioEventLoopGroup loop = new NioEventLoopGroup(1);
    int code = 1;
    Server server =
        NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
            .bossEventLoopGroup(loop)
            .workerEventLoopGroup(loop)
            .channelType(NioServerSocketChannel.class)
            .directExecutor()
            .addService(new Script())
            .build()
            .start();
    try {
      int port = ((InetSocketAddress) server.getListenSockets().get(0)).getPort();
      code = Arena.main(bot, new String[] {"--connect", "127.0.0.1:" + port, "--token", "w"});
    } finally {
      server.shutdownNow();
      loop.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.SECONDS);
    }
    System.exit(code);
  }

  /** Welcome, a game with one request of each kind, its end, the match's end. */
  private static final class Script extends ArenaGrpc.ArenaImplBase {
    @Override
    public StreamObserver<BotMessage> play(StreamObserver<EngineMessage> out) {
      return new StreamObserver<BotMessage>() {
        private int asked = 0;

        @Override
        public void onNext(BotMessage message) {
          if (message.hasHello()) {
            out.onNext(
                EngineMessage.newBuilder()
                    .setWelcome(ArenaOuterClass.Welcome.newBuilder().setGames(1).setBotName("w"))
                    .build());
            out.onNext(
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
            out.onNext(request(asked));
            return;
          }
          out.onNext(
              EngineMessage.newBuilder()
                  .setNotice(ArenaOuterClass.Notice.newBuilder().setMessage("warm-up"))
                  .build());
          out.onNext(
              EngineMessage.newBuilder()
                  .setGameEnd(
                      ArenaOuterClass.GameEnd.newBuilder()
                          .setView(view(ArenaOuterClass.DecisionKind.DECISION_KIND_TILE))
                          .addScores(1)
                          .addScores(2)
                          .addRanks(2)
                          .addRanks(1))
                  .build());
          out.onNext(
              EngineMessage.newBuilder()
                  .setMatchEnd(ArenaOuterClass.MatchEnd.newBuilder().setGames(1))
                  .build());
          out.onCompleted();
        }

        @Override
        public void onError(Throwable error) {}

        @Override
        public void onCompleted() {}
      };
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
