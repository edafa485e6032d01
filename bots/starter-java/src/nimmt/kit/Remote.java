package nimmt.kit;

import io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * Playing from the owner's machine through the arena's gateway (docs/REMOTE.md): {@code --remote
 * URL} with the bot's remote token in $NIMMT_REMOTE_TOKEN, match after match.
 *
 * <p>The gateway speaks gRPC over TLS with ALPN "h2". Debian's grpc-netty asks netty for ALPN,
 * which netty 4.1.48 does not offer on JDK 17, so the kit makes the TLS connection itself with
 * the JDK's {@code javax.net.ssl} (ALPN "h2", the gateway's name checked against its
 * certificate) and hands gRPC a plaintext loopback port that forwards to it, as it does for the
 * arena's Unix socket ({@link Grpc.Bridge}). gRPC, HTTP/2 and protobuf are Debian's, unchanged.
 */
final class Remote {
  /** The longest pause between two attempts to reach the gateway (ms). */
  static final long RECONNECT_MAX_MS = 10_000;

  /** The statuses after which a remote bot does not connect again: fix something first. */
  static final Set<String> FINAL =
      Set.of("UNAUTHENTICATED", "FAILED_PRECONDITION", "INVALID_ARGUMENT", "PERMISSION_DENIED");

  private static final Pattern URL = Pattern.compile("^(?:(grpcs?)://)?(\\[[^\\]/]+\\]|[^:/\\[\\]]+):(\\d+)$");

  private Remote() {}

  /** Where the gateway is, and how to reach it: {@code tls} null for plaintext (loopback only). */
  record Target(String host, int port, SSLSocketFactory tls) {
    String authority() {
      return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
  }

  /**
   * The gateway at {@code url}: grpcs://HOST:PORT (or HOST:PORT) with TLS, trusting the JDK's
   * default CAs or the certificates in {@code caFile}; grpc://HOST:PORT in plaintext, only to a
   * loopback address.
   */
  static Target target(String url, String caFile) throws Arena.ArenaError {
    Matcher m = URL.matcher(url);
    if (!m.matches()) {
      throw new Arena.ArenaError(
          "--remote '" + url + "': give grpcs://HOST:PORT (the bot page shows it)");
    }
    String host = m.group(2).replaceAll("^\\[|\\]$", "");
    int port = Integer.parseInt(m.group(3));
    if ("grpc".equals(m.group(1))) {
      if (!Set.of("localhost", "127.0.0.1", "::1").contains(host)) {
        throw new Arena.ArenaError(
            "--remote '" + url + "': plaintext only to loopback; use grpcs://");
      }
      return new Target(host, port, null);
    }
    return new Target(host, port, trust(caFile));
  }

  private static SSLSocketFactory trust(String caFile) throws Arena.ArenaError {
    try {
      if (caFile == null || caFile.isEmpty()) return SSLContext.getDefault().getSocketFactory();
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int n = 0;
      try (InputStream in = Files.newInputStream(Path.of(caFile))) {
        for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
          store.setCertificateEntry("ca-" + n++, c);
        }
      }
      if (n == 0) throw new GeneralSecurityException("no certificate in it");
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context.getSocketFactory();
    } catch (IOException | GeneralSecurityException e) {
      String why = e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage();
      throw new Arena.ArenaError("cannot read the CA file " + caFile + ": " + why);
    }
  }

  /** What a kit says when the gateway answers but its certificate is not trusted. */
  static final String UNTRUSTED = "the arena's certificate is not trusted (pass --ca FILE)";

  /**
   * A TLS connection to the gateway with ALPN "h2" and the host name (or address) checked
   * against the certificate; UNAVAILABLE if it cannot be reached, FAILED_PRECONDITION if its
   * certificate is not trusted (connecting again would not help).
   */
  static Socket connect(Target target, double timeout) throws Arena.ArenaError {
    Socket plain = new Socket();
    int ms = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout * 1000));
    try {
      plain.connect(new InetSocketAddress(target.host(), target.port()), ms);
      plain.setTcpNoDelay(true);
      SSLSocket socket =
          (SSLSocket) target.tls().createSocket(plain, target.host(), target.port(), true);
      SSLParameters parameters = socket.getSSLParameters();
      parameters.setApplicationProtocols(new String[] {"h2"});
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      socket.setSSLParameters(parameters);
      socket.setSoTimeout(ms);
      socket.startHandshake();
      socket.setSoTimeout(0);
      if (!"h2".equals(socket.getApplicationProtocol())) {
        socket.close();
        throw new Arena.ArenaError(
            "the gateway at " + target.authority() + " did not agree to HTTP/2 (ALPN h2)",
            "FAILED_PRECONDITION");
      }
      return socket;
    } catch (SSLHandshakeException e) {
      close(plain);
      throw new Arena.ArenaError(
          UNTRUSTED + ": " + target.authority() + ": " + e.getMessage(),
          "FAILED_PRECONDITION");
    } catch (IOException e) {
      close(plain);
      throw new Arena.ArenaError(
          "cannot reach the gateway at " + target.authority() + ": " + e, "UNAVAILABLE");
    }
  }

  private static void close(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }

  /** One match (or one wait for one) through the gateway. */
  static void playOnce(KitBot bot, Target target, String token, double timeout)
      throws Arena.ArenaError, Arena.BotCodeError {
    if (target.tls() == null) {
      Grpc.play(bot, NettyChannelBuilder.forTarget(target.authority()), null, token);
      return;
    }
    Socket socket = connect(target, timeout);
    Grpc.End far;
    try {
      far = Grpc.End.of(socket);
    } catch (IOException e) {
      close(socket);
      throw new Arena.ArenaError(
          "the connection to the gateway at " + target.authority() + " broke: " + e,
          "UNAVAILABLE");
    }
    Grpc.Bridge bridge = Grpc.Bridge.to(far);
    NettyChannelBuilder builder =
        NettyChannelBuilder.forAddress(bridge.address()).overrideAuthority(target.authority());
    Grpc.play(bot, builder, bridge, token);
  }

  /**
   * Plays match after match through the gateway at {@code url}, connecting again after each
   * match and after a dropped connection (a growing pause, at most {@link #RECONNECT_MAX_MS});
   * {@code matches} is how many (0: until stopped). Returns the number played; throws when the
   * gateway refuses the token or the protocol.
   */
  static int playRemote(
      KitBot bot, String url, String token, String caFile, int matches, double timeout)
      throws Arena.ArenaError, Arena.BotCodeError {
    Target target = target(url, caFile);
    int played = 0;
    long pause = 1000;
    while (matches == 0 || played < matches) {
      try {
        playOnce(bot, target, token, timeout);
        played++;
        pause = 1000;
        Arena.log("INFO", "match " + played + " over; waiting for the next");
        continue;
      } catch (Arena.ArenaError e) {
        if (e.code == null || FINAL.contains(e.code)) throw e;
        Arena.log("WARNING", e.getMessage() + "; connecting again in " + pause / 1000.0 + " s");
      }
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        throw new Arena.ArenaError("interrupted");
      }
      pause = Math.min(pause * 2, RECONNECT_MAX_MS);
    }
    return played;
  }

  static int main(KitBot bot, String url, String caFile, int matches, double timeout) {
    String token = System.getenv().getOrDefault("NIMMT_REMOTE_TOKEN", "").strip();
    if (token.isEmpty()) {
      Arena.log("ERROR", "set NIMMT_REMOTE_TOKEN to the bot's remote token (shown on the bot's page)");
      return 2;
    }
    try {
      playRemote(bot, url, token, caFile, matches, timeout);
    } catch (Arena.ArenaError e) {
      Arena.log("ERROR", e.getMessage());
      return 1;
    } catch (Arena.BotCodeError e) {
      java.io.StringWriter trace = new java.io.StringWriter();
      e.getCause().printStackTrace(new java.io.PrintWriter(trace));
      Arena.log("CRITICAL", e.getMessage() + "; the bot stops here (a crash)\n" + trace);
      return 3;
    } catch (RuntimeException e) {
      java.io.StringWriter trace = new java.io.StringWriter();
      e.printStackTrace(new java.io.PrintWriter(trace));
      Arena.log("CRITICAL", "the bot kit failed: " + e + "\n" + trace);
      return 1;
    }
    return 0;
  }
}
