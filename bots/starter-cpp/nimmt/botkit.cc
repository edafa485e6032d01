// The C++ bot kit's implementation: the protocol's messages <-> the kit's values, and the
// conversation with the arena (see botkit.h and protos/nimmt/v1/arena.proto).
#include "nimmt/botkit.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/delimited_message_util.h>
#include <grpcpp/grpcpp.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "nimmt/v1/arena.grpc.pb.h"

namespace nimmt {
namespace {

namespace pb = ::nimmt::v1;
using Clock = std::chrono::steady_clock;

const char* const kKit = "nimmt-botkit-cpp/1";
constexpr double kConnectTimeout = 10.0;

bool quiet = false;
Clock::time_point deadline = Clock::time_point::max();

// One line on stderr, as the Python kit logs: time, logger, level, message.
void log(const char* level, const std::string& text) {
  if (quiet && std::string(level) == "INFO") return;
  std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  std::cerr << stamp << " nimmt.botkit " << level << " " << text << std::endl;
}

// The arena ended the connection, refused the bot, or cannot be reached.
struct ArenaError : std::runtime_error {
  explicit ArenaError(const std::string& what, int code = -1) : std::runtime_error(what), code(code) {}
  int code;  // the gRPC status the arena ended the stream with; -1 if it was never reached
};
// The bot's own code threw.
struct BotCodeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const char* const kActionNames[] = {"",         "stop",     "swap",    "skip", "front",
                                    "ascending", "anywhere", "another", "plus5"};
const char* const kLuckNames[] = {"", "plus5", "final10"};

std::string action_name(int card) {
  if (card < 0 || card > 8) throw std::runtime_error("unknown action card " + std::to_string(card));
  return kActionNames[card];
}

pb::ActionCard action_number(const std::string& card) {
  for (int i = 1; i <= 8; ++i) {
    if (card == kActionNames[i]) return static_cast<pb::ActionCard>(i);
  }
  throw BotCodeError("play_action() returned the unknown action card '" + card +
                     "' (stop, swap, skip, front, ascending, anywhere, another, plus5)");
}

std::string luck_name(int card) { return card >= 0 && card <= 2 ? kLuckNames[card] : ""; }

Kind kind_from(pb::DecisionKind kind) {
  switch (kind) {
    case pb::DECISION_KIND_LUCK:
      return Kind::kLuck;
    case pb::DECISION_KIND_ACTION:
      return Kind::kAction;
    case pb::DECISION_KIND_TAKE_ROW:
      return Kind::kTakeRow;
    default:
      return Kind::kTile;
  }
}

template <typename T>
std::vector<int> ints(const T& repeated) {
  return std::vector<int>(repeated.begin(), repeated.end());
}

Decision decision_from(const pb::Decision& message) {
  switch (message.decision_case()) {
    case pb::Decision::kLuck:
      return Decision::place_luck(message.luck().row(), message.luck().space());
    case pb::Decision::kAction: {
      const auto& action = message.action();
      return Decision::play_action(
          action_name(action.card()),
          action.has_row() ? std::optional<int>(action.row()) : std::nullopt,
          action.has_new_tile() ? std::optional<int>(action.new_tile()) : std::nullopt);
    }
    case pb::Decision::kTakeRow:
      return Decision::take_row(message.take_row().row());
    default:
      return Decision::play_tile(message.tile().tile());
  }
}

void put_decision(pb::Decision* message, const Decision& decision) {
  switch (decision.kind) {
    case Kind::kTile:
      message->mutable_tile()->set_tile(decision.tile);
      break;
    case Kind::kLuck:
      message->mutable_luck()->set_row(decision.row);
      message->mutable_luck()->set_space(decision.space);
      break;
    case Kind::kAction: {
      auto* action = message->mutable_action();
      action->set_card(decision.card.empty() ? pb::ACTION_CARD_NONE : action_number(decision.card));
      if (decision.action_row) action->set_row(*decision.action_row);
      if (decision.new_tile) action->set_new_tile(*decision.new_tile);
      break;
    }
    case Kind::kTakeRow:
      message->mutable_take_row()->set_row(decision.row);
      break;
  }
}

View view_from(const pb::Observation& m) {
  View view;
  view.variant = m.variant();
  view.seat = static_cast<int>(m.seat());
  view.players = static_cast<int>(m.players());
  view.turn = static_cast<int>(m.turn());
  view.set_number = static_cast<int>(m.set_number());
  view.layout.assign(m.layout().begin(), m.layout().end());
  for (const auto& row : m.spaces()) view.spaces.push_back(ints(row.tiles()));
  for (const auto& marker : m.markers()) {
    view.markers.push_back(
        {static_cast<int>(marker.row()), static_cast<int>(marker.space()), luck_name(marker.card())});
  }
  view.stops = ints(m.stops());
  view.hand = ints(m.hand());
  for (int card : m.action_cards()) view.action_cards.push_back(action_name(card));
  if (m.has_chosen()) view.chosen = static_cast<int>(m.chosen());
  view.scores = ints(m.scores());
  view.hand_sizes = ints(m.hand_sizes());
  view.action_counts = ints(m.action_counts());
  for (const auto& plays : m.history()) view.history.push_back(ints(plays.tiles()));
  for (const auto& c : m.choices()) {
    Choice choice;
    choice.seat = static_cast<int>(c.seat());
    choice.kind = kind_from(c.kind());
    if (choice.kind == Kind::kLuck) choice.card = luck_name(c.luck_card());
    if (choice.kind == Kind::kAction) choice.card = action_name(c.action_card());
    if (c.has_tile()) choice.tile = static_cast<int>(c.tile());
    if (c.has_row()) choice.row = static_cast<int>(c.row());
    if (c.has_space()) choice.space = static_cast<int>(c.space());
    if (c.has_new_tile()) choice.new_tile = static_cast<int>(c.new_tile());
    view.choices.push_back(choice);
  }
  for (const auto& p : m.to_place()) {
    view.to_place.push_back({static_cast<int>(p.tile()), static_cast<int>(p.seat())});
  }
  view.supply_size = static_cast<int>(m.supply_size());
  view.luck_deck_size = static_cast<int>(m.luck_deck_size());
  view.action_deck_size = static_cast<int>(m.action_deck_size());
  if (m.has_pending()) {
    Pending pending;
    pending.kind = kind_from(m.pending().kind());
    pending.seats = ints(m.pending().seats());
    if (m.pending().has_tile()) pending.tile = static_cast<int>(m.pending().tile());
    pending.card = luck_name(m.pending().card());
    view.pending = pending;
  }
  for (const auto& d : m.legal()) view.legal.push_back(decision_from(d));
  return view;
}

const char* status_name(grpc::StatusCode code) {
  static const char* const names[] = {
      "OK",          "CANCELLED",       "UNKNOWN",           "INVALID_ARGUMENT",
      "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",    "PERMISSION_DENIED",
      "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
      "UNIMPLEMENTED", "INTERNAL",      "UNAVAILABLE",       "DATA_LOSS",
      "UNAUTHENTICATED"};
  int index = static_cast<int>(code);
  return index >= 0 && index <= 16 ? names[index] : "UNKNOWN";
}

std::string legal_text(const std::vector<Decision>& legal) {
  std::string text;
  for (size_t i = 0; i < legal.size() && i < 12; ++i) text += (i ? ", " : "") + legal[i].str();
  return text;
}

// Turns arena messages into calls of the bot and its answers into messages; `transport` names
// the socket for the log ("gRPC", "framed socket").
class Session {
 public:
  Session(KitBot& bot, const char* transport) : bot_(bot), transport_(transport) {}

  // The reply to `message`, if it asks for one.
  std::optional<pb::BotMessage> handle(const pb::EngineMessage& message, Clock::time_point received) {
    switch (message.body_case()) {
      case pb::EngineMessage::kRequest:
        return answer(message.request(), received);
      case pb::EngineMessage::kGameStart: {
        const auto& start = message.game_start();
        GameInfo game{start.variant(), static_cast<int>(start.players()),
                      static_cast<int>(start.seat()), start.seed(), start.game_id()};
        call("start_game", [&] { bot_.start_game(game); });
        break;
      }
      case pb::EngineMessage::kGameEnd: {
        const auto& end = message.game_end();
        View view = view_from(end.view());
        std::vector<int> scores = ints(end.scores()), ranks = ints(end.ranks());
        call("end_game", [&] { bot_.end_game(view, scores, ranks); });
        ++games_;
        int seat = view.seat;
        std::ostringstream line;
        line << end.game_id() << " over: seat " << seat;
        if (seat < static_cast<int>(scores.size()) && seat < static_cast<int>(ranks.size())) {
          line << ", score " << scores[seat] << ", rank " << ranks[seat] << " of " << ranks.size();
        }
        for (const auto& fault : end.faults()) {
          if (static_cast<int>(fault.seat()) != seat) continue;
          std::string kind = pb::FaultKind_Name(fault.kind());
          kind = kind.substr(kind.rfind('_') + 1);
          std::transform(kind.begin(), kind.end(), kind.begin(), ::tolower);
          line << "; fault " << kind << " in turn " << fault.turn() + 1 << ": " << fault.detail();
        }
        log("INFO", line.str());
        break;
      }
      case pb::EngineMessage::kNotice: {
        const auto& notice = message.notice();
        std::string kind = pb::NoticeKind_Name(notice.kind());
        kind = kind.substr(kind.rfind('_') + 1);
        std::transform(kind.begin(), kind.end(), kind.begin(), ::tolower);
        std::ostringstream text;
        text << kind << " (request " << notice.request_id() << ", game " << notice.game_id()
             << "): " << notice.message();
        if (notice.has_played()) text << "; the arena played '" << decision_from(notice.played()).str() << "'";
        log("WARNING", "arena notice: " + text.str());
        break;
      }
      case pb::EngineMessage::kWelcome: {
        const auto& w = message.welcome();
        std::ostringstream text;
        text << "in the match " << w.match_id() << " as '" << w.bot_name() << "' (" << transport_
             << "): " << w.games()
             << " games, " << w.decision_ms() << " ms per decision + " << w.bank_ms()
             << " ms bank per game, dropped after " << w.max_faults() << " faults";
        log("INFO", text.str());
        break;
      }
      case pb::EngineMessage::kMatchEnd: {
        stay_ = message.match_end().stay();
        std::ostringstream text;
        text << "match over: " << message.match_end().games() << " games, " << answers_
             << " answers, " << message.match_end().faults() << " faults";
        log("INFO", text.str());
        break;
      }
      default:
        break;
    }
    return std::nullopt;
  }

 private:
  pb::BotMessage answer(const pb::DecisionRequest& request, Clock::time_point received) {
    deadline = received + std::chrono::milliseconds(request.deadline_ms());
    View view = view_from(request.view());
    Decision decision = call("decide", [&] { return bot_.decide(view); });
    if (std::find(view.legal.begin(), view.legal.end(), decision) == view.legal.end()) {
      log("WARNING", "request " + std::to_string(request.request_id()) + ": decide() returned '" +
                         decision.str() + "', which is not among the legal options (" +
                         legal_text(view.legal) + "); the arena will count it as illegal");
    }
    double spent = std::chrono::duration<double, std::milli>(Clock::now() - received).count();
    if (spent > request.deadline_ms()) {
      log("WARNING", "request " + std::to_string(request.request_id()) + ": answered after " +
                         std::to_string(static_cast<int64_t>(spent + 0.5)) + " ms, the deadline was " +
                         std::to_string(request.deadline_ms()) + " ms");
    }
    deadline = Clock::time_point::max();
    pb::BotMessage reply;
    reply.mutable_answer()->set_request_id(request.request_id());
    put_decision(reply.mutable_answer()->mutable_decision(), decision);
    if (std::optional<Note> note = bot_.take_note()) {  // cut here: 64 KiB is the message limit
      reply.mutable_answer()->set_note(cut_utf8(note->text));
      std::size_t n = std::min({note->values.size(), view.legal.size(), kMaxValues});
      for (std::size_t i = 0; i < n; ++i) {
        double value = note->values[i];
        reply.mutable_answer()->add_option_values(std::isfinite(value) ? value : std::nan(""));
      }
    }
    ++answers_;
    return reply;
  }

  template <typename F>
  auto call(const char* method, F f) -> decltype(f()) {
    try {
      return f();
    } catch (const BotCodeError&) {
      throw;
    } catch (const std::exception& exc) {
      throw BotCodeError(std::string("the bot's ") + method + "() threw: " + exc.what());
    } catch (...) {
      throw BotCodeError(std::string("the bot's ") + method + "() threw something not an exception");
    }
  }

  KitBot& bot_;
  const char* transport_;
  int games_ = 0;
  int answers_ = 0;

 public:
  bool stay_ = false;  // the arena keeps the process for another match (MatchEnd.stay)
};

// What a kit says when the gateway answers but its certificate is not trusted.
constexpr const char* kUntrusted = "the arena's certificate is not trusted (pass --ca FILE)";

// Why the gateway behind `channel` (which could not connect) cannot be trusted, or "" if its
// failure is something else: gRPC's channel says only that it is not connected, but a call that
// fails at once carries the last connection error, which names a failed certificate check.
std::string untrusted_certificate(const std::shared_ptr<grpc::Channel>& channel) {
  grpc::ClientContext context;
  context.set_wait_for_ready(false);
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  auto stub = pb::Arena::NewStub(channel);
  auto stream = stub->Play(&context);
  stream->WritesDone();
  grpc::Status status = stream->Finish();
  std::string message = status.error_message();
  std::string lower = message;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  bool certificate = lower.find("certificate") != std::string::npos ||
                     lower.find("ssl handshake failed") != std::string::npos ||
                     lower.find("peer name") != std::string::npos;
  if (status.error_code() != grpc::StatusCode::UNAVAILABLE || !certificate) return "";
  return message;
}

// The first message of a match: who the bot is, its token, whether it would stay.
pb::BotMessage hello_message(const KitBot& bot, const std::string& token, bool stays) {
  pb::BotMessage hello;
  hello.mutable_hello()->set_protocol_version(kProtocolVersion);
  hello.mutable_hello()->set_bot_name(bot.name());
  hello.mutable_hello()->set_token(token);
  hello.mutable_hello()->set_kit(kKit);
  hello.mutable_hello()->set_stays(stays);
  return hello;
}

std::string ended_text(const std::string& code, const std::string& details) {
  return "the arena ended the connection: " + code + ": " + (details.empty() ? "(no details)" : details);
}

// Plays one match over gRPC; `stays`: say that this bot stays for another match if the arena
// asks (Hello.stays). True if the arena asked it to (MatchEnd.stay).
bool play(KitBot& bot, const std::string& address, const std::string& token, double connect_timeout,
          std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials(),
          bool tls = false, bool stays = false) {
  grpc::ChannelArguments arguments;
  arguments.SetInt(GRPC_ARG_ENABLE_HTTP_PROXY, 0);
  arguments.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, 20000);
  arguments.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 10000);
  auto channel = grpc::CreateCustomChannel(address, credentials, arguments);
  auto until = std::chrono::system_clock::now() +
               std::chrono::milliseconds(static_cast<int64_t>(connect_timeout * 1000));
  if (!channel->WaitForConnected(until)) {
    if (tls) {
      if (std::string why = untrusted_certificate(channel); !why.empty()) {  // retrying would not help
        throw ArenaError(std::string(kUntrusted) + ": " + address + ": " + why,
                         grpc::StatusCode::FAILED_PRECONDITION);
      }
    }
    std::ostringstream text;
    text << "cannot reach the arena at " << address << " within " << connect_timeout
         << " s: is the match running, and is the address right?";
    throw ArenaError(text.str());
  }
  auto stub = pb::Arena::NewStub(channel);
  grpc::ClientContext context;
  auto stream = stub->Play(&context);
  Session session(bot, "gRPC");
  if (stream->Write(hello_message(bot, token, stays))) {
    pb::EngineMessage message;
    while (stream->Read(&message)) {
      std::optional<pb::BotMessage> reply;
      try {
        reply = session.handle(message, Clock::now());
      } catch (const BotCodeError&) {
        context.TryCancel();
        throw;
      }
      if (reply && !stream->Write(*reply)) break;  // the stream is closing: Finish says why
    }
  }
  grpc::Status status = stream->Finish();
  if (!status.ok()) {
    throw ArenaError(ended_text(status_name(status.error_code()), status.error_message()),
                     status.error_code());
  }
  return session.stay_;
}

// The framed socket (NIMMT_FRAMES; "The framed socket" in arena.proto): the conversation of
// play() without gRPC, each message a frame (its length as a varint, then the message), on a
// Unix socket to the arena on this machine. Cheaper per decision than gRPC's HTTP/2 and threads.

// An address's prefix for the framed socket: frames+unix:///run/nimmt/frames.sock.
constexpr const char* kFramed = "frames+unix://";
// The longest frame accepted from the arena, its own limit (a request is a few KiB).
constexpr uint32_t kMaxFrame = 4 * 1024 * 1024;
// The most bytes read off the socket at once.
constexpr int kReceiveBytes = 256 * 1024;

// A socket's file descriptor, closed when it goes out of scope.
class Socket {
 public:
  explicit Socket(int fd) : fd(fd) {}
  ~Socket() { ::close(fd); }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  const int fd;
};

// A connected Unix socket to `path`, trying again until `timeout` seconds have passed (the
// arena may still be starting).
int connect_unix(const std::string& path, double timeout) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof address.sun_path) {
    throw ArenaError("cannot reach the arena at '" + path + "': not a socket path (at most " +
                     std::to_string(sizeof address.sun_path - 1) + " bytes)");
  }
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  auto limit = Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(timeout * 1000));
  for (;;) {
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw ArenaError(std::string("cannot open a socket: ") + std::strerror(errno));
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) return fd;
    int error = errno;  // EINTR included: a new socket on the next round
    ::close(fd);
    if (Clock::now() > limit) {
      std::ostringstream text;
      text << "cannot reach the arena at " << path << " within " << timeout << " s ("
           << std::strerror(error) << "): is the match running, and is the address right?";
      throw ArenaError(text.str());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// The socket's bytes for protobuf's streams, and when the last of them arrived: a request's
// time starts when its frame was read, however many frames one read brought.
class SocketInput : public google::protobuf::io::CopyingInputStream {
 public:
  explicit SocketInput(int fd) : fd_(fd) {}
  int Read(void* buffer, int size) override {
    for (;;) {
      ssize_t n = ::read(fd_, buffer, static_cast<size_t>(size));
      if (n >= 0) {
        arrived = Clock::now();
        return static_cast<int>(n);
      }
      if (errno != EINTR) {
        error = errno;
        return -1;
      }
    }
  }
  Clock::time_point arrived = Clock::now();
  int error = 0;  // errno of a failed read; 0 at the end of the stream

 private:
  int fd_;
};

// Writes `message` as a frame. A write that fails is no error of its own: the arena closed the
// socket, and what is left to read says why (its status) or that it went away.
void send_frame(int fd, const google::protobuf::MessageLite& message) {
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream output(&bytes);
    google::protobuf::util::SerializeDelimitedToZeroCopyStream(message, &output);
  }
  for (size_t sent = 0; sent < bytes.size();) {
    ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return;
    sent += static_cast<size_t>(n);
  }
}

// The number of a gRPC status code's name (UNKNOWN for a name it does not know).
int status_number(const std::string& name) {
  for (int code = 0; code <= 16; ++code) {
    if (name == status_name(static_cast<grpc::StatusCode>(code))) return code;
  }
  return grpc::StatusCode::UNKNOWN;
}

// play() on the framed socket at `path`.
bool play_framed(KitBot& bot, const std::string& path, const std::string& token, double connect_timeout,
                 bool stays) {
  namespace io = google::protobuf::io;
  Socket connection(connect_unix(path, connect_timeout));
  SocketInput input(connection.fd);
  io::CopyingInputStreamAdaptor stream(&input, kReceiveBytes);
  Session session(bot, "framed socket");
  const std::string lost = "the arena ended the connection without a status";
  send_frame(connection.fd, hello_message(bot, token, stays));  // a refusal is read below
  bool ended = false;  // the empty frame came: the status is next
  for (;;) {
    uint32_t size = 0;
    std::string payload;
    {
      io::CodedInputStream coded(&stream);  // one per frame: its byte count starts afresh
      if (!coded.ReadVarint32(&size) || (size <= kMaxFrame && !coded.ReadString(&payload, size))) {
        throw ArenaError(input.error ? lost + ": " + std::strerror(input.error) : lost + " (it went away)");
      }
    }
    if (size > kMaxFrame) {
      throw ArenaError(lost + ": a frame of " + std::to_string(size) + " bytes, over the limit of " +
                       std::to_string(kMaxFrame));
    }
    if (ended) {  // "CODE reason"
      size_t space = payload.find(' ');
      std::string code = payload.substr(0, space);
      if (code == "OK") return session.stay_;
      std::string details = space == std::string::npos ? "" : payload.substr(space + 1);
      throw ArenaError(ended_text(code, details), status_number(code));
    }
    if (payload.empty()) {
      ended = true;
      continue;
    }
    pb::EngineMessage message;
    if (!message.ParseFromString(payload)) throw ArenaError(lost + ": a message it sent cannot be read");
    if (std::optional<pb::BotMessage> reply = session.handle(message, input.arrived)) {
      send_frame(connection.fd, *reply);
    }
  }
}

// Plays one match at `address`: frames+unix:///path on the framed socket, anything else (such
// as unix:///path) over gRPC.
bool play_at(KitBot& bot, const std::string& address, const std::string& token, double connect_timeout,
             bool stays) {
  if (address.rfind(kFramed, 0) == 0) {
    return play_framed(bot, address.substr(std::strlen(kFramed)), token, connect_timeout, stays);
  }
  return play(bot, address, token, connect_timeout, grpc::InsecureChannelCredentials(), false, stays);
}

// Where the arena said to connect: its framed socket ($NIMMT_FRAMES, on this machine only) if
// it offers one, else its gRPC socket ($NIMMT_ENGINE), else "".
std::string default_address() {
  const char* frames = std::getenv("NIMMT_FRAMES");
  if (frames && std::string(frames).rfind("unix://", 0) == 0) return std::string("frames+") + frames;
  const char* engine = std::getenv("NIMMT_ENGINE");
  return engine ? engine : "";
}

// How often a bot that stays looks for its next match's token (the arena freezes it meanwhile,
// so the looking costs nothing between matches), and how long it waits before it exits.
constexpr auto kStayPoll = std::chrono::milliseconds(5);
constexpr auto kStayWait = std::chrono::hours(1);

// The address and credentials of the arena's gateway at `url` (docs/REMOTE.md): grpcs://HOST:PORT
// (or HOST:PORT) with TLS, trusting the system's CAs or the certificate in `ca_file`;
// grpc://HOST:PORT in plaintext, only to a loopback address.
std::pair<std::string, std::shared_ptr<grpc::ChannelCredentials>> remote_target(const std::string& url,
                                                                               const std::string& ca_file) {
  std::string scheme, target = url;
  if (auto at = url.find("://"); at != std::string::npos) {
    scheme = url.substr(0, at);
    target = url.substr(at + 3);
  }
  if ((scheme != "" && scheme != "grpc" && scheme != "grpcs") || target.empty() ||
      target.find('/') != std::string::npos) {
    throw ArenaError("--remote '" + url + "': give grpcs://HOST:PORT (the bot page shows it)");
  }
  if (scheme == "grpc") {
    std::string host = target.substr(0, target.rfind(':'));
    if (host.size() >= 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
    if (host != "localhost" && host != "127.0.0.1" && host != "::1") {
      throw ArenaError("--remote '" + url + "': plaintext only to loopback; use grpcs://");
    }
    return {target, grpc::InsecureChannelCredentials()};
  }
  grpc::SslCredentialsOptions options;
  if (!ca_file.empty()) {
    std::ifstream file(ca_file);
    if (!file) throw ArenaError("cannot read the CA file " + ca_file + ": " + std::strerror(errno));
    std::stringstream content;
    content << file.rdbuf();
    options.pem_root_certs = content.str();
  }
  return {target, grpc::SslCredentials(options)};
}

// Match after match through the gateway at `url` with the bot's remote token, connecting again
// after each one and after a dropped connection (a growing pause, at most 10 s); `matches`: how
// many (0: until stopped). Throws ArenaError when the gateway refuses the token or the protocol.
void play_remote(KitBot& bot, const std::string& url, const std::string& token, const std::string& ca_file,
                 int matches, double connect_timeout) {
  auto [target, credentials] = remote_target(url, ca_file);
  int played = 0;
  double pause = 1;
  while (matches == 0 || played < matches) {
    try {
      play(bot, target, token, connect_timeout, credentials, url.rfind("grpc://", 0) != 0);
      ++played;
      pause = 1;
      log("INFO", "match " + std::to_string(played) + " over; waiting for the next");
      continue;
    } catch (const ArenaError& exc) {
      int code = exc.code;
      if (code == grpc::StatusCode::UNAUTHENTICATED || code == grpc::StatusCode::FAILED_PRECONDITION ||
          code == grpc::StatusCode::INVALID_ARGUMENT || code == grpc::StatusCode::PERMISSION_DENIED) {
        throw;
      }
      std::ostringstream text;
      text << exc.what() << "; connecting again in " << pause << " s";
      log("WARNING", text.str());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int64_t>(pause * 1000)));
    pause = std::min(10.0, pause * 2);
  }
}

std::string trimmed(const std::string& text) {
  const char* space = " \t\r\n";
  size_t start = text.find_first_not_of(space);
  if (start == std::string::npos) return "";
  return text.substr(start, text.find_last_not_of(space) - start + 1);
}

// The token: the content of $NIMMT_TOKEN_FILE, else $NIMMT_TOKEN, else "".
std::string token_from_env() {
  const char* path = std::getenv("NIMMT_TOKEN_FILE");
  if (path && *path) {
    std::ifstream file(path);
    if (!file) {
      throw ArenaError(std::string("cannot read the token file $NIMMT_TOKEN_FILE=") + path + ": " +
                       std::strerror(errno));
    }
    std::stringstream content;
    content << file.rdbuf();
    return trimmed(content.str());
  }
  const char* token = std::getenv("NIMMT_TOKEN");
  return token ? token : "";
}

// The next match's token, once the arena has written it to `path` ("" after kStayWait).
std::string next_token(const std::string& path, const std::string& last) {
  auto limit = std::chrono::steady_clock::now() + kStayWait;
  for (;;) {
    std::ifstream file(path);
    if (file) {
      std::stringstream content;
      content << file.rdbuf();
      std::string token = trimmed(content.str());
      if (!token.empty() && token != last) return token;
    }
    if (std::chrono::steady_clock::now() > limit) return "";
    std::this_thread::sleep_for(kStayPoll);
  }
}

int usage_error(const std::string& program, const std::string& text) {
  std::cerr << "usage: " << program
            << " [--connect ADDRESS] [--token TOKEN] [--connect-timeout SECONDS] [--quiet]\n"
            << program << ": error: " << text << std::endl;
  return 2;
}

}  // namespace

Decision Decision::play_tile(int tile) {
  Decision d;
  d.kind = Kind::kTile;
  d.tile = tile;
  return d;
}

Decision Decision::place_luck(int row, int space) {
  Decision d;
  d.kind = Kind::kLuck;
  d.row = row;
  d.space = space;
  return d;
}

Decision Decision::play_action(std::string card, std::optional<int> row, std::optional<int> new_tile) {
  Decision d;
  d.kind = Kind::kAction;
  d.card = std::move(card);
  d.action_row = row;
  d.new_tile = new_tile;
  return d;
}

Decision Decision::take_row(int row) {
  Decision d;
  d.kind = Kind::kTakeRow;
  d.row = row;
  return d;
}

bool Decision::operator==(const Decision& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case Kind::kTile:
      return tile == o.tile;
    case Kind::kLuck:
      return row == o.row && space == o.space;
    case Kind::kAction:
      return card == o.card && action_row == o.action_row && new_tile == o.new_tile;
    case Kind::kTakeRow:
      return row == o.row;
  }
  return false;
}

std::string Decision::str() const {
  switch (kind) {
    case Kind::kTile:
      return "tile " + std::to_string(tile);
    case Kind::kLuck:
      return "luck " + std::to_string(row) + " " + std::to_string(space);
    case Kind::kAction: {
      std::string text = "action " + (card.empty() ? std::string("none") : card);
      if (action_row) text += " row=" + std::to_string(*action_row);
      if (new_tile) text += " new_tile=" + std::to_string(*new_tile);
      return text;
    }
    case Kind::kTakeRow:
      return "take_row " + std::to_string(row);
  }
  return "?";
}

int bullheads(int tile) {
  if (tile == 55) return 7;
  if (tile % 11 == 0) return 5;
  if (tile % 10 == 0) return 3;
  if (tile % 5 == 0) return 2;
  return 1;
}

int fewest_bullheads_row(const std::vector<std::vector<int>>& spaces) {
  int best = 0, fewest = std::numeric_limits<int>::max();
  for (size_t r = 0; r < spaces.size(); ++r) {
    int total = 0;
    for (int tile : spaces[r]) total += tile > 0 ? bullheads(tile) : 0;
    if (total < fewest) {
      fewest = total;
      best = static_cast<int>(r);
    }
  }
  return best;
}

void KitBot::start_game(const GameInfo& game) {
  info = game;
  rng.seed(game.seed);
}

void KitBot::end_game(const View&, const std::vector<int>&, const std::vector<int>&) {}

std::string cut_utf8(const std::string& text, std::size_t limit) {
  // Invalid UTF-8 is replaced (the protocol's strings must be valid), byte by byte.
  std::string valid;
  for (std::size_t i = 0; i < text.size();) {
    unsigned char c = text[i];
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    bool ok = n > 0 && i + n <= text.size();
    for (std::size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(text[i + k]) & 0xc0) == 0x80;
    if (ok) {
      valid.append(text, i, n);
      i += n;
    } else {
      valid += "\xef\xbf\xbd";  // U+FFFD
      ++i;
    }
  }
  if (valid.size() <= limit) return valid;
  std::size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(valid[end]) & 0xc0) == 0x80) --end;
  return valid.substr(0, end);
}

std::vector<double> tile_values(const View& view, const std::map<int, double>& by_tile) {
  std::vector<double> values;
  for (const Decision& option : view.legal) {
    auto found = option.kind == Kind::kTile ? by_tile.find(option.tile) : by_tile.end();
    values.push_back(found != by_tile.end() ? found->second : std::nan(""));
  }
  return values;
}

void KitBot::annotate(std::string text, std::vector<double> values) {
  note_ = Note{std::move(text), std::move(values)};
}

std::optional<Note> KitBot::take_note() {
  std::optional<Note> note = std::move(note_);
  note_.reset();
  return note;
}

Decision KitBot::decide(const View& view) {
  if (!view.pending) throw std::runtime_error("seat " + std::to_string(view.seat) + " has nothing to decide");
  note_.reset();
  const Pending& pending = *view.pending;
  switch (pending.kind) {
    case Kind::kTile:
      return Decision::play_tile(choose_tile(view));
    case Kind::kLuck: {
      auto place = place_luck(view, pending.card);
      return Decision::place_luck(place.first, place.second);
    }
    case Kind::kAction: {
      auto action = play_action(view, pending.tile.value_or(0));
      if (!action) return Decision::play_action("");
      return Decision::play_action(action->card, action->row, action->new_tile);
    }
    case Kind::kTakeRow:
      return Decision::take_row(take_row(view, pending.tile.value_or(0)));
  }
  throw std::runtime_error("unknown decision kind");
}

int KitBot::choose_tile(const View& view) {
  if (view.hand.empty()) throw std::runtime_error("choose_tile() with an empty hand");
  return *std::min_element(view.hand.begin(), view.hand.end());
}

std::pair<int, int> KitBot::place_luck(const View& view, const std::string&) {
  if (view.legal.empty()) throw std::runtime_error("place_luck() without a legal space");
  return {view.legal.front().row, view.legal.front().space};
}

std::optional<PlayAction> KitBot::play_action(const View&, int) { return std::nullopt; }

int KitBot::take_row(const View& view, int) { return fewest_bullheads_row(view.spaces); }

double KitBot::time_left() const {
  if (deadline == Clock::time_point::max()) return std::numeric_limits<double>::infinity();
  double left = std::chrono::duration<double>(deadline - Clock::now()).count();
  return std::max(0.0, left);
}

int run(KitBot& bot, int argc, char** argv) {
  // The arena names gRPC experiments of its own (newer) gRPC; Debian's libgrpc 1.51 knows none
  // of them and would log an error line for each.
  unsetenv("GRPC_EXPERIMENTS");
  std::string program = argc > 0 ? argv[0] : "bot";
  std::string address = default_address();
  std::optional<std::string> token;
  double connect_timeout = kConnectTimeout;
  std::optional<std::string> remote;
  const char* ca_env = std::getenv("NIMMT_REMOTE_CA");
  std::string ca_file = ca_env ? ca_env : "";
  int matches = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const std::string& flag) -> std::optional<std::string> {
      if (arg.rfind(flag + "=", 0) == 0) return arg.substr(flag.size() + 1);
      if (arg == flag && i + 1 < argc) return std::string(argv[++i]);
      return std::nullopt;
    };
    if (arg == "-h" || arg == "--help") {
      std::cout << "usage: " << program
                << " [--connect ADDRESS] [--token TOKEN] [--connect-timeout SECONDS] [--quiet]\n\n"
                << "Run the bot '" << bot.name() << "' in a Nimmt Arena match.\n\n"
                << "  --connect ADDRESS   the arena's address: unix:///path for gRPC, "
                   "frames+unix:///path for the framed socket (default: the framed $NIMMT_FRAMES if "
                   "set, else $NIMMT_ENGINE)\n"
                << "  --token TOKEN       the bot's token for this match (default: the content of "
                   "$NIMMT_TOKEN_FILE, else $NIMMT_TOKEN)\n"
                << "  --connect-timeout SECONDS  how long to wait for the arena to accept the "
                   "connection (10 s)\n"
                << "  --remote URL        play from this machine through the arena's gateway, e.g. "
                   "grpcs://arena.example.org:7443, with the remote token in $NIMMT_REMOTE_TOKEN\n"
                << "  --ca FILE           with --remote: trust the gateway certificate in FILE "
                   "(default: $NIMMT_REMOTE_CA)\n"
                << "  --matches N         with --remote: stop after N matches (default: until stopped)\n"
                << "  --quiet             log only warnings and errors\n";
      return 0;
    }
    if (arg == "--quiet") {
      quiet = true;
    } else if (auto v = value("--connect")) {
      address = *v;
    } else if (auto v = value("--token")) {
      token = *v;
    } else if (auto v = value("--remote")) {
      remote = *v;
    } else if (auto v = value("--ca")) {
      ca_file = *v;
    } else if (auto v = value("--matches")) {
      char* end = nullptr;
      long count = std::strtol(v->c_str(), &end, 10);
      if (end == v->c_str() || *end != '\0' || count < 0) {
        return usage_error(program, "argument --matches: invalid count: '" + *v + "'");
      }
      matches = static_cast<int>(count);
    } else if (auto v = value("--connect-timeout")) {
      char* end = nullptr;
      connect_timeout = std::strtod(v->c_str(), &end);
      if (end == v->c_str() || *end != '\0' || !(connect_timeout >= 0)) {
        return usage_error(program, "argument --connect-timeout: invalid number: '" + *v + "'");
      }
    } else {
      return usage_error(program, "unrecognized arguments: " + arg);
    }
  }
  if (remote) {
    const char* remote_token = std::getenv("NIMMT_REMOTE_TOKEN");
    std::string secret = trimmed(remote_token ? remote_token : "");
    if (secret.empty()) {
      log("ERROR", "set NIMMT_REMOTE_TOKEN to the bot's remote token (shown on the bot's page)");
      return 2;
    }
    try {
      play_remote(bot, *remote, secret, ca_file, matches, connect_timeout);
    } catch (const ArenaError& exc) {
      log("ERROR", exc.what());
      return 1;
    } catch (const BotCodeError& exc) {
      log("CRITICAL", std::string(exc.what()) + "; the bot stops here (a crash)");
      return 3;
    } catch (const std::exception& exc) {
      log("CRITICAL", std::string("the bot kit failed: ") + exc.what());
      return 1;
    }
    return 0;
  }
  if (address.empty()) {
    return usage_error(program,
                       "no arena address: the arena sets NIMMT_ENGINE; to connect by hand pass "
                       "--connect unix:///path/to/engine.sock");
  }
  try {
    const char* file = std::getenv("NIMMT_TOKEN_FILE");
    std::string token_file = (!token && file) ? file : "";
    std::string secret = token ? *token : token_from_env();
    // While the arena keeps the process (MatchEnd.stay), the next match with the next token.
    while (play_at(bot, address, secret, connect_timeout, !token_file.empty()) && !token_file.empty()) {
      log("INFO", "the arena keeps this process for another match: waiting for it");
      secret = next_token(token_file, secret);
      if (secret.empty()) break;
    }
  } catch (const ArenaError& exc) {
    log("ERROR", exc.what());
    return 1;
  } catch (const BotCodeError& exc) {
    log("CRITICAL", std::string(exc.what()) + "; the bot stops here (a crash)");
    return 3;
  } catch (const std::exception& exc) {  // a message this kit cannot read, say
    log("CRITICAL", std::string("the bot kit failed: ") + exc.what());
    return 1;
  }
  return 0;
}

}  // namespace nimmt
