package nimmt

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	nimmtv1 "nimmt-arena/bot/nimmt/v1"
)

// ProtocolVersion is the version of the bot protocol this kit speaks (protos/nimmt/v1).
const ProtocolVersion = 1

// Kit names this kit in Hello.
const Kit = "nimmt-botkit-go/1"

// ConnectTimeout is how long Play waits for the arena's socket to accept the connection.
const ConnectTimeout = 10 * time.Second

var deadline atomic.Int64 // unix nanoseconds by which the current request must be answered

// TimeLeft is how long is left to answer the current request, counted from when the kit read
// it; a very long time outside a request.
func TimeLeft() time.Duration {
	until := deadline.Load()
	if until == 0 {
		return time.Duration(1<<63 - 1)
	}
	if left := time.Until(time.Unix(0, until)); left > 0 {
		return left
	}
	return 0
}

// ArenaError is the arena refusing the bot or ending the match early; the message says why.
type ArenaError struct {
	Message string
	Code    codes.Code // the status the arena ended the stream with (OK if it was never reached)
}

func (e *ArenaError) Error() string { return e.Message }

// BotCodeError is the bot's own code panicking; Stack is where.
type BotCodeError struct {
	Hook  string
	Value interface{}
	Stack string
}

func (e *BotCodeError) Error() string {
	return fmt.Sprintf("the bot's %s panicked: %v", e.Hook, e.Value)
}

// Summary is what happened to the bot in one match, as the kit saw it.
type Summary struct {
	Games   int
	Answers int
	Notices []string
	Faults  int  // reported by the arena at the end of the match
	Stay    bool // the arena keeps the process for another match (MatchEnd.stay)
	// Transport is the socket the kit played on: "framed socket" or "gRPC".
	Transport string
}

// How often a bot that stays looks for its next match's token (the arena freezes it meanwhile,
// so the looking costs nothing between matches), and how long it waits before it exits.
const (
	stayPoll = 5 * time.Millisecond
	stayWait = time.Hour
)

// nextToken is the next match's token, once the arena has written it to path ("" after
// stayWait).
func nextToken(path, last string) string {
	limit := time.Now().Add(stayWait)
	for {
		data, err := os.ReadFile(path)
		token := strings.TrimSpace(string(data))
		if err == nil && token != "" && token != last {
			return token
		}
		if time.Now().After(limit) {
			return ""
		}
		time.Sleep(stayPoll)
	}
}

// TokenFromEnv is the bot's token: the content of the file $NIMMT_TOKEN_FILE names (how the
// arena hands it over), else $NIMMT_TOKEN (for a bot started by hand), else "".
func TokenFromEnv() (string, error) {
	if path := os.Getenv("NIMMT_TOKEN_FILE"); path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return "", &ArenaError{Message: fmt.Sprintf("cannot read the token file $NIMMT_TOKEN_FILE=%s: %v", path, err)}
		}
		return strings.TrimSpace(string(data)), nil
	}
	return os.Getenv("NIMMT_TOKEN"), nil
}

// call runs one hook of the bot, turning a panic into a BotCodeError.
func call(hook string, run func()) (err error) {
	defer func() {
		if value := recover(); value != nil {
			err = &BotCodeError{hook, value, string(debug.Stack())}
		}
	}()
	run()
	return nil
}

// Play connects bot to the arena at address and plays until the match ends: on its framed
// socket for frames+unix:///path (DefaultAddress), else over gRPC (e.g.
// unix:///run/nimmt/engine.sock). It returns an *ArenaError if the arena refuses the bot or
// ends the match early, and a *BotCodeError if the bot's own code panics.
func Play(bot Bot, address, token string, connectTimeout time.Duration) (*Summary, error) {
	return play(bot, address, token, connectTimeout, grpc.WithInsecure(), false)
}

// playMatches plays the match at address and, while the arena keeps the process
// (MatchEnd.stay), the next ones with the token it writes to tokenFile ("": one match).
func playMatches(bot Bot, address, token string, connectTimeout time.Duration, tokenFile string) (*Summary, error) {
	for {
		summary, err := play(bot, address, token, connectTimeout, grpc.WithInsecure(), tokenFile != "")
		if err != nil || !summary.Stay || tokenFile == "" {
			return summary, err
		}
		log.Printf("the arena keeps this process for another match: waiting for it")
		if token = nextToken(tokenFile, token); token == "" {
			return summary, nil
		}
	}
}

// stream is one conversation with the arena, on either socket: Recv returns io.EOF when the
// arena ends it with the status OK.
type stream interface {
	Send(*nimmtv1.BotMessage) error
	Recv() (*nimmtv1.EngineMessage, error)
}

// play is Play over the framed socket for a frames+unix:// address, else over a gRPC
// connection dialled with transport (plaintext, or TLS to a gateway).
// stays: say that this bot stays for another match if the arena asks (Hello.stays).
func play(bot Bot, address, token string, connectTimeout time.Duration, transport grpc.DialOption, stays bool) (*Summary, error) {
	if strings.HasPrefix(address, FramedPrefix) {
		framed, err := dialFramed(address, strings.TrimPrefix(address, FramedPrefix), connectTimeout)
		if err != nil {
			return nil, err
		}
		defer framed.Close()
		return converse(bot, framed, "framed socket", token, stays)
	}
	dial, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	conn, err := grpc.DialContext(dial, address, transport, grpc.WithBlock())
	if err != nil {
		return nil, &ArenaError{Message: fmt.Sprintf("cannot reach the arena at %s within %s: is the match running, and is the address right?", address, connectTimeout)}
	}
	defer conn.Close()
	client, err := nimmtv1.NewArenaClient(conn).Play(context.Background())
	if err != nil {
		return nil, arenaError(err)
	}
	return converse(bot, client, "gRPC", token, stays)
}

// converse says hello on s and plays the match to its end; transport names the socket in the
// log.
func converse(bot Bot, s stream, transport, token string, stays bool) (*Summary, error) {
	hello := &nimmtv1.Hello{ProtocolVersion: ProtocolVersion, BotName: bot.Name(), Token: token, Kit: Kit, Stays: stays}
	if err := s.Send(&nimmtv1.BotMessage{Body: &nimmtv1.BotMessage_Hello{Hello: hello}}); err != nil {
		return nil, arenaError(err)
	}
	summary := &Summary{Transport: transport}
	for {
		message, err := s.Recv()
		if err == io.EOF {
			return summary, nil
		}
		if err != nil {
			return summary, arenaError(err)
		}
		reply, err := handle(bot, summary, message, time.Now())
		if err != nil {
			return summary, err
		}
		if reply != nil {
			if err := s.Send(reply); err != nil {
				return summary, arenaError(err)
			}
		}
	}
}

// arenaError is err as an *ArenaError (the framed socket's errors already are).
func arenaError(err error) error {
	var arena *ArenaError
	if errors.As(err, &arena) {
		return err
	}
	if s, ok := status.FromError(err); ok {
		details := s.Message()
		if details == "" {
			details = "(no details)"
		}
		return &ArenaError{Message: fmt.Sprintf("the arena ended the connection: %s: %s", strings.ToUpper(codeName(s.Code().String())), details), Code: s.Code()}
	}
	return &ArenaError{Message: fmt.Sprintf("the arena ended the connection: %v", err)}
}

// codeName turns grpc-go's "FailedPrecondition" into "FAILED_PRECONDITION", as gRPC names codes.
func codeName(name string) string {
	var out strings.Builder
	for i, r := range name {
		if i > 0 && r >= 'A' && r <= 'Z' {
			out.WriteByte('_')
		}
		out.WriteRune(r)
	}
	return out.String()
}

// handle turns one arena message into calls of the bot and, for a request, its answer.
func handle(bot Bot, summary *Summary, message *nimmtv1.EngineMessage, received time.Time) (*nimmtv1.BotMessage, error) {
	switch body := message.GetBody().(type) {
	case *nimmtv1.EngineMessage_Request:
		request := body.Request
		deadline.Store(received.Add(time.Duration(request.GetDeadlineMs()) * time.Millisecond).UnixNano())
		defer deadline.Store(0)
		view, err := viewFromProto(request.GetView())
		if err != nil {
			return nil, &ArenaError{Message: fmt.Sprintf("request %d: the view cannot be read: %v", request.GetRequestId(), err)}
		}
		var decision Decision
		if err := call("decision hook", func() { decision = decide(bot, view) }); err != nil {
			return nil, err
		}
		if !view.IsLegal(decision) {
			shown := []string{}
			for i, option := range view.Legal {
				if i == 12 {
					break
				}
				shown = append(shown, option.String())
			}
			log.Printf("WARNING request %d: the bot chose %q, which is not among the legal options (%s); the arena will count it as illegal", request.GetRequestId(), decision.String(), strings.Join(shown, ", "))
		}
		if spent := time.Since(received); spent > time.Duration(request.GetDeadlineMs())*time.Millisecond {
			log.Printf("WARNING request %d: answered after %d ms, the deadline was %d ms", request.GetRequestId(), spent.Milliseconds(), request.GetDeadlineMs())
		}
		encoded, err := decisionToProto(decision)
		if err != nil {
			return nil, &BotCodeError{"decision hook", err, ""}
		}
		summary.Answers++
		answer := &nimmtv1.Answer{RequestId: request.GetRequestId(), Decision: encoded}
		if annotator, ok := bot.(Annotator); ok {
			answer.Note, answer.OptionValues = bounded(annotator.TakeNote(), len(view.Legal))
		}
		return &nimmtv1.BotMessage{Body: &nimmtv1.BotMessage_Answer{Answer: answer}}, nil
	case *nimmtv1.EngineMessage_GameStart:
		start := body.GameStart
		info := GameInfo{
			GameID: start.GetGameId(), Variant: start.GetVariant(), Players: int(start.GetPlayers()),
			Seat: int(start.GetSeat()), Seed: start.GetSeed(), Names: start.GetPlayerNames(),
		}
		return nil, call("StartGame", func() { bot.StartGame(info) })
	case *nimmtv1.EngineMessage_GameEnd:
		end := body.GameEnd
		view, err := viewFromProto(end.GetView())
		if err != nil {
			return nil, &ArenaError{Message: fmt.Sprintf("the final view cannot be read: %v", err)}
		}
		scores, ranks := ints(end.GetScores()), ints(end.GetRanks())
		if err := call("EndGame", func() { bot.EndGame(view, scores, ranks) }); err != nil {
			return nil, err
		}
		summary.Games++
		line := fmt.Sprintf("%s over: seat %d", end.GetGameId(), view.Seat)
		if view.Seat < len(scores) && view.Seat < len(ranks) {
			line += fmt.Sprintf(", score %d, rank %d of %d", scores[view.Seat], ranks[view.Seat], len(ranks))
		}
		for _, fault := range end.GetFaults() {
			if int(fault.GetSeat()) == view.Seat {
				kind := strings.ToLower(strings.TrimPrefix(fault.GetKind().String(), "FAULT_KIND_"))
				line += fmt.Sprintf("; fault %s in turn %d: %s", kind, fault.GetTurn()+1, fault.GetDetail())
			}
		}
		log.Print(line)
	case *nimmtv1.EngineMessage_Notice:
		notice := body.Notice
		kind := strings.ToLower(strings.TrimPrefix(notice.GetKind().String(), "NOTICE_KIND_"))
		text := fmt.Sprintf("%s (request %d, game %s): %s", kind, notice.GetRequestId(), notice.GetGameId(), notice.GetMessage())
		if notice.GetPlayed() != nil {
			if played, err := decisionFromProto(notice.GetPlayed()); err == nil {
				text += fmt.Sprintf("; the arena played '%s'", played)
			}
		}
		summary.Notices = append(summary.Notices, text)
		log.Printf("WARNING arena notice: %s", text)
	case *nimmtv1.EngineMessage_Welcome:
		w := body.Welcome
		log.Printf("in the match %s as %q (%s): %d games, %d ms per decision + %d ms bank per game, dropped after %d faults",
			w.GetMatchId(), w.GetBotName(), summary.Transport, w.GetGames(), w.GetDecisionMs(), w.GetBankMs(), w.GetMaxFaults())
	case *nimmtv1.EngineMessage_MatchEnd:
		summary.Faults = int(body.MatchEnd.GetFaults())
		summary.Stay = body.MatchEnd.GetStay()
		log.Printf("match over: %d games, %d answers, %d faults", body.MatchEnd.GetGames(), summary.Answers, summary.Faults)
	}
	return nil, nil
}

// Main parses the command line and environment, plays, and returns the exit code: 0 after a
// normal match, 1 if the arena ended the connection with an error (the reason is logged to
// stderr, which the arena keeps as the bot's log), 2 for a usage error, 3 if the bot's own code
// panicked (with the stack).
func Main(bot Bot, args []string) int {
	flags := flag.NewFlagSet(bot.Name(), flag.ContinueOnError)
	connect := flags.String("connect", DefaultAddress(), "the arena's address: unix:///path for gRPC, frames+unix:///path for the framed socket (default: the framed $NIMMT_FRAMES if set, else $NIMMT_ENGINE)")
	token := flags.String("token", "", "the bot's token for this match (default: the content of $NIMMT_TOKEN_FILE, else $NIMMT_TOKEN)")
	timeout := flags.Float64("connect-timeout", ConnectTimeout.Seconds(), "how long to wait for the arena to accept the connection, in seconds")
	quiet := flags.Bool("quiet", false, "log only warnings and errors")
	remote := flags.String("remote", "", "play from this machine through the arena's gateway, e.g. grpcs://arena.example.org:7443, with the remote token in $NIMMT_REMOTE_TOKEN")
	ca := flags.String("ca", os.Getenv("NIMMT_REMOTE_CA"), "with --remote: trust the gateway certificate in this file (default: $NIMMT_REMOTE_CA)")
	matches := flags.Int("matches", 0, "with --remote: stop after this many matches (default: play until stopped)")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	log.SetOutput(os.Stderr)
	log.SetFlags(log.LstdFlags | log.Lmicroseconds)
	log.SetPrefix("nimmt.botkit ")
	if *quiet {
		log.SetOutput(warningsOnly{os.Stderr})
	}
	if *remote != "" {
		return mainRemote(bot, *remote, *ca, *matches, time.Duration(*timeout*float64(time.Second)))
	}
	if *connect == "" {
		fmt.Fprintln(os.Stderr, "no arena address: the arena sets NIMMT_FRAMES or NIMMT_ENGINE; to connect by hand pass --connect unix:///path/to/engine.sock")
		return 2
	}
	given := false
	flags.Visit(func(f *flag.Flag) { given = given || f.Name == "token" })
	secret := *token
	tokenFile := ""
	if !given {
		tokenFile = os.Getenv("NIMMT_TOKEN_FILE")
		var err error
		if secret, err = TokenFromEnv(); err != nil {
			log.Printf("ERROR %v", err)
			return 1
		}
	}
	if *timeout <= 0 {
		fmt.Fprintln(os.Stderr, "--connect-timeout must be a positive number of seconds")
		return 2
	}
	_, err := playMatches(bot, *connect, secret, time.Duration(*timeout*float64(time.Second)), tokenFile)
	var code *BotCodeError
	switch {
	case errors.As(err, &code):
		log.Printf("CRITICAL %v; the bot stops here (a crash)\n%s", code, code.Stack)
		return 3
	case err != nil:
		log.Printf("ERROR %v", err)
		return 1
	}
	return 0
}

// warningsOnly drops the log lines that are not warnings or errors (--quiet).
type warningsOnly struct{ out io.Writer }

func (w warningsOnly) Write(line []byte) (int, error) {
	text := string(line)
	if strings.Contains(text, " WARNING ") || strings.Contains(text, " ERROR ") || strings.Contains(text, " CRITICAL ") {
		return w.out.Write(line)
	}
	return len(line), nil
}

// Run plays the match the environment (or --connect) names, then exits the process.
func Run(bot Bot) {
	os.Exit(Main(bot, os.Args[1:]))
}
