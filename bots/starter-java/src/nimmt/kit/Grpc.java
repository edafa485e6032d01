package nimmt.kit;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import nimmt.kit.Arena.ArenaError;
import nimmt.kit.Arena.BotCodeError;
import nimmt.kit.Arena.Session;
import nimmt.v1.ArenaGrpc;
import nimmt.v1.ArenaOuterClass.BotMessage;
import nimmt.v1.ArenaOuterClass.EngineMessage;

/**
 * The conversation on the arena's gRPC socket ({@code $NIMMT_ENGINE}, service nimmt.v1.Arena,
 * method Play) and through the gateway ({@link Remote}).
 *
 * <p>The arena listens on a Unix socket. Debian's grpc-netty reaches Unix sockets only through
 * netty's native epoll library, which Debian's libnetty-java does not ship, so the kit carries
 * the stream itself: it connects to the socket with the JDK's own Unix-domain channel and hands
 * gRPC a loopback TCP port inside the bot's sandbox that forwards every byte to it ({@link
 * Bridge}). gRPC, HTTP/2 and protobuf are Debian's, unchanged. Only this class and {@link
 * Remote} touch gRPC and netty: a bot on the framed socket ({@link Framed}) never loads them.
 */
final class Grpc {
  private Grpc() {}

  /** What the reading side hands the main thread: a message, or the end with its status. */
  private record Event(EngineMessage message, Status status) {}

  /**
   * Plays one match on the gRPC socket at {@code address} ({@code unix:PATH}, {@code
   * unix://PATH} or {@code HOST:PORT}); {@code stays}: say that this bot stays for another match
   * if the arena asks (Hello.stays). True if the arena asked it to (MatchEnd.stay).
   */
  static boolean play(KitBot bot, String address, String token, double connectTimeout, boolean stays)
      throws ArenaError, BotCodeError {
    if (address.startsWith("unix:")) {
      String path = address.startsWith("unix://") ? address.substring(7) : address.substring(5);
      Bridge bridge = Bridge.open(path, address, connectTimeout);
      return play(bot, NettyChannelBuilder.forAddress(bridge.address()), bridge, token, stays);
    }
    return play(bot, NettyChannelBuilder.forTarget(address), null, token, stays);
  }

  /** Plays one match over the channel {@code builder} makes (through {@code bridge} if any). */
  static void play(KitBot bot, NettyChannelBuilder builder, Bridge bridge, String token)
      throws ArenaError, BotCodeError {
    play(bot, builder, bridge, token, false);
  }

  static boolean play(
      KitBot bot, NettyChannelBuilder builder, Bridge bridge, String token, boolean stays)
      throws ArenaError, BotCodeError {
    // netty looks for a hardware address to name itself; the sandbox has none (only loopback)
    System.setProperty("io.netty.machineId", "02:00:00:00:00:01");
    NioEventLoopGroup loop = new NioEventLoopGroup(1);
    ManagedChannel channel =
        builder
            .usePlaintext()
            .eventLoopGroup(loop)
            .channelType(NioSocketChannel.class)
            .directExecutor()
            .proxyDetector(target -> null)
            .build();
    try {
      return converse(bot, channel, token, stays);
    } finally {
      channel.shutdownNow();
      loop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      if (bridge != null) bridge.close();
    }
  }

  private static boolean converse(KitBot bot, ManagedChannel channel, String token, boolean stays)
      throws ArenaError, BotCodeError {
    LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
    StreamObserver<BotMessage> out =
        ArenaGrpc.newStub(channel)
            .play(
                new StreamObserver<EngineMessage>() {
                  @Override
                  public void onNext(EngineMessage message) {
                    events.add(new Event(message, null));
                  }

                  @Override
                  public void onError(Throwable error) {
                    events.add(new Event(null, Status.fromThrowable(error)));
                  }

                  @Override
                  public void onCompleted() {
                    events.add(new Event(null, Status.OK));
                  }
                });
    out.onNext(Arena.hello(bot, token, stays));
    Session session = new Session(bot, "gRPC");
    while (true) {
      Event event;
      try {
        event = events.take();
      } catch (InterruptedException e) {
        throw new ArenaError("interrupted");
      }
      if (event.status() != null) {
        Status status = event.status();
        if (status.isOk()) return session.stay;
        String details = status.getDescription();
        throw new ArenaError(
            "the arena ended the connection: "
                + status.getCode().name()
                + ": "
                + (details == null || details.isEmpty() ? "(no details)" : details),
            status.getCode().name());
      }
      BotMessage reply;
      try {
        reply = session.handle(event.message(), System.nanoTime());
      } catch (BotCodeError e) {
        out.onError(Status.CANCELLED.withDescription("the bot's code threw").asException());
        throw e;
      }
      if (reply != null) out.onNext(reply);
    }
  }

  /** One end of a byte stream the {@link Bridge} forwards: a socket channel, or a TLS socket. */
  interface End {
    int read(ByteBuffer buffer) throws IOException;

    void write(ByteBuffer buffer) throws IOException;

    void shutdownOutput() throws IOException;

    void close() throws IOException;

    static End of(SocketChannel channel) {
      return new End() {
        public int read(ByteBuffer buffer) throws IOException {
          return channel.read(buffer);
        }

        public void write(ByteBuffer buffer) throws IOException {
          while (buffer.hasRemaining()) channel.write(buffer);
        }

        public void shutdownOutput() throws IOException {
          channel.shutdownOutput();
        }

        public void close() throws IOException {
          channel.close();
        }
      };
    }

    /** A connected socket's streams (for a TLS socket: plaintext in, records out). */
    static End of(java.net.Socket socket) throws IOException {
      java.io.InputStream in = socket.getInputStream();
      java.io.OutputStream out = socket.getOutputStream();
      return new End() {
        public int read(ByteBuffer buffer) throws IOException {
          int n = in.read(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
          if (n > 0) buffer.position(buffer.position() + n);
          return n;
        }

        public void write(ByteBuffer buffer) throws IOException {
          out.write(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
          out.flush();
          buffer.position(buffer.limit());
        }

        public void shutdownOutput() throws IOException {
          socket.shutdownOutput();
        }

        public void close() throws IOException {
          socket.close();
        }
      };
    }
  }

  /**
   * A loopback TCP port that forwards one connection, byte for byte both ways, to the far end:
   * the arena's Unix socket, or a TLS connection to the gateway ({@link Remote}); the far end is
   * connected before gRPC starts, so that an unreachable arena is said at once.
   */
  static final class Bridge {
    private final ServerSocketChannel server;
    private final End arena;

    private Bridge(ServerSocketChannel server, End arena) {
      this.server = server;
      this.arena = arena;
    }

    static Bridge open(String path, String address, double timeout) throws ArenaError {
      return to(End.of(Arena.connectUnix(path, address, timeout)));
    }

    /** A bridge to {@code far}, an end already connected. */
    static Bridge to(End far) throws ArenaError {
      try {
        ServerSocketChannel server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
        Bridge bridge = new Bridge(server, far);
        Thread accept = new Thread(bridge::serve, "nimmt-bridge");
        accept.setDaemon(true);
        accept.start();
        return bridge;
      } catch (IOException e) {
        try {
          far.close();
        } catch (IOException ignored) {
          // closing anyway
        }
        throw new ArenaError("cannot open the loopback port for gRPC: " + e.getMessage());
      }
    }

    InetSocketAddress address() {
      try {
        return (InetSocketAddress) server.getLocalAddress();
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    private void serve() {
      try (SocketChannel grpc = server.accept()) {
        server.close(); // one connection only
        grpc.socket().setTcpNoDelay(true);
        End near = End.of(grpc);
        Thread up = new Thread(() -> pump(near, arena), "nimmt-bridge-up");
        up.setDaemon(true);
        up.start();
        pump(arena, near);
        up.join();
      } catch (IOException | InterruptedException e) {
        // the connection is over: gRPC sees its end
      } finally {
        close();
      }
    }

    private static void pump(End from, End to) {
      ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
      try {
        while (from.read(buffer) >= 0) {
          buffer.flip();
          to.write(buffer);
          buffer.clear();
        }
        to.shutdownOutput();
      } catch (IOException | UnsupportedOperationException e) {
        try {
          to.close();
          from.close();
        } catch (IOException ignored) {
          // closing anyway
        }
      }
    }

    void close() {
      try {
        server.close();
        arena.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
  }
}
