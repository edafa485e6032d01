package nimmt.kit;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import nimmt.kit.Arena.ArenaError;
import nimmt.kit.Arena.BotCodeError;
import nimmt.kit.Arena.Session;
import nimmt.v1.ArenaOuterClass.BotMessage;
import nimmt.v1.ArenaOuterClass.EngineMessage;

/**
 * The conversation on the arena's framed socket ({@code $NIMMT_FRAMES}): the messages of the
 * gRPC stream without gRPC, on a plain Unix socket. Each message is a frame, its length as a
 * varint and then its bytes (protobuf's delimited format, {@code writeDelimitedTo}); the arena
 * ends with an empty frame, then a frame of UTF-8 text holding the status (a gRPC status name,
 * a space and the reason: "OK", "UNAUTHENTICATED missing or unknown token ..."), and closes.
 *
 * <p>One thread reads, calls the bot and writes, blocking: nothing else runs in the process, and
 * neither gRPC nor netty is loaded (a large part of a JVM bot's start).
 */
final class Framed {
  /** The longest frame the kit reads (bytes); a request is a few KiB. */
  static final int MAX_FRAME = 4 * 1024 * 1024;
  /** A frame's length is a varint of at most this many bytes. */
  static final int MAX_VARINT = 5;

  private Framed() {}

  /**
   * Plays one match on {@code channel}, connected to the framed socket, and closes it; {@code
   * stays}: say that this bot stays for another match if the arena asks (Hello.stays). True if
   * the arena asked it to (MatchEnd.stay).
   */
  static boolean play(KitBot bot, SocketChannel channel, String token, boolean stays)
      throws ArenaError, BotCodeError {
    try {
      InputStream in = new BufferedInputStream(Channels.newInputStream(channel), 1 << 16);
      OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 12);
      Session session = new Session(bot, "framed socket");
      send(out, Arena.hello(bot, token, stays));
      boolean writable = true; // until a write fails: the status may still be there to read
      while (true) {
        byte[] payload = read(in);
        long received = System.nanoTime();
        if (payload == null) {
          throw new ArenaError("the arena ended the connection without a status (it went away)");
        }
        if (payload.length == 0) { // the end: the status follows
          byte[] status = read(in);
          if (status == null) throw new EOFException("no status after the end of the conversation");
          String text = new String(status, StandardCharsets.UTF_8);
          int space = text.indexOf(' ');
          String code = space < 0 ? text : text.substring(0, space);
          String details = space < 0 ? "" : text.substring(space + 1);
          if (code.equals("OK")) return session.stay;
          throw new ArenaError(
              "the arena ended the connection: "
                  + code
                  + ": "
                  + (details.isEmpty() ? "(no details)" : details),
              code);
        }
        BotMessage reply = session.handle(EngineMessage.parseFrom(payload), received);
        if (reply != null && writable) {
          try {
            send(out, reply);
          } catch (IOException e) {
            writable = false;
          }
        }
      }
    } catch (IOException e) { // a broken socket, a frame that is not one, a message unreadable
      throw new ArenaError("the arena ended the connection without a status: " + e);
    } finally {
      try {
        channel.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
  }

  private static void send(OutputStream out, BotMessage message) throws IOException {
    message.writeDelimitedTo(out);
    out.flush();
  }

  /** The next frame's payload, or null if the socket closed between two frames. */
  static byte[] read(InputStream in) throws IOException {
    long size = 0;
    for (int i = 0; ; i++) {
      int b = in.read();
      if (b < 0) {
        if (i == 0) return null;
        throw new EOFException("the socket closed inside a frame's length");
      }
      size |= (long) (b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) break;
      if (i + 1 == MAX_VARINT) {
        throw new IOException("a frame length of more than " + MAX_VARINT + " bytes");
      }
    }
    if (size > MAX_FRAME) {
      throw new IOException("a frame of " + size + " bytes, over the limit of " + MAX_FRAME);
    }
    byte[] payload = in.readNBytes((int) size);
    if (payload.length < size) throw new EOFException("the socket closed inside a frame");
    return payload;
  }
}
