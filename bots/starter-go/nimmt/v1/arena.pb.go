// The Nimmt Arena bot protocol, version 1 (package nimmt.v1).
//
// This file is the single source of truth for every language. Python code is generated from it by
// `python protos/generate.py`; any other language runs its own protoc plugin on this file.
//
// Roles: the ARENA (the match runner, holding the rules engine) is the gRPC server; a BOT is a
// client. The arena starts the bot program and tells it where to connect in the environment:
//
//   NIMMT_ENGINE      the server address, e.g. "unix:///run/nimmt/engine.sock"
//   NIMMT_TOKEN_FILE  a file (e.g. "/run/nimmt/token") holding a secret that names the bot's
//                     place in this match; send its content in Hello.token. The secret itself
//                     is never in the environment or on a command line (other local users can
//                     read those); a bot started by hand may be given it as NIMMT_TOKEN.
//   NIMMT_FRAMES      set for a bot the arena started on its own machine: a second socket,
//                     e.g. "unix:///run/nimmt/frames.sock", where the same conversation runs
//                     without gRPC (see "The framed socket" below). A bot may use either.
//
// One connection = one bidirectional stream (Arena.Play) = one match (many games, one after the
// other). The conversation:
//
//   bot   -> Hello                      first message, within 10 s of the bot's start
//   arena -> Welcome                    the match's settings
//   for each game:
//     arena -> GameStart                variant, seat, players, a seed for the bot's own RNG
//     arena -> DecisionRequest ...      bot -> Answer (same request_id), one per request
//     arena -> Notice                   (only if an answer was late, illegal or unreadable)
//     arena -> GameEnd                  scores, ranks, faults
//   arena -> MatchEnd, then the arena closes the stream with status OK.
//
// The framed socket (NIMMT_FRAMES): on one machine, gRPC's HTTP/2 framing, flow control and
// threads cost more CPU than a decision, so the arena also offers the conversation above as
// plain length-prefixed messages on a Unix stream socket. Each message is a frame: its length
// in bytes as a varint, then the serialized message (protobuf's "delimited" format:
// writeDelimitedTo/parseDelimitedFrom in Java, protodelim in Go,
// SerializeDelimitedToZeroCopyStream in C++). The bot writes BotMessage frames (Hello first),
// the arena EngineMessage frames, in the order above. The arena ends the conversation with an
// empty frame (length 0) followed by one frame of UTF-8 text, the status: a status name below,
// a space and the reason (e.g. "OK", "UNAUTHENTICATED missing or unknown token ..."), and then
// closes the socket. A frame over 64 KiB from a bot breaks its connection. The first valid
// Hello on either socket takes the bot's place; the other socket then refuses it. Every starter
// kit (Python, C++, Go, Java, JavaScript) uses the framed socket whenever NIMMT_FRAMES is set.
// A read may hold several frames, or part of one: the arena sends what asks for no answer
// (Welcome, GameStart, GameEnd, Notice, MatchEnd) together with the next DecisionRequest, or
// 20 ms later if none follows, so that at a game's boundary the bot is woken once, not three
// times. The order is always the one above.
//
// What a bot may remember: anything it learns within its process and connection (its
// opponents' habits, its own statistics), from game to game. Nothing else lasts: its /tmp is
// its own and goes with its process, so nothing carries over to another process or match. A
// match with duplicate deals (each deal played once per seat rotation, as the site's ladders,
// duplicate tournaments and version tests play) starts the bot afresh for each rotation: one
// process, with a connection of its own, plays one rotation of every deal, so no bot is ever
// dealt a deal twice (Welcome.games is then the games of that process, and GameStart.game_index
// skips the other rotations' games). A bot that plays from its owner's machine or is started by
// hand could remember deals across processes: it never plays a duplicate match.
//
// Staying for another match: starting a process costs the arena more than a short match's
// decisions, so a bot whose Hello sets `stays` may be kept for a later match of the same bot
// version (never another version or owner) when MatchEnd.stay says so: it reconnects with the
// new token (see MatchEnd.stay) and plays that match as if it had just started. Its memory
// carries over with the process, and that is allowed: what it learnt of its opponents' habits,
// its tables, its caches. What the arena guarantees: a kept process is never dealt a deal it
// was dealt before (in a duplicate match each seat rotation is still a process of its own, and
// a process is kept only for matches whose deals it has not seen); a process that had a fault,
// crashed, ran out of memory or was dropped is never kept; between matches it is frozen (it
// gets no CPU time at all, whatever it started) and it may be ended at any time instead of
// being given another match (an idle limit, a bounded number of kept processes, a worker that
// stops). A bot cannot tell whether its next match will come: it must not rely on one.
//
// At most one DecisionRequest is open per connection at a time, except that a request the bot
// answered too late is already closed (its late answer is ignored with a LATE notice).
//
// Rows, spaces, seats and turns are 0-based; tiles are their printed numbers (1..100, card game
// 1..104). Every decision the rules know (docs/RULES.md section 6) has a message below, and the
// bot's view (Observation) carries exactly what RULES.md says a player may know.
//
// Timing (measured by the arena, from when it sends a request until it reads the answer): each
// decision has an allowance (default 1000 ms); time beyond it is drawn from the seat's per-game
// time bank (default 10000 ms). DecisionRequest.deadline_ms = allowance + bank left. An answer
// later than that is a timeout fault; the bank is then empty for the rest of the game.
//
// Faults (timeout, crash, illegal, protocol) never stop a match: the arena plays a default
// decision for the seat (lowest tile; first legal luck space; no action card; the row with the
// fewest bullheads), records the fault in the game's replay, and ranks the seat last in that
// game. After `Welcome.max_faults` faults in a match (default 3), or at once if the bot crashes
// or disconnects, the bot is dropped: the arena ends its stream with status ABORTED and plays
// default decisions for it in every later game. A bot that sends 64 messages answering no
// request between two of the arena's decisions is flooding it: the arena stops reading its
// stream and drops it, whatever `max_faults` says.
//
// Errors that end a connection are gRPC status codes with a message saying what to fix:
//   INVALID_ARGUMENT     the first message was not a Hello, or no message could be read
//   FAILED_PRECONDITION  Hello.protocol_version is not one this arena speaks
//   UNAUTHENTICATED      Hello.token is missing or unknown
//   ALREADY_EXISTS       another connection already said hello with this token
//   DEADLINE_EXCEEDED    no Hello within the start timeout
//   ABORTED              the bot was dropped from the match (too many faults)
//   OK                   the match is over (after MatchEnd)

// Code generated by protoc-gen-go. DO NOT EDIT.
// versions:
// 	protoc-gen-go v1.28.1
// 	protoc        v3.21.12
// source: nimmt/v1/arena.proto

package nimmtv1

import (
	protoreflect "google.golang.org/protobuf/reflect/protoreflect"
	protoimpl "google.golang.org/protobuf/runtime/protoimpl"
	reflect "reflect"
	sync "sync"
)

const (
	// Verify that this generated code is sufficiently up-to-date.
	_ = protoimpl.EnforceVersion(20 - protoimpl.MinVersion)
	// Verify that runtime/protoimpl is sufficiently up-to-date.
	_ = protoimpl.EnforceVersion(protoimpl.MaxVersion - 20)
)

// What a decision is about.
type DecisionKind int32

const (
	DecisionKind_DECISION_KIND_UNSPECIFIED DecisionKind = 0
	// Choose a tile (all seats at once).
	DecisionKind_DECISION_KIND_TILE DecisionKind = 1
	// Place a drawn luck card.
	DecisionKind_DECISION_KIND_LUCK DecisionKind = 2
	// Play an action card on the own tile, or none.
	DecisionKind_DECISION_KIND_ACTION DecisionKind = 3
	// Card game: choose a row to take.
	DecisionKind_DECISION_KIND_TAKE_ROW DecisionKind = 4
)

// Enum value maps for DecisionKind.
var (
	DecisionKind_name = map[int32]string{
		0: "DECISION_KIND_UNSPECIFIED",
		1: "DECISION_KIND_TILE",
		2: "DECISION_KIND_LUCK",
		3: "DECISION_KIND_ACTION",
		4: "DECISION_KIND_TAKE_ROW",
	}
	DecisionKind_value = map[string]int32{
		"DECISION_KIND_UNSPECIFIED": 0,
		"DECISION_KIND_TILE":        1,
		"DECISION_KIND_LUCK":        2,
		"DECISION_KIND_ACTION":      3,
		"DECISION_KIND_TAKE_ROW":    4,
	}
)

func (x DecisionKind) Enum() *DecisionKind {
	p := new(DecisionKind)
	*p = x
	return p
}

func (x DecisionKind) String() string {
	return protoimpl.X.EnumStringOf(x.Descriptor(), protoreflect.EnumNumber(x))
}

func (DecisionKind) Descriptor() protoreflect.EnumDescriptor {
	return file_nimmt_v1_arena_proto_enumTypes[0].Descriptor()
}

func (DecisionKind) Type() protoreflect.EnumType {
	return &file_nimmt_v1_arena_proto_enumTypes[0]
}

func (x DecisionKind) Number() protoreflect.EnumNumber {
	return protoreflect.EnumNumber(x)
}

// Deprecated: Use DecisionKind.Descriptor instead.
func (DecisionKind) EnumDescriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{0}
}

// Luck cards (RULES.md 3.4).
type LuckCard int32

const (
	// No card (an empty marker).
	LuckCard_LUCK_CARD_NONE LuckCard = 0
	// +5 space: the space gives +5 points instead of its printed effect.
	LuckCard_LUCK_CARD_PLUS5 LuckCard = 1
	// +10 final: whoever fills this final space gains 10 on top.
	LuckCard_LUCK_CARD_FINAL10 LuckCard = 2
)

// Enum value maps for LuckCard.
var (
	LuckCard_name = map[int32]string{
		0: "LUCK_CARD_NONE",
		1: "LUCK_CARD_PLUS5",
		2: "LUCK_CARD_FINAL10",
	}
	LuckCard_value = map[string]int32{
		"LUCK_CARD_NONE":    0,
		"LUCK_CARD_PLUS5":   1,
		"LUCK_CARD_FINAL10": 2,
	}
)

func (x LuckCard) Enum() *LuckCard {
	p := new(LuckCard)
	*p = x
	return p
}

func (x LuckCard) String() string {
	return protoimpl.X.EnumStringOf(x.Descriptor(), protoreflect.EnumNumber(x))
}

func (LuckCard) Descriptor() protoreflect.EnumDescriptor {
	return file_nimmt_v1_arena_proto_enumTypes[1].Descriptor()
}

func (LuckCard) Type() protoreflect.EnumType {
	return &file_nimmt_v1_arena_proto_enumTypes[1]
}

func (x LuckCard) Number() protoreflect.EnumNumber {
	return protoreflect.EnumNumber(x)
}

// Deprecated: Use LuckCard.Descriptor instead.
func (LuckCard) EnumDescriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{1}
}

// Action cards (RULES.md 5).
type ActionCard int32

const (
	// No card (declines, in PlayAction).
	ActionCard_ACTION_CARD_NONE      ActionCard = 0
	ActionCard_ACTION_CARD_STOP      ActionCard = 1
	ActionCard_ACTION_CARD_SWAP      ActionCard = 2
	ActionCard_ACTION_CARD_SKIP      ActionCard = 3
	ActionCard_ACTION_CARD_FRONT     ActionCard = 4
	ActionCard_ACTION_CARD_ASCENDING ActionCard = 5
	ActionCard_ACTION_CARD_ANYWHERE  ActionCard = 6
	ActionCard_ACTION_CARD_ANOTHER   ActionCard = 7
	ActionCard_ACTION_CARD_PLUS5     ActionCard = 8
)

// Enum value maps for ActionCard.
var (
	ActionCard_name = map[int32]string{
		0: "ACTION_CARD_NONE",
		1: "ACTION_CARD_STOP",
		2: "ACTION_CARD_SWAP",
		3: "ACTION_CARD_SKIP",
		4: "ACTION_CARD_FRONT",
		5: "ACTION_CARD_ASCENDING",
		6: "ACTION_CARD_ANYWHERE",
		7: "ACTION_CARD_ANOTHER",
		8: "ACTION_CARD_PLUS5",
	}
	ActionCard_value = map[string]int32{
		"ACTION_CARD_NONE":      0,
		"ACTION_CARD_STOP":      1,
		"ACTION_CARD_SWAP":      2,
		"ACTION_CARD_SKIP":      3,
		"ACTION_CARD_FRONT":     4,
		"ACTION_CARD_ASCENDING": 5,
		"ACTION_CARD_ANYWHERE":  6,
		"ACTION_CARD_ANOTHER":   7,
		"ACTION_CARD_PLUS5":     8,
	}
)

func (x ActionCard) Enum() *ActionCard {
	p := new(ActionCard)
	*p = x
	return p
}

func (x ActionCard) String() string {
	return protoimpl.X.EnumStringOf(x.Descriptor(), protoreflect.EnumNumber(x))
}

func (ActionCard) Descriptor() protoreflect.EnumDescriptor {
	return file_nimmt_v1_arena_proto_enumTypes[2].Descriptor()
}

func (ActionCard) Type() protoreflect.EnumType {
	return &file_nimmt_v1_arena_proto_enumTypes[2]
}

func (x ActionCard) Number() protoreflect.EnumNumber {
	return protoreflect.EnumNumber(x)
}

// Deprecated: Use ActionCard.Descriptor instead.
func (ActionCard) EnumDescriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{2}
}

// Faults against the arena's rules (the replay's result.faults[].kind).
type FaultKind int32

const (
	FaultKind_FAULT_KIND_UNSPECIFIED FaultKind = 0
	// No answer before the deadline.
	FaultKind_FAULT_KIND_TIMEOUT FaultKind = 1
	// The bot's process exited, or its stream closed, before the match ended.
	FaultKind_FAULT_KIND_CRASH FaultKind = 2
	// A well-formed answer that the rules forbid (e.g. a tile not in hand).
	FaultKind_FAULT_KIND_ILLEGAL FaultKind = 3
	// An unreadable message, an answer without a decision or of the wrong kind, or an answer to a
	// request that was never asked.
	FaultKind_FAULT_KIND_PROTOCOL FaultKind = 4
)

// Enum value maps for FaultKind.
var (
	FaultKind_name = map[int32]string{
		0: "FAULT_KIND_UNSPECIFIED",
		1: "FAULT_KIND_TIMEOUT",
		2: "FAULT_KIND_CRASH",
		3: "FAULT_KIND_ILLEGAL",
		4: "FAULT_KIND_PROTOCOL",
	}
	FaultKind_value = map[string]int32{
		"FAULT_KIND_UNSPECIFIED": 0,
		"FAULT_KIND_TIMEOUT":     1,
		"FAULT_KIND_CRASH":       2,
		"FAULT_KIND_ILLEGAL":     3,
		"FAULT_KIND_PROTOCOL":    4,
	}
)

func (x FaultKind) Enum() *FaultKind {
	p := new(FaultKind)
	*p = x
	return p
}

func (x FaultKind) String() string {
	return protoimpl.X.EnumStringOf(x.Descriptor(), protoreflect.EnumNumber(x))
}

func (FaultKind) Descriptor() protoreflect.EnumDescriptor {
	return file_nimmt_v1_arena_proto_enumTypes[3].Descriptor()
}

func (FaultKind) Type() protoreflect.EnumType {
	return &file_nimmt_v1_arena_proto_enumTypes[3]
}

func (x FaultKind) Number() protoreflect.EnumNumber {
	return protoreflect.EnumNumber(x)
}

// Deprecated: Use FaultKind.Descriptor instead.
func (FaultKind) EnumDescriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{3}
}

// What a Notice is about.
type NoticeKind int32

const (
	NoticeKind_NOTICE_KIND_UNSPECIFIED NoticeKind = 0
	// The answer did not arrive in time; a default decision was played (fault).
	NoticeKind_NOTICE_KIND_TIMEOUT NoticeKind = 1
	// The answer broke a rule; a default decision was played (fault).
	NoticeKind_NOTICE_KIND_ILLEGAL NoticeKind = 2
	// A message could not be read or did not answer an open request (fault).
	NoticeKind_NOTICE_KIND_PROTOCOL NoticeKind = 3
	// An answer to a request that had already timed out; ignored (no extra fault).
	NoticeKind_NOTICE_KIND_LATE NoticeKind = 4
)

// Enum value maps for NoticeKind.
var (
	NoticeKind_name = map[int32]string{
		0: "NOTICE_KIND_UNSPECIFIED",
		1: "NOTICE_KIND_TIMEOUT",
		2: "NOTICE_KIND_ILLEGAL",
		3: "NOTICE_KIND_PROTOCOL",
		4: "NOTICE_KIND_LATE",
	}
	NoticeKind_value = map[string]int32{
		"NOTICE_KIND_UNSPECIFIED": 0,
		"NOTICE_KIND_TIMEOUT":     1,
		"NOTICE_KIND_ILLEGAL":     2,
		"NOTICE_KIND_PROTOCOL":    3,
		"NOTICE_KIND_LATE":        4,
	}
)

func (x NoticeKind) Enum() *NoticeKind {
	p := new(NoticeKind)
	*p = x
	return p
}

func (x NoticeKind) String() string {
	return protoimpl.X.EnumStringOf(x.Descriptor(), protoreflect.EnumNumber(x))
}

func (NoticeKind) Descriptor() protoreflect.EnumDescriptor {
	return file_nimmt_v1_arena_proto_enumTypes[4].Descriptor()
}

func (NoticeKind) Type() protoreflect.EnumType {
	return &file_nimmt_v1_arena_proto_enumTypes[4]
}

func (x NoticeKind) Number() protoreflect.EnumNumber {
	return protoreflect.EnumNumber(x)
}

// Deprecated: Use NoticeKind.Descriptor instead.
func (NoticeKind) EnumDescriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{4}
}

// Everything a bot sends. Exactly one field of `body` must be set.
type BotMessage struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// Types that are assignable to Body:
	//
	//	*BotMessage_Hello
	//	*BotMessage_Answer
	Body isBotMessage_Body `protobuf_oneof:"body"`
}

func (x *BotMessage) Reset() {
	*x = BotMessage{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[0]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *BotMessage) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*BotMessage) ProtoMessage() {}

func (x *BotMessage) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[0]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use BotMessage.ProtoReflect.Descriptor instead.
func (*BotMessage) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{0}
}

func (m *BotMessage) GetBody() isBotMessage_Body {
	if m != nil {
		return m.Body
	}
	return nil
}

func (x *BotMessage) GetHello() *Hello {
	if x, ok := x.GetBody().(*BotMessage_Hello); ok {
		return x.Hello
	}
	return nil
}

func (x *BotMessage) GetAnswer() *Answer {
	if x, ok := x.GetBody().(*BotMessage_Answer); ok {
		return x.Answer
	}
	return nil
}

type isBotMessage_Body interface {
	isBotMessage_Body()
}

type BotMessage_Hello struct {
	// The first message of the stream, and only the first.
	Hello *Hello `protobuf:"bytes,1,opt,name=hello,proto3,oneof"`
}

type BotMessage_Answer struct {
	// An answer to an open DecisionRequest.
	Answer *Answer `protobuf:"bytes,2,opt,name=answer,proto3,oneof"`
}

func (*BotMessage_Hello) isBotMessage_Body() {}

func (*BotMessage_Answer) isBotMessage_Body() {}

// Who is connecting.
type Hello struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// The protocol version the bot speaks; this file describes version 1 (PROTOCOL_VERSION).
	ProtocolVersion uint32 `protobuf:"varint,1,opt,name=protocol_version,json=protocolVersion,proto3" json:"protocol_version,omitempty"`
	// The bot's own name, for its log and for humans (the arena names seats from the manifest).
	BotName string `protobuf:"bytes,2,opt,name=bot_name,json=botName,proto3" json:"bot_name,omitempty"`
	// The content of the file named by the NIMMT_TOKEN_FILE environment variable (or, for a bot
	// started by hand, the value of NIMMT_TOKEN). Empty only when the arena was started without
	// tokens (local debugging).
	Token string `protobuf:"bytes,3,opt,name=token,proto3" json:"token,omitempty"`
	// Optional: the bot kit and its version, e.g. "nimmt-botkit-python/1"; shown in logs.
	Kit string `protobuf:"bytes,4,opt,name=kit,proto3" json:"kit,omitempty"`
	// Optional: true if the bot stays for another match when MatchEnd.stay asks it to (it then
	// reconnects with the new token, see MatchEnd.stay). A bot that leaves it false is ended
	// after every match, as before.
	Stays bool `protobuf:"varint,5,opt,name=stays,proto3" json:"stays,omitempty"`
}

func (x *Hello) Reset() {
	*x = Hello{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[1]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *Hello) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Hello) ProtoMessage() {}

func (x *Hello) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[1]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Hello.ProtoReflect.Descriptor instead.
func (*Hello) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{1}
}

func (x *Hello) GetProtocolVersion() uint32 {
	if x != nil {
		return x.ProtocolVersion
	}
	return 0
}

func (x *Hello) GetBotName() string {
	if x != nil {
		return x.BotName
	}
	return ""
}

func (x *Hello) GetToken() string {
	if x != nil {
		return x.Token
	}
	return ""
}

func (x *Hello) GetKit() string {
	if x != nil {
		return x.Kit
	}
	return ""
}

func (x *Hello) GetStays() bool {
	if x != nil {
		return x.Stays
	}
	return false
}

// The bot's decision for one request.
type Answer struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// DecisionRequest.request_id of the request being answered.
	RequestId uint64 `protobuf:"varint,1,opt,name=request_id,json=requestId,proto3" json:"request_id,omitempty"`
	// The decision; its kind must be the request's kind (a tile for DECISION_KIND_TILE, ...).
	// The easiest correct answer is one of `DecisionRequest.view.legal`, copied unchanged.
	Decision *Decision `protobuf:"bytes,2,opt,name=decision,proto3" json:"decision,omitempty"`
	// Optional: a note about this decision for the bot's owner (what it was thinking), e.g.
	// "safe row 2; 55 looks risky". The arena keeps it with the game, apart from the public
	// replay: only the owner of the bot sees it, in the viewer at this decision. At most 1000
	// bytes of UTF-8 are kept; a longer note is cut at a character boundary (never a fault).
	// Kits cut it before sending, as a message over 64 KiB is unreadable. A note on an answer
	// in time is kept even if its decision was illegal (it helps to find why); a late answer's
	// note is dropped with the answer.
	Note string `protobuf:"bytes,3,opt,name=note,proto3" json:"note,omitempty"`
	// Optional: one number per legal option, in the order of `DecisionRequest.view.legal`, e.g.
	// the bot's own estimate of each option's final score. Shown to the owner beside the note.
	// At most 128 values are kept (and no more than there are options); a value that is not
	// finite (NaN, infinity) is kept as "no value". Never a fault.
	OptionValues []float64 `protobuf:"fixed64,4,rep,packed,name=option_values,json=optionValues,proto3" json:"option_values,omitempty"`
}

func (x *Answer) Reset() {
	*x = Answer{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[2]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *Answer) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Answer) ProtoMessage() {}

func (x *Answer) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[2]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Answer.ProtoReflect.Descriptor instead.
func (*Answer) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{2}
}

func (x *Answer) GetRequestId() uint64 {
	if x != nil {
		return x.RequestId
	}
	return 0
}

func (x *Answer) GetDecision() *Decision {
	if x != nil {
		return x.Decision
	}
	return nil
}

func (x *Answer) GetNote() string {
	if x != nil {
		return x.Note
	}
	return ""
}

func (x *Answer) GetOptionValues() []float64 {
	if x != nil {
		return x.OptionValues
	}
	return nil
}

// Everything the arena sends. Exactly one field of `body` is set.
type EngineMessage struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// Types that are assignable to Body:
	//
	//	*EngineMessage_Welcome
	//	*EngineMessage_GameStart
	//	*EngineMessage_Request
	//	*EngineMessage_GameEnd
	//	*EngineMessage_Notice
	//	*EngineMessage_MatchEnd
	Body isEngineMessage_Body `protobuf_oneof:"body"`
}

func (x *EngineMessage) Reset() {
	*x = EngineMessage{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[3]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *EngineMessage) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*EngineMessage) ProtoMessage() {}

func (x *EngineMessage) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[3]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use EngineMessage.ProtoReflect.Descriptor instead.
func (*EngineMessage) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{3}
}

func (m *EngineMessage) GetBody() isEngineMessage_Body {
	if m != nil {
		return m.Body
	}
	return nil
}

func (x *EngineMessage) GetWelcome() *Welcome {
	if x, ok := x.GetBody().(*EngineMessage_Welcome); ok {
		return x.Welcome
	}
	return nil
}

func (x *EngineMessage) GetGameStart() *GameStart {
	if x, ok := x.GetBody().(*EngineMessage_GameStart); ok {
		return x.GameStart
	}
	return nil
}

func (x *EngineMessage) GetRequest() *DecisionRequest {
	if x, ok := x.GetBody().(*EngineMessage_Request); ok {
		return x.Request
	}
	return nil
}

func (x *EngineMessage) GetGameEnd() *GameEnd {
	if x, ok := x.GetBody().(*EngineMessage_GameEnd); ok {
		return x.GameEnd
	}
	return nil
}

func (x *EngineMessage) GetNotice() *Notice {
	if x, ok := x.GetBody().(*EngineMessage_Notice); ok {
		return x.Notice
	}
	return nil
}

func (x *EngineMessage) GetMatchEnd() *MatchEnd {
	if x, ok := x.GetBody().(*EngineMessage_MatchEnd); ok {
		return x.MatchEnd
	}
	return nil
}

type isEngineMessage_Body interface {
	isEngineMessage_Body()
}

type EngineMessage_Welcome struct {
	Welcome *Welcome `protobuf:"bytes,1,opt,name=welcome,proto3,oneof"`
}

type EngineMessage_GameStart struct {
	GameStart *GameStart `protobuf:"bytes,2,opt,name=game_start,json=gameStart,proto3,oneof"`
}

type EngineMessage_Request struct {
	Request *DecisionRequest `protobuf:"bytes,3,opt,name=request,proto3,oneof"`
}

type EngineMessage_GameEnd struct {
	GameEnd *GameEnd `protobuf:"bytes,4,opt,name=game_end,json=gameEnd,proto3,oneof"`
}

type EngineMessage_Notice struct {
	Notice *Notice `protobuf:"bytes,5,opt,name=notice,proto3,oneof"`
}

type EngineMessage_MatchEnd struct {
	MatchEnd *MatchEnd `protobuf:"bytes,6,opt,name=match_end,json=matchEnd,proto3,oneof"`
}

func (*EngineMessage_Welcome) isEngineMessage_Body() {}

func (*EngineMessage_GameStart) isEngineMessage_Body() {}

func (*EngineMessage_Request) isEngineMessage_Body() {}

func (*EngineMessage_GameEnd) isEngineMessage_Body() {}

func (*EngineMessage_Notice) isEngineMessage_Body() {}

func (*EngineMessage_MatchEnd) isEngineMessage_Body() {}

// The answer to Hello: the bot is in, and these are the rules of the match.
type Welcome struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// The protocol version the arena speaks (equal to Hello.protocol_version).
	ProtocolVersion uint32 `protobuf:"varint,1,opt,name=protocol_version,json=protocolVersion,proto3" json:"protocol_version,omitempty"`
	// An id for this match, unique enough to name log files.
	MatchId string `protobuf:"bytes,2,opt,name=match_id,json=matchId,proto3" json:"match_id,omitempty"`
	// The name the arena knows this bot by (from its manifest; "name#2" for a second copy).
	BotName string `protobuf:"bytes,3,opt,name=bot_name,json=botName,proto3" json:"bot_name,omitempty"`
	// How many games this connection plays: the match's, or in a duplicate match its seat
	// rotation's (the match's games / players; the bot is started afresh for each rotation).
	Games uint32 `protobuf:"varint,4,opt,name=games,proto3" json:"games,omitempty"`
	// Per-decision allowance, in milliseconds.
	DecisionMs uint32 `protobuf:"varint,5,opt,name=decision_ms,json=decisionMs,proto3" json:"decision_ms,omitempty"`
	// Time bank per game, in milliseconds.
	BankMs uint32 `protobuf:"varint,6,opt,name=bank_ms,json=bankMs,proto3" json:"bank_ms,omitempty"`
	// Faults in this match after which the bot is dropped (a crash or disconnect drops it at once).
	MaxFaults uint32 `protobuf:"varint,7,opt,name=max_faults,json=maxFaults,proto3" json:"max_faults,omitempty"`
}

func (x *Welcome) Reset() {
	*x = Welcome{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[4]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *Welcome) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Welcome) ProtoMessage() {}

func (x *Welcome) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[4]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Welcome.ProtoReflect.Descriptor instead.
func (*Welcome) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{4}
}

func (x *Welcome) GetProtocolVersion() uint32 {
	if x != nil {
		return x.ProtocolVersion
	}
	return 0
}

func (x *Welcome) GetMatchId() string {
	if x != nil {
		return x.MatchId
	}
	return ""
}

func (x *Welcome) GetBotName() string {
	if x != nil {
		return x.BotName
	}
	return ""
}

func (x *Welcome) GetGames() uint32 {
	if x != nil {
		return x.Games
	}
	return 0
}

func (x *Welcome) GetDecisionMs() uint32 {
	if x != nil {
		return x.DecisionMs
	}
	return 0
}

func (x *Welcome) GetBankMs() uint32 {
	if x != nil {
		return x.BankMs
	}
	return 0
}

func (x *Welcome) GetMaxFaults() uint32 {
	if x != nil {
		return x.MaxFaults
	}
	return 0
}

// A game begins. Decision requests for it follow.
type GameStart struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// Identifies the game in every later message (e.g. "m3f2a-00007").
	GameId string `protobuf:"bytes,1,opt,name=game_id,json=gameId,proto3" json:"game_id,omitempty"`
	// 0-based index of the game within the match (in a duplicate match a process plays every
	// players-th game: its seat rotation of each deal).
	GameIndex uint32 `protobuf:"varint,2,opt,name=game_index,json=gameIndex,proto3" json:"game_index,omitempty"`
	// "basic", "basic+luck", "pro", "pro+luck" or "classic" (docs/RULES.md).
	Variant string `protobuf:"bytes,3,opt,name=variant,proto3" json:"variant,omitempty"`
	// Number of players in the game.
	Players uint32 `protobuf:"varint,4,opt,name=players,proto3" json:"players,omitempty"`
	// This bot's seat, 0-based. Seat 0 is dealt first; seats rotate from game to game.
	Seat uint32 `protobuf:"varint,5,opt,name=seat,proto3" json:"seat,omitempty"`
	// A seed for the bot's own random generator. The same match seed gives the same value, so a
	// bot that draws its randomness only from it plays the same game again.
	Seed uint64 `protobuf:"varint,6,opt,name=seed,proto3" json:"seed,omitempty"`
	// Every seat's name, in seat order.
	PlayerNames []string `protobuf:"bytes,7,rep,name=player_names,json=playerNames,proto3" json:"player_names,omitempty"`
	// The board: one string per row, top first, one character per space (".+-FDAC", RULES.md 1);
	// empty for the card game.
	Layout []string `protobuf:"bytes,8,rep,name=layout,proto3" json:"layout,omitempty"`
	// The seat's time bank for this game, in milliseconds.
	BankMs uint32 `protobuf:"varint,9,opt,name=bank_ms,json=bankMs,proto3" json:"bank_ms,omitempty"`
}

func (x *GameStart) Reset() {
	*x = GameStart{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[5]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *GameStart) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*GameStart) ProtoMessage() {}

func (x *GameStart) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[5]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use GameStart.ProtoReflect.Descriptor instead.
func (*GameStart) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{5}
}

func (x *GameStart) GetGameId() string {
	if x != nil {
		return x.GameId
	}
	return ""
}

func (x *GameStart) GetGameIndex() uint32 {
	if x != nil {
		return x.GameIndex
	}
	return 0
}

func (x *GameStart) GetVariant() string {
	if x != nil {
		return x.Variant
	}
	return ""
}

func (x *GameStart) GetPlayers() uint32 {
	if x != nil {
		return x.Players
	}
	return 0
}

func (x *GameStart) GetSeat() uint32 {
	if x != nil {
		return x.Seat
	}
	return 0
}

func (x *GameStart) GetSeed() uint64 {
	if x != nil {
		return x.Seed
	}
	return 0
}

func (x *GameStart) GetPlayerNames() []string {
	if x != nil {
		return x.PlayerNames
	}
	return nil
}

func (x *GameStart) GetLayout() []string {
	if x != nil {
		return x.Layout
	}
	return nil
}

func (x *GameStart) GetBankMs() uint32 {
	if x != nil {
		return x.BankMs
	}
	return 0
}

// The arena asks this seat for a decision.
type DecisionRequest struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// Echo this in Answer.request_id. Increases through the match; never reused.
	RequestId uint64 `protobuf:"varint,1,opt,name=request_id,json=requestId,proto3" json:"request_id,omitempty"`
	// The game this request belongs to (GameStart.game_id).
	GameId string `protobuf:"bytes,2,opt,name=game_id,json=gameId,proto3" json:"game_id,omitempty"`
	// The seat asked (also view.seat).
	Seat uint32 `protobuf:"varint,3,opt,name=seat,proto3" json:"seat,omitempty"`
	// What is asked (also view.pending.kind): choose a tile, place a luck card, play an action
	// card, or take a row (card game).
	Kind DecisionKind `protobuf:"varint,4,opt,name=kind,proto3,enum=nimmt.v1.DecisionKind" json:"kind,omitempty"`
	// Everything this seat may know, including the legal options (view.legal): answer with one.
	View *Observation `protobuf:"bytes,5,opt,name=view,proto3" json:"view,omitempty"`
	// Answer within this many milliseconds of receiving the request: allowance + bank left.
	DeadlineMs uint32 `protobuf:"varint,6,opt,name=deadline_ms,json=deadlineMs,proto3" json:"deadline_ms,omitempty"`
	// What is left of the seat's time bank for this game, in milliseconds.
	BankMs uint32 `protobuf:"varint,7,opt,name=bank_ms,json=bankMs,proto3" json:"bank_ms,omitempty"`
	// The per-decision allowance, in milliseconds (time within it does not touch the bank).
	AllowanceMs uint32 `protobuf:"varint,8,opt,name=allowance_ms,json=allowanceMs,proto3" json:"allowance_ms,omitempty"`
}

func (x *DecisionRequest) Reset() {
	*x = DecisionRequest{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[6]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *DecisionRequest) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*DecisionRequest) ProtoMessage() {}

func (x *DecisionRequest) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[6]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use DecisionRequest.ProtoReflect.Descriptor instead.
func (*DecisionRequest) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{6}
}

func (x *DecisionRequest) GetRequestId() uint64 {
	if x != nil {
		return x.RequestId
	}
	return 0
}

func (x *DecisionRequest) GetGameId() string {
	if x != nil {
		return x.GameId
	}
	return ""
}

func (x *DecisionRequest) GetSeat() uint32 {
	if x != nil {
		return x.Seat
	}
	return 0
}

func (x *DecisionRequest) GetKind() DecisionKind {
	if x != nil {
		return x.Kind
	}
	return DecisionKind_DECISION_KIND_UNSPECIFIED
}

func (x *DecisionRequest) GetView() *Observation {
	if x != nil {
		return x.View
	}
	return nil
}

func (x *DecisionRequest) GetDeadlineMs() uint32 {
	if x != nil {
		return x.DeadlineMs
	}
	return 0
}

func (x *DecisionRequest) GetBankMs() uint32 {
	if x != nil {
		return x.BankMs
	}
	return 0
}

func (x *DecisionRequest) GetAllowanceMs() uint32 {
	if x != nil {
		return x.AllowanceMs
	}
	return 0
}

// A game is over.
type GameEnd struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// GameStart.game_id of the game that ended.
	GameId string `protobuf:"bytes,1,opt,name=game_id,json=gameId,proto3" json:"game_id,omitempty"`
	// This seat's view of the final position (no pending decision, no legal options).
	View *Observation `protobuf:"bytes,2,opt,name=view,proto3" json:"view,omitempty"`
	// Final scores in seat order, after any end-of-game hand penalty. Board game: higher is
	// better; card game ("classic"): penalty points, lower is better.
	Scores []int32 `protobuf:"zigzag32,3,rep,packed,name=scores,proto3" json:"scores,omitempty"`
	// Final ranks in seat order: 1 = best, ties share a rank (1, 1, 3); a seat with a fault ranks
	// below every seat without one.
	Ranks []uint32 `protobuf:"varint,4,rep,packed,name=ranks,proto3" json:"ranks,omitempty"`
	// Every fault of any seat in this game.
	Faults []*Fault `protobuf:"bytes,5,rep,name=faults,proto3" json:"faults,omitempty"`
}

func (x *GameEnd) Reset() {
	*x = GameEnd{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[7]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *GameEnd) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*GameEnd) ProtoMessage() {}

func (x *GameEnd) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[7]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use GameEnd.ProtoReflect.Descriptor instead.
func (*GameEnd) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{7}
}

func (x *GameEnd) GetGameId() string {
	if x != nil {
		return x.GameId
	}
	return ""
}

func (x *GameEnd) GetView() *Observation {
	if x != nil {
		return x.View
	}
	return nil
}

func (x *GameEnd) GetScores() []int32 {
	if x != nil {
		return x.Scores
	}
	return nil
}

func (x *GameEnd) GetRanks() []uint32 {
	if x != nil {
		return x.Ranks
	}
	return nil
}

func (x *GameEnd) GetFaults() []*Fault {
	if x != nil {
		return x.Faults
	}
	return nil
}

// A fault of a seat against the arena's rules, as recorded in the replay (result.faults).
type Fault struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// The faulty seat.
	Seat uint32 `protobuf:"varint,1,opt,name=seat,proto3" json:"seat,omitempty"`
	// What went wrong.
	Kind FaultKind `protobuf:"varint,2,opt,name=kind,proto3,enum=nimmt.v1.FaultKind" json:"kind,omitempty"`
	// 0-based index of the turn in which it happened.
	Turn uint32 `protobuf:"varint,3,opt,name=turn,proto3" json:"turn,omitempty"`
	// A sentence saying what happened, e.g. "no answer within 1200 ms".
	Detail string `protobuf:"bytes,4,opt,name=detail,proto3" json:"detail,omitempty"`
}

func (x *Fault) Reset() {
	*x = Fault{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[8]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *Fault) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Fault) ProtoMessage() {}

func (x *Fault) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[8]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Fault.ProtoReflect.Descriptor instead.
func (*Fault) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{8}
}

func (x *Fault) GetSeat() uint32 {
	if x != nil {
		return x.Seat
	}
	return 0
}

func (x *Fault) GetKind() FaultKind {
	if x != nil {
		return x.Kind
	}
	return FaultKind_FAULT_KIND_UNSPECIFIED
}

func (x *Fault) GetTurn() uint32 {
	if x != nil {
		return x.Turn
	}
	return 0
}

func (x *Fault) GetDetail() string {
	if x != nil {
		return x.Detail
	}
	return ""
}

// Something about one of this bot's answers that the bot should log. The match goes on.
type Notice struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// What happened.
	Kind NoticeKind `protobuf:"varint,1,opt,name=kind,proto3,enum=nimmt.v1.NoticeKind" json:"kind,omitempty"`
	// The request concerned (0 if none, e.g. an unreadable message).
	RequestId uint64 `protobuf:"varint,2,opt,name=request_id,json=requestId,proto3" json:"request_id,omitempty"`
	// The game concerned (empty if none).
	GameId string `protobuf:"bytes,3,opt,name=game_id,json=gameId,proto3" json:"game_id,omitempty"`
	// What happened and what to fix, in plain words.
	Message string `protobuf:"bytes,4,opt,name=message,proto3" json:"message,omitempty"`
	// The decision the arena played for the seat instead, if it played one.
	Played *Decision `protobuf:"bytes,5,opt,name=played,proto3" json:"played,omitempty"`
	// True if this counts as a fault (see Welcome.max_faults); false for a late answer.
	Fault bool `protobuf:"varint,6,opt,name=fault,proto3" json:"fault,omitempty"`
}

func (x *Notice) Reset() {
	*x = Notice{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[9]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *Notice) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Notice) ProtoMessage() {}

func (x *Notice) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[9]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Notice.ProtoReflect.Descriptor instead.
func (*Notice) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{9}
}

func (x *Notice) GetKind() NoticeKind {
	if x != nil {
		return x.Kind
	}
	return NoticeKind_NOTICE_KIND_UNSPECIFIED
}

func (x *Notice) GetRequestId() uint64 {
	if x != nil {
		return x.RequestId
	}
	return 0
}

func (x *Notice) GetGameId() string {
	if x != nil {
		return x.GameId
	}
	return ""
}

func (x *Notice) GetMessage() string {
	if x != nil {
		return x.Message
	}
	return ""
}

func (x *Notice) GetPlayed() *Decision {
	if x != nil {
		return x.Played
	}
	return nil
}

func (x *Notice) GetFault() bool {
	if x != nil {
		return x.Fault
	}
	return false
}

// The match is over; the arena closes the stream with status OK after this.
type MatchEnd struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// Games played.
	Games uint32 `protobuf:"varint,1,opt,name=games,proto3" json:"games,omitempty"`
	// This bot's faults in the whole match.
	Faults uint32 `protobuf:"varint,2,opt,name=faults,proto3" json:"faults,omitempty"`
	// True only for a bot whose Hello said `stays`: the arena keeps this process for a later
	// match of the same bot version instead of ending it. The bot closes this stream, then waits
	// until the file named by NIMMT_TOKEN_FILE holds another token (the arena rewrites it, and
	// the sockets at NIMMT_ENGINE and NIMMT_FRAMES are listening again, when it hands the process
	// its next match; look every few milliseconds: the process is frozen meanwhile), connects
	// again (to the same socket as before) and sends a new Hello with that token. False: exit. What a bot may keep between matches is in the
	// overview ("Staying for another match").
	Stay bool `protobuf:"varint,3,opt,name=stay,proto3" json:"stay,omitempty"`
}

func (x *MatchEnd) Reset() {
	*x = MatchEnd{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[10]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *MatchEnd) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*MatchEnd) ProtoMessage() {}

func (x *MatchEnd) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[10]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use MatchEnd.ProtoReflect.Descriptor instead.
func (*MatchEnd) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{10}
}

func (x *MatchEnd) GetGames() uint32 {
	if x != nil {
		return x.Games
	}
	return 0
}

func (x *MatchEnd) GetFaults() uint32 {
	if x != nil {
		return x.Faults
	}
	return 0
}

func (x *MatchEnd) GetStay() bool {
	if x != nil {
		return x.Stay
	}
	return false
}

// One seat's view: exactly the fields of arena.engine.observation.Observation (RULES.md 6).
type Observation struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// The variant name (see GameStart.variant).
	Variant string `protobuf:"bytes,1,opt,name=variant,proto3" json:"variant,omitempty"`
	// The seat this view belongs to.
	Seat uint32 `protobuf:"varint,2,opt,name=seat,proto3" json:"seat,omitempty"`
	// Number of players.
	Players uint32 `protobuf:"varint,3,opt,name=players,proto3" json:"players,omitempty"`
	// The current turn, counted from 1 (the last turn once the game is over).
	Turn uint32 `protobuf:"varint,4,opt,name=turn,proto3" json:"turn,omitempty"`
	// 1, or 2 during the second set of a 2-3 player game (RULES.md 4).
	SetNumber uint32 `protobuf:"varint,5,opt,name=set_number,json=setNumber,proto3" json:"set_number,omitempty"`
	// The board layout, one string per row (see GameStart.layout); empty for the card game.
	Layout []string `protobuf:"bytes,6,rep,name=layout,proto3" json:"layout,omitempty"`
	// The board, one entry per row: per space, the tile on it; 0 empty, -1 skipped (Skip card).
	Spaces []*Row `protobuf:"bytes,7,rep,name=spaces,proto3" json:"spaces,omitempty"`
	// Luck cards on the board, one entry per card placed (none in most positions), by row, then
	// space. A marker stays until its row is cleared.
	Markers []*Marker `protobuf:"bytes,8,rep,name=markers,proto3" json:"markers,omitempty"`
	// Rows closed by a Stop card until the end of this turn.
	Stops []uint32 `protobuf:"varint,9,rep,packed,name=stops,proto3" json:"stops,omitempty"`
	// This seat's tiles, ascending (without a tile chosen but not yet revealed; see `chosen`).
	Hand []uint32 `protobuf:"varint,10,rep,packed,name=hand,proto3" json:"hand,omitempty"`
	// This seat's action cards (professional version), in the order drawn.
	ActionCards []ActionCard `protobuf:"varint,11,rep,packed,name=action_cards,json=actionCards,proto3,enum=nimmt.v1.ActionCard" json:"action_cards,omitempty"`
	// The tile this seat has chosen this turn, before the reveal; unset otherwise.
	Chosen *uint32 `protobuf:"varint,12,opt,name=chosen,proto3,oneof" json:"chosen,omitempty"`
	// Every seat's score, in seat order (card game: penalty points so far).
	Scores []int32 `protobuf:"zigzag32,13,rep,packed,name=scores,proto3" json:"scores,omitempty"`
	// Every seat's hand size, counting a chosen tile not revealed yet.
	HandSizes []uint32 `protobuf:"varint,14,rep,packed,name=hand_sizes,json=handSizes,proto3" json:"hand_sizes,omitempty"`
	// How many action cards each seat holds.
	ActionCounts []uint32 `protobuf:"varint,15,rep,packed,name=action_counts,json=actionCounts,proto3" json:"action_counts,omitempty"`
	// The tiles revealed in each turn so far, oldest first; the current turn's entry appears at
	// the reveal.
	History []*TurnPlays `protobuf:"bytes,16,rep,name=history,proto3" json:"history,omitempty"`
	// This turn's other decisions so far (luck cards placed, action cards played, rows taken).
	Choices []*Choice `protobuf:"bytes,17,rep,name=choices,proto3" json:"choices,omitempty"`
	// Revealed tiles not placed yet this turn, in placing order.
	ToPlace []*Placement `protobuf:"bytes,18,rep,name=to_place,json=toPlace,proto3" json:"to_place,omitempty"`
	// Tiles left in the supply (second sets, D spaces).
	SupplySize uint32 `protobuf:"varint,19,opt,name=supply_size,json=supplySize,proto3" json:"supply_size,omitempty"`
	// Luck cards left in the deck.
	LuckDeckSize uint32 `protobuf:"varint,20,opt,name=luck_deck_size,json=luckDeckSize,proto3" json:"luck_deck_size,omitempty"`
	// Action cards left in the deck.
	ActionDeckSize uint32 `protobuf:"varint,21,opt,name=action_deck_size,json=actionDeckSize,proto3" json:"action_deck_size,omitempty"`
	// The decision under way (of any seat); unset once the game is over.
	Pending *Pending `protobuf:"bytes,22,opt,name=pending,proto3" json:"pending,omitempty"`
	// This seat's legal options now, in the engine's order; empty if nothing is asked of it.
	Legal []*Decision `protobuf:"bytes,23,rep,name=legal,proto3" json:"legal,omitempty"`
}

func (x *Observation) Reset() {
	*x = Observation{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[11]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *Observation) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Observation) ProtoMessage() {}

func (x *Observation) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[11]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Observation.ProtoReflect.Descriptor instead.
func (*Observation) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{11}
}

func (x *Observation) GetVariant() string {
	if x != nil {
		return x.Variant
	}
	return ""
}

func (x *Observation) GetSeat() uint32 {
	if x != nil {
		return x.Seat
	}
	return 0
}

func (x *Observation) GetPlayers() uint32 {
	if x != nil {
		return x.Players
	}
	return 0
}

func (x *Observation) GetTurn() uint32 {
	if x != nil {
		return x.Turn
	}
	return 0
}

func (x *Observation) GetSetNumber() uint32 {
	if x != nil {
		return x.SetNumber
	}
	return 0
}

func (x *Observation) GetLayout() []string {
	if x != nil {
		return x.Layout
	}
	return nil
}

func (x *Observation) GetSpaces() []*Row {
	if x != nil {
		return x.Spaces
	}
	return nil
}

func (x *Observation) GetMarkers() []*Marker {
	if x != nil {
		return x.Markers
	}
	return nil
}

func (x *Observation) GetStops() []uint32 {
	if x != nil {
		return x.Stops
	}
	return nil
}

func (x *Observation) GetHand() []uint32 {
	if x != nil {
		return x.Hand
	}
	return nil
}

func (x *Observation) GetActionCards() []ActionCard {
	if x != nil {
		return x.ActionCards
	}
	return nil
}

func (x *Observation) GetChosen() uint32 {
	if x != nil && x.Chosen != nil {
		return *x.Chosen
	}
	return 0
}

func (x *Observation) GetScores() []int32 {
	if x != nil {
		return x.Scores
	}
	return nil
}

func (x *Observation) GetHandSizes() []uint32 {
	if x != nil {
		return x.HandSizes
	}
	return nil
}

func (x *Observation) GetActionCounts() []uint32 {
	if x != nil {
		return x.ActionCounts
	}
	return nil
}

func (x *Observation) GetHistory() []*TurnPlays {
	if x != nil {
		return x.History
	}
	return nil
}

func (x *Observation) GetChoices() []*Choice {
	if x != nil {
		return x.Choices
	}
	return nil
}

func (x *Observation) GetToPlace() []*Placement {
	if x != nil {
		return x.ToPlace
	}
	return nil
}

func (x *Observation) GetSupplySize() uint32 {
	if x != nil {
		return x.SupplySize
	}
	return 0
}

func (x *Observation) GetLuckDeckSize() uint32 {
	if x != nil {
		return x.LuckDeckSize
	}
	return 0
}

func (x *Observation) GetActionDeckSize() uint32 {
	if x != nil {
		return x.ActionDeckSize
	}
	return 0
}

func (x *Observation) GetPending() *Pending {
	if x != nil {
		return x.Pending
	}
	return nil
}

func (x *Observation) GetLegal() []*Decision {
	if x != nil {
		return x.Legal
	}
	return nil
}

// One board row's spaces.
type Row struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// Per space, left to right: the tile on it, 0 if empty, -1 if skipped.
	Tiles []int32 `protobuf:"zigzag32,1,rep,packed,name=tiles,proto3" json:"tiles,omitempty"`
}

func (x *Row) Reset() {
	*x = Row{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[12]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *Row) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Row) ProtoMessage() {}

func (x *Row) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[12]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Row.ProtoReflect.Descriptor instead.
func (*Row) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{12}
}

func (x *Row) GetTiles() []int32 {
	if x != nil {
		return x.Tiles
	}
	return nil
}

// A luck card lying on the board.
type Marker struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// 0-based row.
	Row uint32 `protobuf:"varint,1,opt,name=row,proto3" json:"row,omitempty"`
	// 0-based space within the row.
	Space uint32 `protobuf:"varint,2,opt,name=space,proto3" json:"space,omitempty"`
	// The card.
	Card LuckCard `protobuf:"varint,3,opt,name=card,proto3,enum=nimmt.v1.LuckCard" json:"card,omitempty"`
}

func (x *Marker) Reset() {
	*x = Marker{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[13]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *Marker) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Marker) ProtoMessage() {}

func (x *Marker) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[13]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Marker.ProtoReflect.Descriptor instead.
func (*Marker) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{13}
}

func (x *Marker) GetRow() uint32 {
	if x != nil {
		return x.Row
	}
	return 0
}

func (x *Marker) GetSpace() uint32 {
	if x != nil {
		return x.Space
	}
	return 0
}

func (x *Marker) GetCard() LuckCard {
	if x != nil {
		return x.Card
	}
	return LuckCard_LUCK_CARD_NONE
}

// The tiles revealed in one turn.
type TurnPlays struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// Per seat, in seat order: the tile revealed, or 0 if the seat had none.
	Tiles []uint32 `protobuf:"varint,1,rep,packed,name=tiles,proto3" json:"tiles,omitempty"`
}

func (x *TurnPlays) Reset() {
	*x = TurnPlays{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[14]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *TurnPlays) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*TurnPlays) ProtoMessage() {}

func (x *TurnPlays) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[14]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use TurnPlays.ProtoReflect.Descriptor instead.
func (*TurnPlays) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{14}
}

func (x *TurnPlays) GetTiles() []uint32 {
	if x != nil {
		return x.Tiles
	}
	return nil
}

// A revealed tile waiting to be placed.
type Placement struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// The tile.
	Tile uint32 `protobuf:"varint,1,opt,name=tile,proto3" json:"tile,omitempty"`
	// Its owner.
	Seat uint32 `protobuf:"varint,2,opt,name=seat,proto3" json:"seat,omitempty"`
}

func (x *Placement) Reset() {
	*x = Placement{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[15]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *Placement) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Placement) ProtoMessage() {}

func (x *Placement) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[15]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Placement.ProtoReflect.Descriptor instead.
func (*Placement) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{15}
}

func (x *Placement) GetTile() uint32 {
	if x != nil {
		return x.Tile
	}
	return 0
}

func (x *Placement) GetSeat() uint32 {
	if x != nil {
		return x.Seat
	}
	return 0
}

// A decision already taken this turn (public), as recorded in the replay's turns[i].choices.
type Choice struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// Who took it.
	Seat uint32 `protobuf:"varint,1,opt,name=seat,proto3" json:"seat,omitempty"`
	// DECISION_KIND_LUCK, DECISION_KIND_ACTION or DECISION_KIND_TAKE_ROW.
	Kind DecisionKind `protobuf:"varint,2,opt,name=kind,proto3,enum=nimmt.v1.DecisionKind" json:"kind,omitempty"`
	// Luck: the card placed.
	LuckCard LuckCard `protobuf:"varint,3,opt,name=luck_card,json=luckCard,proto3,enum=nimmt.v1.LuckCard" json:"luck_card,omitempty"`
	// Action: the card played.
	ActionCard ActionCard `protobuf:"varint,4,opt,name=action_card,json=actionCard,proto3,enum=nimmt.v1.ActionCard" json:"action_card,omitempty"`
	// Action: the revealed tile it was played on.
	Tile *uint32 `protobuf:"varint,5,opt,name=tile,proto3,oneof" json:"tile,omitempty"`
	// Luck: the row of the space; action: the target row (stop, front, ascending, anywhere);
	// take_row: the row taken.
	Row *uint32 `protobuf:"varint,6,opt,name=row,proto3,oneof" json:"row,omitempty"`
	// Luck: the space within the row.
	Space *uint32 `protobuf:"varint,7,opt,name=space,proto3,oneof" json:"space,omitempty"`
	// Action: the tile from hand (swap, another).
	NewTile *uint32 `protobuf:"varint,8,opt,name=new_tile,json=newTile,proto3,oneof" json:"new_tile,omitempty"`
}

func (x *Choice) Reset() {
	*x = Choice{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[16]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *Choice) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Choice) ProtoMessage() {}

func (x *Choice) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[16]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Choice.ProtoReflect.Descriptor instead.
func (*Choice) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{16}
}

func (x *Choice) GetSeat() uint32 {
	if x != nil {
		return x.Seat
	}
	return 0
}

func (x *Choice) GetKind() DecisionKind {
	if x != nil {
		return x.Kind
	}
	return DecisionKind_DECISION_KIND_UNSPECIFIED
}

func (x *Choice) GetLuckCard() LuckCard {
	if x != nil {
		return x.LuckCard
	}
	return LuckCard_LUCK_CARD_NONE
}

func (x *Choice) GetActionCard() ActionCard {
	if x != nil {
		return x.ActionCard
	}
	return ActionCard_ACTION_CARD_NONE
}

func (x *Choice) GetTile() uint32 {
	if x != nil && x.Tile != nil {
		return *x.Tile
	}
	return 0
}

func (x *Choice) GetRow() uint32 {
	if x != nil && x.Row != nil {
		return *x.Row
	}
	return 0
}

func (x *Choice) GetSpace() uint32 {
	if x != nil && x.Space != nil {
		return *x.Space
	}
	return 0
}

func (x *Choice) GetNewTile() uint32 {
	if x != nil && x.NewTile != nil {
		return *x.NewTile
	}
	return 0
}

// The decision the game waits for.
type Pending struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// What is asked.
	Kind DecisionKind `protobuf:"varint,1,opt,name=kind,proto3,enum=nimmt.v1.DecisionKind" json:"kind,omitempty"`
	// Who must still answer: for a tile, every seat that has not chosen yet; else one seat.
	Seats []uint32 `protobuf:"varint,2,rep,packed,name=seats,proto3" json:"seats,omitempty"`
	// The tile about to be placed (action card, take row).
	Tile *uint32 `protobuf:"varint,3,opt,name=tile,proto3,oneof" json:"tile,omitempty"`
	// The luck card to place (luck).
	Card LuckCard `protobuf:"varint,4,opt,name=card,proto3,enum=nimmt.v1.LuckCard" json:"card,omitempty"`
}

func (x *Pending) Reset() {
	*x = Pending{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[17]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *Pending) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Pending) ProtoMessage() {}

func (x *Pending) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[17]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Pending.ProtoReflect.Descriptor instead.
func (*Pending) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{17}
}

func (x *Pending) GetKind() DecisionKind {
	if x != nil {
		return x.Kind
	}
	return DecisionKind_DECISION_KIND_UNSPECIFIED
}

func (x *Pending) GetSeats() []uint32 {
	if x != nil {
		return x.Seats
	}
	return nil
}

func (x *Pending) GetTile() uint32 {
	if x != nil && x.Tile != nil {
		return *x.Tile
	}
	return 0
}

func (x *Pending) GetCard() LuckCard {
	if x != nil {
		return x.Card
	}
	return LuckCard_LUCK_CARD_NONE
}

// One decision. Exactly one field is set; it must match the request's kind.
type Decision struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// Types that are assignable to Decision:
	//
	//	*Decision_Tile
	//	*Decision_Luck
	//	*Decision_Action
	//	*Decision_TakeRow
	Decision isDecision_Decision `protobuf_oneof:"decision"`
}

func (x *Decision) Reset() {
	*x = Decision{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[18]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *Decision) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Decision) ProtoMessage() {}

func (x *Decision) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[18]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Decision.ProtoReflect.Descriptor instead.
func (*Decision) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{18}
}

func (m *Decision) GetDecision() isDecision_Decision {
	if m != nil {
		return m.Decision
	}
	return nil
}

func (x *Decision) GetTile() *PlayTile {
	if x, ok := x.GetDecision().(*Decision_Tile); ok {
		return x.Tile
	}
	return nil
}

func (x *Decision) GetLuck() *PlaceLuck {
	if x, ok := x.GetDecision().(*Decision_Luck); ok {
		return x.Luck
	}
	return nil
}

func (x *Decision) GetAction() *PlayAction {
	if x, ok := x.GetDecision().(*Decision_Action); ok {
		return x.Action
	}
	return nil
}

func (x *Decision) GetTakeRow() *TakeRow {
	if x, ok := x.GetDecision().(*Decision_TakeRow); ok {
		return x.TakeRow
	}
	return nil
}

type isDecision_Decision interface {
	isDecision_Decision()
}

type Decision_Tile struct {
	Tile *PlayTile `protobuf:"bytes,1,opt,name=tile,proto3,oneof"`
}

type Decision_Luck struct {
	Luck *PlaceLuck `protobuf:"bytes,2,opt,name=luck,proto3,oneof"`
}

type Decision_Action struct {
	Action *PlayAction `protobuf:"bytes,3,opt,name=action,proto3,oneof"`
}

type Decision_TakeRow struct {
	TakeRow *TakeRow `protobuf:"bytes,4,opt,name=take_row,json=takeRow,proto3,oneof"`
}

func (*Decision_Tile) isDecision_Decision() {}

func (*Decision_Luck) isDecision_Decision() {}

func (*Decision_Action) isDecision_Decision() {}

func (*Decision_TakeRow) isDecision_Decision() {}

// Choose the tile to reveal this turn (DECISION_KIND_TILE). It must be in the hand.
type PlayTile struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// The tile.
	Tile uint32 `protobuf:"varint,1,opt,name=tile,proto3" json:"tile,omitempty"`
}

func (x *PlayTile) Reset() {
	*x = PlayTile{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[19]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *PlayTile) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*PlayTile) ProtoMessage() {}

func (x *PlayTile) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[19]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use PlayTile.ProtoReflect.Descriptor instead.
func (*PlayTile) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{19}
}

func (x *PlayTile) GetTile() uint32 {
	if x != nil {
		return x.Tile
	}
	return 0
}

// Put the drawn luck card (Pending.card) on a free space (DECISION_KIND_LUCK).
type PlaceLuck struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// 0-based row.
	Row uint32 `protobuf:"varint,1,opt,name=row,proto3" json:"row,omitempty"`
	// 0-based space within the row.
	Space uint32 `protobuf:"varint,2,opt,name=space,proto3" json:"space,omitempty"`
}

func (x *PlaceLuck) Reset() {
	*x = PlaceLuck{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[20]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *PlaceLuck) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*PlaceLuck) ProtoMessage() {}

func (x *PlaceLuck) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[20]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use PlaceLuck.ProtoReflect.Descriptor instead.
func (*PlaceLuck) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{20}
}

func (x *PlaceLuck) GetRow() uint32 {
	if x != nil {
		return x.Row
	}
	return 0
}

func (x *PlaceLuck) GetSpace() uint32 {
	if x != nil {
		return x.Space
	}
	return 0
}

// Play an action card on the own tile about to be placed, or none (DECISION_KIND_ACTION).
type PlayAction struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// The card to play; ACTION_CARD_NONE declines.
	Card ActionCard `protobuf:"varint,1,opt,name=card,proto3,enum=nimmt.v1.ActionCard" json:"card,omitempty"`
	// Target row for stop, front, ascending and anywhere; unset otherwise.
	Row *uint32 `protobuf:"varint,2,opt,name=row,proto3,oneof" json:"row,omitempty"`
	// The tile from hand for swap and another; unset otherwise.
	NewTile *uint32 `protobuf:"varint,3,opt,name=new_tile,json=newTile,proto3,oneof" json:"new_tile,omitempty"`
}

func (x *PlayAction) Reset() {
	*x = PlayAction{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[21]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *PlayAction) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*PlayAction) ProtoMessage() {}

func (x *PlayAction) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[21]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use PlayAction.ProtoReflect.Descriptor instead.
func (*PlayAction) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{21}
}

func (x *PlayAction) GetCard() ActionCard {
	if x != nil {
		return x.Card
	}
	return ActionCard_ACTION_CARD_NONE
}

func (x *PlayAction) GetRow() uint32 {
	if x != nil && x.Row != nil {
		return *x.Row
	}
	return 0
}

func (x *PlayAction) GetNewTile() uint32 {
	if x != nil && x.NewTile != nil {
		return *x.NewTile
	}
	return 0
}

// Card game: take a row because the card is lower than every row's end (DECISION_KIND_TAKE_ROW).
type TakeRow struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	// 0-based row to take.
	Row uint32 `protobuf:"varint,1,opt,name=row,proto3" json:"row,omitempty"`
}

func (x *TakeRow) Reset() {
	*x = TakeRow{}
	if protoimpl.UnsafeEnabled {
		mi := &file_nimmt_v1_arena_proto_msgTypes[22]
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		ms.StoreMessageInfo(mi)
	}
}

func (x *TakeRow) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*TakeRow) ProtoMessage() {}

func (x *TakeRow) ProtoReflect() protoreflect.Message {
	mi := &file_nimmt_v1_arena_proto_msgTypes[22]
	if protoimpl.UnsafeEnabled && x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use TakeRow.ProtoReflect.Descriptor instead.
func (*TakeRow) Descriptor() ([]byte, []int) {
	return file_nimmt_v1_arena_proto_rawDescGZIP(), []int{22}
}

func (x *TakeRow) GetRow() uint32 {
	if x != nil {
		return x.Row
	}
	return 0
}

var File_nimmt_v1_arena_proto protoreflect.FileDescriptor

var file_nimmt_v1_arena_proto_rawDesc = []byte{
	0x0a, 0x14, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2f, 0x76, 0x31, 0x2f, 0x61, 0x72, 0x65, 0x6e, 0x61,
	0x2e, 0x70, 0x72, 0x6f, 0x74, 0x6f, 0x12, 0x08, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31,
	0x22, 0x69, 0x0a, 0x0a, 0x42, 0x6f, 0x74, 0x4d, 0x65, 0x73, 0x73, 0x61, 0x67, 0x65, 0x12, 0x27,
	0x0a, 0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x18, 0x01, 0x20, 0x01, 0x28, 0x0b, 0x32, 0x0f, 0x2e,
	0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e, 0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x48, 0x00,
	0x52, 0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x12, 0x2a, 0x0a, 0x06, 0x61, 0x6e, 0x73, 0x77, 0x65,
	0x72, 0x18, 0x02, 0x20, 0x01, 0x28, 0x0b, 0x32, 0x10, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e,
	0x76, 0x31, 0x2e, 0x41, 0x6e, 0x73, 0x77, 0x65, 0x72, 0x48, 0x00, 0x52, 0x06, 0x61, 0x6e, 0x73,
	0x77, 0x65, 0x72, 0x42, 0x06, 0x0a, 0x04, 0x62, 0x6f, 0x64, 0x79, 0x22, 0x8b, 0x01, 0x0a, 0x05,
	0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x12, 0x29, 0x0a, 0x10, 0x70, 0x72, 0x6f, 0x74, 0x6f, 0x63, 0x6f,
	0x6c, 0x5f, 0x76, 0x65, 0x72, 0x73, 0x69, 0x6f, 0x6e, 0x18, 0x01, 0x20, 0x01, 0x28, 0x0d, 0x52,
	0x0f, 0x70, 0x72, 0x6f, 0x74, 0x6f, 0x63, 0x6f, 0x6c, 0x56, 0x65, 0x72, 0x73, 0x69, 0x6f, 0x6e,
	0x12, 0x19, 0x0a, 0x08, 0x62, 0x6f, 0x74, 0x5f, 0x6e, 0x61, 0x6d, 0x65, 0x18, 0x02, 0x20, 0x01,
	0x28, 0x09, 0x52, 0x07, 0x62, 0x6f, 0x74, 0x4e, 0x61, 0x6d, 0x65, 0x12, 0x14, 0x0a, 0x05, 0x74,
	0x6f, 0x6b, 0x65, 0x6e, 0x18, 0x03, 0x20, 0x01, 0x28, 0x09, 0x52, 0x05, 0x74, 0x6f, 0x6b, 0x65,
	0x6e, 0x12, 0x10, 0x0a, 0x03, 0x6b, 0x69, 0x74, 0x18, 0x04, 0x20, 0x01, 0x28, 0x09, 0x52, 0x03,
	0x6b, 0x69, 0x74, 0x12, 0x14, 0x0a, 0x05, 0x73, 0x74, 0x61, 0x79, 0x73, 0x18, 0x05, 0x20, 0x01,
	0x28, 0x08, 0x52, 0x05, 0x73, 0x74, 0x61, 0x79, 0x73, 0x22, 0x90, 0x01, 0x0a, 0x06, 0x41, 0x6e,
	0x73, 0x77, 0x65, 0x72, 0x12, 0x1d, 0x0a, 0x0a, 0x72, 0x65, 0x71, 0x75, 0x65, 0x73, 0x74, 0x5f,
	0x69, 0x64, 0x18, 0x01, 0x20, 0x01, 0x28, 0x04, 0x52, 0x09, 0x72, 0x65, 0x71, 0x75, 0x65, 0x73,
	0x74, 0x49, 0x64, 0x12, 0x2e, 0x0a, 0x08, 0x64, 0x65, 0x63, 0x69, 0x73, 0x69, 0x6f, 0x6e, 0x18,
	0x02, 0x20, 0x01, 0x28, 0x0b, 0x32, 0x12, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31,
	0x2e, 0x44, 0x65, 0x63, 0x69, 0x73, 0x69, 0x6f, 0x6e, 0x52, 0x08, 0x64, 0x65, 0x63, 0x69, 0x73,
	0x69, 0x6f, 0x6e, 0x12, 0x12, 0x0a, 0x04, 0x6e, 0x6f, 0x74, 0x65, 0x18, 0x03, 0x20, 0x01, 0x28,
	0x09, 0x52, 0x04, 0x6e, 0x6f, 0x74, 0x65, 0x12, 0x23, 0x0a, 0x0d, 0x6f, 0x70, 0x74, 0x69, 0x6f,
	0x6e, 0x5f, 0x76, 0x61, 0x6c, 0x75, 0x65, 0x73, 0x18, 0x04, 0x20, 0x03, 0x28, 0x01, 0x52, 0x0c,
	0x6f, 0x70, 0x74, 0x69, 0x6f, 0x6e, 0x56, 0x61, 0x6c, 0x75, 0x65, 0x73, 0x22, 0xc2, 0x02, 0x0a,
	0x0d, 0x45, 0x6e, 0x67, 0x69, 0x6e, 0x65, 0x4d, 0x65, 0x73, 0x73, 0x61, 0x67, 0x65, 0x12, 0x2d,
	0x0a, 0x07, 0x77, 0x65, 0x6c, 0x63, 0x6f, 0x6d, 0x65, 0x18, 0x01, 0x20, 0x01, 0x28, 0x0b, 0x32,
	0x11, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e, 0x57, 0x65, 0x6c, 0x63, 0x6f,
	0x6d, 0x65, 0x48, 0x00, 0x52, 0x07, 0x77, 0x65, 0x6c, 0x63, 0x6f, 0x6d, 0x65, 0x12, 0x34, 0x0a,
	0x0a, 0x67, 0x61, 0x6d, 0x65, 0x5f, 0x73, 0x74, 0x61, 0x72, 0x74, 0x18, 0x02, 0x20, 0x01, 0x28,
	0x0b, 0x32, 0x13, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e, 0x47, 0x61, 0x6d,
	0x65, 0x53, 0x74, 0x61, 0x72, 0x74, 0x48, 0x00, 0x52, 0x09, 0x67, 0x61, 0x6d, 0x65, 0x53, 0x74,
	0x61, 0x72, 0x74, 0x12, 0x35, 0x0a, 0x07, 0x72, 0x65, 0x71, 0x75, 0x65, 0x73, 0x74, 0x18, 0x03,
	0x20, 0x01, 0x28, 0x0b, 0x32, 0x19, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e,
	0x44, 0x65, 0x63, 0x69, 0x73, 0x69, 0x6f, 0x6e, 0x52, 0x65, 0x71, 0x75, 0x65, 0x73, 0x74, 0x48,
	0x00, 0x52, 0x07, 0x72, 0x65, 0x71, 0x75, 0x65, 0x73, 0x74, 0x12, 0x2e, 0x0a, 0x08, 0x67, 0x61,
	0x6d, 0x65, 0x5f, 0x65, 0x6e, 0x64, 0x18, 0x04, 0x20, 0x01, 0x28, 0x0b, 0x32, 0x11, 0x2e, 0x6e,
	0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e, 0x47, 0x61, 0x6d, 0x65, 0x45, 0x6e, 0x64, 0x48,
	0x00, 0x52, 0x07, 0x67, 0x61, 0x6d, 0x65, 0x45, 0x6e, 0x64, 0x12, 0x2a, 0x0a, 0x06, 0x6e, 0x6f,
	0x74, 0x69, 0x63, 0x65, 0x18, 0x05, 0x20, 0x01, 0x28, 0x0b, 0x32, 0x10, 0x2e, 0x6e, 0x69, 0x6d,
	0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e, 0x4e, 0x6f, 0x74, 0x69, 0x63, 0x65, 0x48, 0x00, 0x52, 0x06,
	0x6e, 0x6f, 0x74, 0x69, 0x63, 0x65, 0x12, 0x31, 0x0a, 0x09, 0x6d, 0x61, 0x74, 0x63, 0x68, 0x5f,
	0x65, 0x6e, 0x64, 0x18, 0x06, 0x20, 0x01, 0x28, 0x0b, 0x32, 0x12, 0x2e, 0x6e, 0x69, 0x6d, 0x6d,
	0x74, 0x2e, 0x76, 0x31, 0x2e, 0x4d, 0x61, 0x74, 0x63, 0x68, 0x45, 0x6e, 0x64, 0x48, 0x00, 0x52,
	0x08, 0x6d, 0x61, 0x74, 0x63, 0x68, 0x45, 0x6e, 0x64, 0x42, 0x06, 0x0a, 0x04, 0x62, 0x6f, 0x64,
	0x79, 0x22, 0xd9, 0x01, 0x0a, 0x07, 0x57, 0x65, 0x6c, 0x63, 0x6f, 0x6d, 0x65, 0x12, 0x29, 0x0a,
	0x10, 0x70, 0x72, 0x6f, 0x74, 0x6f, 0x63, 0x6f, 0x6c, 0x5f, 0x76, 0x65, 0x72, 0x73, 0x69, 0x6f,
	0x6e, 0x18, 0x01, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x0f, 0x70, 0x72, 0x6f, 0x74, 0x6f, 0x63, 0x6f,
	0x6c, 0x56, 0x65, 0x72, 0x73, 0x69, 0x6f, 0x6e, 0x12, 0x19, 0x0a, 0x08, 0x6d, 0x61, 0x74, 0x63,
	0x68, 0x5f, 0x69, 0x64, 0x18, 0x02, 0x20, 0x01, 0x28, 0x09, 0x52, 0x07, 0x6d, 0x61, 0x74, 0x63,
	0x68, 0x49, 0x64, 0x12, 0x19, 0x0a, 0x08, 0x62, 0x6f, 0x74, 0x5f, 0x6e, 0x61, 0x6d, 0x65, 0x18,
	0x03, 0x20, 0x01, 0x28, 0x09, 0x52, 0x07, 0x62, 0x6f, 0x74, 0x4e, 0x61, 0x6d, 0x65, 0x12, 0x14,
	0x0a, 0x05, 0x67, 0x61, 0x6d, 0x65, 0x73, 0x18, 0x04, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x05, 0x67,
	0x61, 0x6d, 0x65, 0x73, 0x12, 0x1f, 0x0a, 0x0b, 0x64, 0x65, 0x63, 0x69, 0x73, 0x69, 0x6f, 0x6e,
	0x5f, 0x6d, 0x73, 0x18, 0x05, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x0a, 0x64, 0x65, 0x63, 0x69, 0x73,
	0x69, 0x6f, 0x6e, 0x4d, 0x73, 0x12, 0x17, 0x0a, 0x07, 0x62, 0x61, 0x6e, 0x6b, 0x5f, 0x6d, 0x73,
	0x18, 0x06, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x06, 0x62, 0x61, 0x6e, 0x6b, 0x4d, 0x73, 0x12, 0x1d,
	0x0a, 0x0a, 0x6d, 0x61, 0x78, 0x5f, 0x66, 0x61, 0x75, 0x6c, 0x74, 0x73, 0x18, 0x07, 0x20, 0x01,
	0x28, 0x0d, 0x52, 0x09, 0x6d, 0x61, 0x78, 0x46, 0x61, 0x75, 0x6c, 0x74, 0x73, 0x22, 0xf3, 0x01,
	0x0a, 0x09, 0x47, 0x61, 0x6d, 0x65, 0x53, 0x74, 0x61, 0x72, 0x74, 0x12, 0x17, 0x0a, 0x07, 0x67,
	0x61, 0x6d, 0x65, 0x5f, 0x69, 0x64, 0x18, 0x01, 0x20, 0x01, 0x28, 0x09, 0x52, 0x06, 0x67, 0x61,
	0x6d, 0x65, 0x49, 0x64, 0x12, 0x1d, 0x0a, 0x0a, 0x67, 0x61, 0x6d, 0x65, 0x5f, 0x69, 0x6e, 0x64,
	0x65, 0x78, 0x18, 0x02, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x09, 0x67, 0x61, 0x6d, 0x65, 0x49, 0x6e,
	0x64, 0x65, 0x78, 0x12, 0x18, 0x0a, 0x07, 0x76, 0x61, 0x72, 0x69, 0x61, 0x6e, 0x74, 0x18, 0x03,
	0x20, 0x01, 0x28, 0x09, 0x52, 0x07, 0x76, 0x61, 0x72, 0x69, 0x61, 0x6e, 0x74, 0x12, 0x18, 0x0a,
	0x07, 0x70, 0x6c, 0x61, 0x79, 0x65, 0x72, 0x73, 0x18, 0x04, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x07,
	0x70, 0x6c, 0x61, 0x79, 0x65, 0x72, 0x73, 0x12, 0x12, 0x0a, 0x04, 0x73, 0x65, 0x61, 0x74, 0x18,
	0x05, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x04, 0x73, 0x65, 0x61, 0x74, 0x12, 0x12, 0x0a, 0x04, 0x73,
	0x65, 0x65, 0x64, 0x18, 0x06, 0x20, 0x01, 0x28, 0x04, 0x52, 0x04, 0x73, 0x65, 0x65, 0x64, 0x12,
	0x21, 0x0a, 0x0c, 0x70, 0x6c, 0x61, 0x79, 0x65, 0x72, 0x5f, 0x6e, 0x61, 0x6d, 0x65, 0x73, 0x18,
	0x07, 0x20, 0x03, 0x28, 0x09, 0x52, 0x0b, 0x70, 0x6c, 0x61, 0x79, 0x65, 0x72, 0x4e, 0x61, 0x6d,
	0x65, 0x73, 0x12, 0x16, 0x0a, 0x06, 0x6c, 0x61, 0x79, 0x6f, 0x75, 0x74, 0x18, 0x08, 0x20, 0x03,
	0x28, 0x09, 0x52, 0x06, 0x6c, 0x61, 0x79, 0x6f, 0x75, 0x74, 0x12, 0x17, 0x0a, 0x07, 0x62, 0x61,
	0x6e, 0x6b, 0x5f, 0x6d, 0x73, 0x18, 0x09, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x06, 0x62, 0x61, 0x6e,
	0x6b, 0x4d, 0x73, 0x22, 0x91, 0x02, 0x0a, 0x0f, 0x44, 0x65, 0x63, 0x69, 0x73, 0x69, 0x6f, 0x6e,
	0x52, 0x65, 0x71, 0x75, 0x65, 0x73, 0x74, 0x12, 0x1d, 0x0a, 0x0a, 0x72, 0x65, 0x71, 0x75, 0x65,
	0x73, 0x74, 0x5f, 0x69, 0x64, 0x18, 0x01, 0x20, 0x01, 0x28, 0x04, 0x52, 0x09, 0x72, 0x65, 0x71,
	0x75, 0x65, 0x73, 0x74, 0x49, 0x64, 0x12, 0x17, 0x0a, 0x07, 0x67, 0x61, 0x6d, 0x65, 0x5f, 0x69,
	0x64, 0x18, 0x02, 0x20, 0x01, 0x28, 0x09, 0x52, 0x06, 0x67, 0x61, 0x6d, 0x65, 0x49, 0x64, 0x12,
	0x12, 0x0a, 0x04, 0x73, 0x65, 0x61, 0x74, 0x18, 0x03, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x04, 0x73,
	0x65, 0x61, 0x74, 0x12, 0x2a, 0x0a, 0x04, 0x6b, 0x69, 0x6e, 0x64, 0x18, 0x04, 0x20, 0x01, 0x28,
	0x0e, 0x32, 0x16, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e, 0x44, 0x65, 0x63,
	0x69, 0x73, 0x69, 0x6f, 0x6e, 0x4b, 0x69, 0x6e, 0x64, 0x52, 0x04, 0x6b, 0x69, 0x6e, 0x64, 0x12,
	0x29, 0x0a, 0x04, 0x76, 0x69, 0x65, 0x77, 0x18, 0x05, 0x20, 0x01, 0x28, 0x0b, 0x32, 0x15, 0x2e,
	0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e, 0x4f, 0x62, 0x73, 0x65, 0x72, 0x76, 0x61,
	0x74, 0x69, 0x6f, 0x6e, 0x52, 0x04, 0x76, 0x69, 0x65, 0x77, 0x12, 0x1f, 0x0a, 0x0b, 0x64, 0x65,
	0x61, 0x64, 0x6c, 0x69, 0x6e, 0x65, 0x5f, 0x6d, 0x73, 0x18, 0x06, 0x20, 0x01, 0x28, 0x0d, 0x52,
	0x0a, 0x64, 0x65, 0x61, 0x64, 0x6c, 0x69, 0x6e, 0x65, 0x4d, 0x73, 0x12, 0x17, 0x0a, 0x07, 0x62,
	0x61, 0x6e, 0x6b, 0x5f, 0x6d, 0x73, 0x18, 0x07, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x06, 0x62, 0x61,
	0x6e, 0x6b, 0x4d, 0x73, 0x12, 0x21, 0x0a, 0x0c, 0x61, 0x6c, 0x6c, 0x6f, 0x77, 0x61, 0x6e, 0x63,
	0x65, 0x5f, 0x6d, 0x73, 0x18, 0x08, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x0b, 0x61, 0x6c, 0x6c, 0x6f,
	0x77, 0x61, 0x6e, 0x63, 0x65, 0x4d, 0x73, 0x22, 0xa4, 0x01, 0x0a, 0x07, 0x47, 0x61, 0x6d, 0x65,
	0x45, 0x6e, 0x64, 0x12, 0x17, 0x0a, 0x07, 0x67, 0x61, 0x6d, 0x65, 0x5f, 0x69, 0x64, 0x18, 0x01,
	0x20, 0x01, 0x28, 0x09, 0x52, 0x06, 0x67, 0x61, 0x6d, 0x65, 0x49, 0x64, 0x12, 0x29, 0x0a, 0x04,
	0x76, 0x69, 0x65, 0x77, 0x18, 0x02, 0x20, 0x01, 0x28, 0x0b, 0x32, 0x15, 0x2e, 0x6e, 0x69, 0x6d,
	0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e, 0x4f, 0x62, 0x73, 0x65, 0x72, 0x76, 0x61, 0x74, 0x69, 0x6f,
	0x6e, 0x52, 0x04, 0x76, 0x69, 0x65, 0x77, 0x12, 0x16, 0x0a, 0x06, 0x73, 0x63, 0x6f, 0x72, 0x65,
	0x73, 0x18, 0x03, 0x20, 0x03, 0x28, 0x11, 0x52, 0x06, 0x73, 0x63, 0x6f, 0x72, 0x65, 0x73, 0x12,
	0x14, 0x0a, 0x05, 0x72, 0x61, 0x6e, 0x6b, 0x73, 0x18, 0x04, 0x20, 0x03, 0x28, 0x0d, 0x52, 0x05,
	0x72, 0x61, 0x6e, 0x6b, 0x73, 0x12, 0x27, 0x0a, 0x06, 0x66, 0x61, 0x75, 0x6c, 0x74, 0x73, 0x18,
	0x05, 0x20, 0x03, 0x28, 0x0b, 0x32, 0x0f, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31,
	0x2e, 0x46, 0x61, 0x75, 0x6c, 0x74, 0x52, 0x06, 0x66, 0x61, 0x75, 0x6c, 0x74, 0x73, 0x22, 0x70,
	0x0a, 0x05, 0x46, 0x61, 0x75, 0x6c, 0x74, 0x12, 0x12, 0x0a, 0x04, 0x73, 0x65, 0x61, 0x74, 0x18,
	0x01, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x04, 0x73, 0x65, 0x61, 0x74, 0x12, 0x27, 0x0a, 0x04, 0x6b,
	0x69, 0x6e, 0x64, 0x18, 0x02, 0x20, 0x01, 0x28, 0x0e, 0x32, 0x13, 0x2e, 0x6e, 0x69, 0x6d, 0x6d,
	0x74, 0x2e, 0x76, 0x31, 0x2e, 0x46, 0x61, 0x75, 0x6c, 0x74, 0x4b, 0x69, 0x6e, 0x64, 0x52, 0x04,
	0x6b, 0x69, 0x6e, 0x64, 0x12, 0x12, 0x0a, 0x04, 0x74, 0x75, 0x72, 0x6e, 0x18, 0x03, 0x20, 0x01,
	0x28, 0x0d, 0x52, 0x04, 0x74, 0x75, 0x72, 0x6e, 0x12, 0x16, 0x0a, 0x06, 0x64, 0x65, 0x74, 0x61,
	0x69, 0x6c, 0x18, 0x04, 0x20, 0x01, 0x28, 0x09, 0x52, 0x06, 0x64, 0x65, 0x74, 0x61, 0x69, 0x6c,
	0x22, 0xc6, 0x01, 0x0a, 0x06, 0x4e, 0x6f, 0x74, 0x69, 0x63, 0x65, 0x12, 0x28, 0x0a, 0x04, 0x6b,
	0x69, 0x6e, 0x64, 0x18, 0x01, 0x20, 0x01, 0x28, 0x0e, 0x32, 0x14, 0x2e, 0x6e, 0x69, 0x6d, 0x6d,
	0x74, 0x2e, 0x76, 0x31, 0x2e, 0x4e, 0x6f, 0x74, 0x69, 0x63, 0x65, 0x4b, 0x69, 0x6e, 0x64, 0x52,
	0x04, 0x6b, 0x69, 0x6e, 0x64, 0x12, 0x1d, 0x0a, 0x0a, 0x72, 0x65, 0x71, 0x75, 0x65, 0x73, 0x74,
	0x5f, 0x69, 0x64, 0x18, 0x02, 0x20, 0x01, 0x28, 0x04, 0x52, 0x09, 0x72, 0x65, 0x71, 0x75, 0x65,
	0x73, 0x74, 0x49, 0x64, 0x12, 0x17, 0x0a, 0x07, 0x67, 0x61, 0x6d, 0x65, 0x5f, 0x69, 0x64, 0x18,
	0x03, 0x20, 0x01, 0x28, 0x09, 0x52, 0x06, 0x67, 0x61, 0x6d, 0x65, 0x49, 0x64, 0x12, 0x18, 0x0a,
	0x07, 0x6d, 0x65, 0x73, 0x73, 0x61, 0x67, 0x65, 0x18, 0x04, 0x20, 0x01, 0x28, 0x09, 0x52, 0x07,
	0x6d, 0x65, 0x73, 0x73, 0x61, 0x67, 0x65, 0x12, 0x2a, 0x0a, 0x06, 0x70, 0x6c, 0x61, 0x79, 0x65,
	0x64, 0x18, 0x05, 0x20, 0x01, 0x28, 0x0b, 0x32, 0x12, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e,
	0x76, 0x31, 0x2e, 0x44, 0x65, 0x63, 0x69, 0x73, 0x69, 0x6f, 0x6e, 0x52, 0x06, 0x70, 0x6c, 0x61,
	0x79, 0x65, 0x64, 0x12, 0x14, 0x0a, 0x05, 0x66, 0x61, 0x75, 0x6c, 0x74, 0x18, 0x06, 0x20, 0x01,
	0x28, 0x08, 0x52, 0x05, 0x66, 0x61, 0x75, 0x6c, 0x74, 0x22, 0x4c, 0x0a, 0x08, 0x4d, 0x61, 0x74,
	0x63, 0x68, 0x45, 0x6e, 0x64, 0x12, 0x14, 0x0a, 0x05, 0x67, 0x61, 0x6d, 0x65, 0x73, 0x18, 0x01,
	0x20, 0x01, 0x28, 0x0d, 0x52, 0x05, 0x67, 0x61, 0x6d, 0x65, 0x73, 0x12, 0x16, 0x0a, 0x06, 0x66,
	0x61, 0x75, 0x6c, 0x74, 0x73, 0x18, 0x02, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x06, 0x66, 0x61, 0x75,
	0x6c, 0x74, 0x73, 0x12, 0x12, 0x0a, 0x04, 0x73, 0x74, 0x61, 0x79, 0x18, 0x03, 0x20, 0x01, 0x28,
	0x08, 0x52, 0x04, 0x73, 0x74, 0x61, 0x79, 0x22, 0xad, 0x06, 0x0a, 0x0b, 0x4f, 0x62, 0x73, 0x65,
	0x72, 0x76, 0x61, 0x74, 0x69, 0x6f, 0x6e, 0x12, 0x18, 0x0a, 0x07, 0x76, 0x61, 0x72, 0x69, 0x61,
	0x6e, 0x74, 0x18, 0x01, 0x20, 0x01, 0x28, 0x09, 0x52, 0x07, 0x76, 0x61, 0x72, 0x69, 0x61, 0x6e,
	0x74, 0x12, 0x12, 0x0a, 0x04, 0x73, 0x65, 0x61, 0x74, 0x18, 0x02, 0x20, 0x01, 0x28, 0x0d, 0x52,
	0x04, 0x73, 0x65, 0x61, 0x74, 0x12, 0x18, 0x0a, 0x07, 0x70, 0x6c, 0x61, 0x79, 0x65, 0x72, 0x73,
	0x18, 0x03, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x07, 0x70, 0x6c, 0x61, 0x79, 0x65, 0x72, 0x73, 0x12,
	0x12, 0x0a, 0x04, 0x74, 0x75, 0x72, 0x6e, 0x18, 0x04, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x04, 0x74,
	0x75, 0x72, 0x6e, 0x12, 0x1d, 0x0a, 0x0a, 0x73, 0x65, 0x74, 0x5f, 0x6e, 0x75, 0x6d, 0x62, 0x65,
	0x72, 0x18, 0x05, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x09, 0x73, 0x65, 0x74, 0x4e, 0x75, 0x6d, 0x62,
	0x65, 0x72, 0x12, 0x16, 0x0a, 0x06, 0x6c, 0x61, 0x79, 0x6f, 0x75, 0x74, 0x18, 0x06, 0x20, 0x03,
	0x28, 0x09, 0x52, 0x06, 0x6c, 0x61, 0x79, 0x6f, 0x75, 0x74, 0x12, 0x25, 0x0a, 0x06, 0x73, 0x70,
	0x61, 0x63, 0x65, 0x73, 0x18, 0x07, 0x20, 0x03, 0x28, 0x0b, 0x32, 0x0d, 0x2e, 0x6e, 0x69, 0x6d,
	0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e, 0x52, 0x6f, 0x77, 0x52, 0x06, 0x73, 0x70, 0x61, 0x63, 0x65,
	0x73, 0x12, 0x2a, 0x0a, 0x07, 0x6d, 0x61, 0x72, 0x6b, 0x65, 0x72, 0x73, 0x18, 0x08, 0x20, 0x03,
	0x28, 0x0b, 0x32, 0x10, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e, 0x4d, 0x61,
	0x72, 0x6b, 0x65, 0x72, 0x52, 0x07, 0x6d, 0x61, 0x72, 0x6b, 0x65, 0x72, 0x73, 0x12, 0x14, 0x0a,
	0x05, 0x73, 0x74, 0x6f, 0x70, 0x73, 0x18, 0x09, 0x20, 0x03, 0x28, 0x0d, 0x52, 0x05, 0x73, 0x74,
	0x6f, 0x70, 0x73, 0x12, 0x12, 0x0a, 0x04, 0x68, 0x61, 0x6e, 0x64, 0x18, 0x0a, 0x20, 0x03, 0x28,
	0x0d, 0x52, 0x04, 0x68, 0x61, 0x6e, 0x64, 0x12, 0x37, 0x0a, 0x0c, 0x61, 0x63, 0x74, 0x69, 0x6f,
	0x6e, 0x5f, 0x63, 0x61, 0x72, 0x64, 0x73, 0x18, 0x0b, 0x20, 0x03, 0x28, 0x0e, 0x32, 0x14, 0x2e,
	0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e, 0x41, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x43,
	0x61, 0x72, 0x64, 0x52, 0x0b, 0x61, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x43, 0x61, 0x72, 0x64, 0x73,
	0x12, 0x1b, 0x0a, 0x06, 0x63, 0x68, 0x6f, 0x73, 0x65, 0x6e, 0x18, 0x0c, 0x20, 0x01, 0x28, 0x0d,
	0x48, 0x00, 0x52, 0x06, 0x63, 0x68, 0x6f, 0x73, 0x65, 0x6e, 0x88, 0x01, 0x01, 0x12, 0x16, 0x0a,
	0x06, 0x73, 0x63, 0x6f, 0x72, 0x65, 0x73, 0x18, 0x0d, 0x20, 0x03, 0x28, 0x11, 0x52, 0x06, 0x73,
	0x63, 0x6f, 0x72, 0x65, 0x73, 0x12, 0x1d, 0x0a, 0x0a, 0x68, 0x61, 0x6e, 0x64, 0x5f, 0x73, 0x69,
	0x7a, 0x65, 0x73, 0x18, 0x0e, 0x20, 0x03, 0x28, 0x0d, 0x52, 0x09, 0x68, 0x61, 0x6e, 0x64, 0x53,
	0x69, 0x7a, 0x65, 0x73, 0x12, 0x23, 0x0a, 0x0d, 0x61, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x5f, 0x63,
	0x6f, 0x75, 0x6e, 0x74, 0x73, 0x18, 0x0f, 0x20, 0x03, 0x28, 0x0d, 0x52, 0x0c, 0x61, 0x63, 0x74,
	0x69, 0x6f, 0x6e, 0x43, 0x6f, 0x75, 0x6e, 0x74, 0x73, 0x12, 0x2d, 0x0a, 0x07, 0x68, 0x69, 0x73,
	0x74, 0x6f, 0x72, 0x79, 0x18, 0x10, 0x20, 0x03, 0x28, 0x0b, 0x32, 0x13, 0x2e, 0x6e, 0x69, 0x6d,
	0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e, 0x54, 0x75, 0x72, 0x6e, 0x50, 0x6c, 0x61, 0x79, 0x73, 0x52,
	0x07, 0x68, 0x69, 0x73, 0x74, 0x6f, 0x72, 0x79, 0x12, 0x2a, 0x0a, 0x07, 0x63, 0x68, 0x6f, 0x69,
	0x63, 0x65, 0x73, 0x18, 0x11, 0x20, 0x03, 0x28, 0x0b, 0x32, 0x10, 0x2e, 0x6e, 0x69, 0x6d, 0x6d,
	0x74, 0x2e, 0x76, 0x31, 0x2e, 0x43, 0x68, 0x6f, 0x69, 0x63, 0x65, 0x52, 0x07, 0x63, 0x68, 0x6f,
	0x69, 0x63, 0x65, 0x73, 0x12, 0x2e, 0x0a, 0x08, 0x74, 0x6f, 0x5f, 0x70, 0x6c, 0x61, 0x63, 0x65,
	0x18, 0x12, 0x20, 0x03, 0x28, 0x0b, 0x32, 0x13, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76,
	0x31, 0x2e, 0x50, 0x6c, 0x61, 0x63, 0x65, 0x6d, 0x65, 0x6e, 0x74, 0x52, 0x07, 0x74, 0x6f, 0x50,
	0x6c, 0x61, 0x63, 0x65, 0x12, 0x1f, 0x0a, 0x0b, 0x73, 0x75, 0x70, 0x70, 0x6c, 0x79, 0x5f, 0x73,
	0x69, 0x7a, 0x65, 0x18, 0x13, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x0a, 0x73, 0x75, 0x70, 0x70, 0x6c,
	0x79, 0x53, 0x69, 0x7a, 0x65, 0x12, 0x24, 0x0a, 0x0e, 0x6c, 0x75, 0x63, 0x6b, 0x5f, 0x64, 0x65,
	0x63, 0x6b, 0x5f, 0x73, 0x69, 0x7a, 0x65, 0x18, 0x14, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x0c, 0x6c,
	0x75, 0x63, 0x6b, 0x44, 0x65, 0x63, 0x6b, 0x53, 0x69, 0x7a, 0x65, 0x12, 0x28, 0x0a, 0x10, 0x61,
	0x63, 0x74, 0x69, 0x6f, 0x6e, 0x5f, 0x64, 0x65, 0x63, 0x6b, 0x5f, 0x73, 0x69, 0x7a, 0x65, 0x18,
	0x15, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x0e, 0x61, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x44, 0x65, 0x63,
	0x6b, 0x53, 0x69, 0x7a, 0x65, 0x12, 0x2b, 0x0a, 0x07, 0x70, 0x65, 0x6e, 0x64, 0x69, 0x6e, 0x67,
	0x18, 0x16, 0x20, 0x01, 0x28, 0x0b, 0x32, 0x11, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76,
	0x31, 0x2e, 0x50, 0x65, 0x6e, 0x64, 0x69, 0x6e, 0x67, 0x52, 0x07, 0x70, 0x65, 0x6e, 0x64, 0x69,
	0x6e, 0x67, 0x12, 0x28, 0x0a, 0x05, 0x6c, 0x65, 0x67, 0x61, 0x6c, 0x18, 0x17, 0x20, 0x03, 0x28,
	0x0b, 0x32, 0x12, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e, 0x44, 0x65, 0x63,
	0x69, 0x73, 0x69, 0x6f, 0x6e, 0x52, 0x05, 0x6c, 0x65, 0x67, 0x61, 0x6c, 0x42, 0x09, 0x0a, 0x07,
	0x5f, 0x63, 0x68, 0x6f, 0x73, 0x65, 0x6e, 0x22, 0x1b, 0x0a, 0x03, 0x52, 0x6f, 0x77, 0x12, 0x14,
	0x0a, 0x05, 0x74, 0x69, 0x6c, 0x65, 0x73, 0x18, 0x01, 0x20, 0x03, 0x28, 0x11, 0x52, 0x05, 0x74,
	0x69, 0x6c, 0x65, 0x73, 0x22, 0x58, 0x0a, 0x06, 0x4d, 0x61, 0x72, 0x6b, 0x65, 0x72, 0x12, 0x10,
	0x0a, 0x03, 0x72, 0x6f, 0x77, 0x18, 0x01, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x03, 0x72, 0x6f, 0x77,
	0x12, 0x14, 0x0a, 0x05, 0x73, 0x70, 0x61, 0x63, 0x65, 0x18, 0x02, 0x20, 0x01, 0x28, 0x0d, 0x52,
	0x05, 0x73, 0x70, 0x61, 0x63, 0x65, 0x12, 0x26, 0x0a, 0x04, 0x63, 0x61, 0x72, 0x64, 0x18, 0x03,
	0x20, 0x01, 0x28, 0x0e, 0x32, 0x12, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e,
	0x4c, 0x75, 0x63, 0x6b, 0x43, 0x61, 0x72, 0x64, 0x52, 0x04, 0x63, 0x61, 0x72, 0x64, 0x22, 0x21,
	0x0a, 0x09, 0x54, 0x75, 0x72, 0x6e, 0x50, 0x6c, 0x61, 0x79, 0x73, 0x12, 0x14, 0x0a, 0x05, 0x74,
	0x69, 0x6c, 0x65, 0x73, 0x18, 0x01, 0x20, 0x03, 0x28, 0x0d, 0x52, 0x05, 0x74, 0x69, 0x6c, 0x65,
	0x73, 0x22, 0x33, 0x0a, 0x09, 0x50, 0x6c, 0x61, 0x63, 0x65, 0x6d, 0x65, 0x6e, 0x74, 0x12, 0x12,
	0x0a, 0x04, 0x74, 0x69, 0x6c, 0x65, 0x18, 0x01, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x04, 0x74, 0x69,
	0x6c, 0x65, 0x12, 0x12, 0x0a, 0x04, 0x73, 0x65, 0x61, 0x74, 0x18, 0x02, 0x20, 0x01, 0x28, 0x0d,
	0x52, 0x04, 0x73, 0x65, 0x61, 0x74, 0x22, 0xc3, 0x02, 0x0a, 0x06, 0x43, 0x68, 0x6f, 0x69, 0x63,
	0x65, 0x12, 0x12, 0x0a, 0x04, 0x73, 0x65, 0x61, 0x74, 0x18, 0x01, 0x20, 0x01, 0x28, 0x0d, 0x52,
	0x04, 0x73, 0x65, 0x61, 0x74, 0x12, 0x2a, 0x0a, 0x04, 0x6b, 0x69, 0x6e, 0x64, 0x18, 0x02, 0x20,
	0x01, 0x28, 0x0e, 0x32, 0x16, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e, 0x44,
	0x65, 0x63, 0x69, 0x73, 0x69, 0x6f, 0x6e, 0x4b, 0x69, 0x6e, 0x64, 0x52, 0x04, 0x6b, 0x69, 0x6e,
	0x64, 0x12, 0x2f, 0x0a, 0x09, 0x6c, 0x75, 0x63, 0x6b, 0x5f, 0x63, 0x61, 0x72, 0x64, 0x18, 0x03,
	0x20, 0x01, 0x28, 0x0e, 0x32, 0x12, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e,
	0x4c, 0x75, 0x63, 0x6b, 0x43, 0x61, 0x72, 0x64, 0x52, 0x08, 0x6c, 0x75, 0x63, 0x6b, 0x43, 0x61,
	0x72, 0x64, 0x12, 0x35, 0x0a, 0x0b, 0x61, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x5f, 0x63, 0x61, 0x72,
	0x64, 0x18, 0x04, 0x20, 0x01, 0x28, 0x0e, 0x32, 0x14, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e,
	0x76, 0x31, 0x2e, 0x41, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x43, 0x61, 0x72, 0x64, 0x52, 0x0a, 0x61,
	0x63, 0x74, 0x69, 0x6f, 0x6e, 0x43, 0x61, 0x72, 0x64, 0x12, 0x17, 0x0a, 0x04, 0x74, 0x69, 0x6c,
	0x65, 0x18, 0x05, 0x20, 0x01, 0x28, 0x0d, 0x48, 0x00, 0x52, 0x04, 0x74, 0x69, 0x6c, 0x65, 0x88,
	0x01, 0x01, 0x12, 0x15, 0x0a, 0x03, 0x72, 0x6f, 0x77, 0x18, 0x06, 0x20, 0x01, 0x28, 0x0d, 0x48,
	0x01, 0x52, 0x03, 0x72, 0x6f, 0x77, 0x88, 0x01, 0x01, 0x12, 0x19, 0x0a, 0x05, 0x73, 0x70, 0x61,
	0x63, 0x65, 0x18, 0x07, 0x20, 0x01, 0x28, 0x0d, 0x48, 0x02, 0x52, 0x05, 0x73, 0x70, 0x61, 0x63,
	0x65, 0x88, 0x01, 0x01, 0x12, 0x1e, 0x0a, 0x08, 0x6e, 0x65, 0x77, 0x5f, 0x74, 0x69, 0x6c, 0x65,
	0x18, 0x08, 0x20, 0x01, 0x28, 0x0d, 0x48, 0x03, 0x52, 0x07, 0x6e, 0x65, 0x77, 0x54, 0x69, 0x6c,
	0x65, 0x88, 0x01, 0x01, 0x42, 0x07, 0x0a, 0x05, 0x5f, 0x74, 0x69, 0x6c, 0x65, 0x42, 0x06, 0x0a,
	0x04, 0x5f, 0x72, 0x6f, 0x77, 0x42, 0x08, 0x0a, 0x06, 0x5f, 0x73, 0x70, 0x61, 0x63, 0x65, 0x42,
	0x0b, 0x0a, 0x09, 0x5f, 0x6e, 0x65, 0x77, 0x5f, 0x74, 0x69, 0x6c, 0x65, 0x22, 0x95, 0x01, 0x0a,
	0x07, 0x50, 0x65, 0x6e, 0x64, 0x69, 0x6e, 0x67, 0x12, 0x2a, 0x0a, 0x04, 0x6b, 0x69, 0x6e, 0x64,
	0x18, 0x01, 0x20, 0x01, 0x28, 0x0e, 0x32, 0x16, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76,
	0x31, 0x2e, 0x44, 0x65, 0x63, 0x69, 0x73, 0x69, 0x6f, 0x6e, 0x4b, 0x69, 0x6e, 0x64, 0x52, 0x04,
	0x6b, 0x69, 0x6e, 0x64, 0x12, 0x14, 0x0a, 0x05, 0x73, 0x65, 0x61, 0x74, 0x73, 0x18, 0x02, 0x20,
	0x03, 0x28, 0x0d, 0x52, 0x05, 0x73, 0x65, 0x61, 0x74, 0x73, 0x12, 0x17, 0x0a, 0x04, 0x74, 0x69,
	0x6c, 0x65, 0x18, 0x03, 0x20, 0x01, 0x28, 0x0d, 0x48, 0x00, 0x52, 0x04, 0x74, 0x69, 0x6c, 0x65,
	0x88, 0x01, 0x01, 0x12, 0x26, 0x0a, 0x04, 0x63, 0x61, 0x72, 0x64, 0x18, 0x04, 0x20, 0x01, 0x28,
	0x0e, 0x32, 0x12, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e, 0x4c, 0x75, 0x63,
	0x6b, 0x43, 0x61, 0x72, 0x64, 0x52, 0x04, 0x63, 0x61, 0x72, 0x64, 0x42, 0x07, 0x0a, 0x05, 0x5f,
	0x74, 0x69, 0x6c, 0x65, 0x22, 0xcb, 0x01, 0x0a, 0x08, 0x44, 0x65, 0x63, 0x69, 0x73, 0x69, 0x6f,
	0x6e, 0x12, 0x28, 0x0a, 0x04, 0x74, 0x69, 0x6c, 0x65, 0x18, 0x01, 0x20, 0x01, 0x28, 0x0b, 0x32,
	0x12, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e, 0x50, 0x6c, 0x61, 0x79, 0x54,
	0x69, 0x6c, 0x65, 0x48, 0x00, 0x52, 0x04, 0x74, 0x69, 0x6c, 0x65, 0x12, 0x29, 0x0a, 0x04, 0x6c,
	0x75, 0x63, 0x6b, 0x18, 0x02, 0x20, 0x01, 0x28, 0x0b, 0x32, 0x13, 0x2e, 0x6e, 0x69, 0x6d, 0x6d,
	0x74, 0x2e, 0x76, 0x31, 0x2e, 0x50, 0x6c, 0x61, 0x63, 0x65, 0x4c, 0x75, 0x63, 0x6b, 0x48, 0x00,
	0x52, 0x04, 0x6c, 0x75, 0x63, 0x6b, 0x12, 0x2e, 0x0a, 0x06, 0x61, 0x63, 0x74, 0x69, 0x6f, 0x6e,
	0x18, 0x03, 0x20, 0x01, 0x28, 0x0b, 0x32, 0x14, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76,
	0x31, 0x2e, 0x50, 0x6c, 0x61, 0x79, 0x41, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x48, 0x00, 0x52, 0x06,
	0x61, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x12, 0x2e, 0x0a, 0x08, 0x74, 0x61, 0x6b, 0x65, 0x5f, 0x72,
	0x6f, 0x77, 0x18, 0x04, 0x20, 0x01, 0x28, 0x0b, 0x32, 0x11, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74,
	0x2e, 0x76, 0x31, 0x2e, 0x54, 0x61, 0x6b, 0x65, 0x52, 0x6f, 0x77, 0x48, 0x00, 0x52, 0x07, 0x74,
	0x61, 0x6b, 0x65, 0x52, 0x6f, 0x77, 0x42, 0x0a, 0x0a, 0x08, 0x64, 0x65, 0x63, 0x69, 0x73, 0x69,
	0x6f, 0x6e, 0x22, 0x1e, 0x0a, 0x08, 0x50, 0x6c, 0x61, 0x79, 0x54, 0x69, 0x6c, 0x65, 0x12, 0x12,
	0x0a, 0x04, 0x74, 0x69, 0x6c, 0x65, 0x18, 0x01, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x04, 0x74, 0x69,
	0x6c, 0x65, 0x22, 0x33, 0x0a, 0x09, 0x50, 0x6c, 0x61, 0x63, 0x65, 0x4c, 0x75, 0x63, 0x6b, 0x12,
	0x10, 0x0a, 0x03, 0x72, 0x6f, 0x77, 0x18, 0x01, 0x20, 0x01, 0x28, 0x0d, 0x52, 0x03, 0x72, 0x6f,
	0x77, 0x12, 0x14, 0x0a, 0x05, 0x73, 0x70, 0x61, 0x63, 0x65, 0x18, 0x02, 0x20, 0x01, 0x28, 0x0d,
	0x52, 0x05, 0x73, 0x70, 0x61, 0x63, 0x65, 0x22, 0x82, 0x01, 0x0a, 0x0a, 0x50, 0x6c, 0x61, 0x79,
	0x41, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x12, 0x28, 0x0a, 0x04, 0x63, 0x61, 0x72, 0x64, 0x18, 0x01,
	0x20, 0x01, 0x28, 0x0e, 0x32, 0x14, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e,
	0x41, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x43, 0x61, 0x72, 0x64, 0x52, 0x04, 0x63, 0x61, 0x72, 0x64,
	0x12, 0x15, 0x0a, 0x03, 0x72, 0x6f, 0x77, 0x18, 0x02, 0x20, 0x01, 0x28, 0x0d, 0x48, 0x00, 0x52,
	0x03, 0x72, 0x6f, 0x77, 0x88, 0x01, 0x01, 0x12, 0x1e, 0x0a, 0x08, 0x6e, 0x65, 0x77, 0x5f, 0x74,
	0x69, 0x6c, 0x65, 0x18, 0x03, 0x20, 0x01, 0x28, 0x0d, 0x48, 0x01, 0x52, 0x07, 0x6e, 0x65, 0x77,
	0x54, 0x69, 0x6c, 0x65, 0x88, 0x01, 0x01, 0x42, 0x06, 0x0a, 0x04, 0x5f, 0x72, 0x6f, 0x77, 0x42,
	0x0b, 0x0a, 0x09, 0x5f, 0x6e, 0x65, 0x77, 0x5f, 0x74, 0x69, 0x6c, 0x65, 0x22, 0x1b, 0x0a, 0x07,
	0x54, 0x61, 0x6b, 0x65, 0x52, 0x6f, 0x77, 0x12, 0x10, 0x0a, 0x03, 0x72, 0x6f, 0x77, 0x18, 0x01,
	0x20, 0x01, 0x28, 0x0d, 0x52, 0x03, 0x72, 0x6f, 0x77, 0x2a, 0x93, 0x01, 0x0a, 0x0c, 0x44, 0x65,
	0x63, 0x69, 0x73, 0x69, 0x6f, 0x6e, 0x4b, 0x69, 0x6e, 0x64, 0x12, 0x1d, 0x0a, 0x19, 0x44, 0x45,
	0x43, 0x49, 0x53, 0x49, 0x4f, 0x4e, 0x5f, 0x4b, 0x49, 0x4e, 0x44, 0x5f, 0x55, 0x4e, 0x53, 0x50,
	0x45, 0x43, 0x49, 0x46, 0x49, 0x45, 0x44, 0x10, 0x00, 0x12, 0x16, 0x0a, 0x12, 0x44, 0x45, 0x43,
	0x49, 0x53, 0x49, 0x4f, 0x4e, 0x5f, 0x4b, 0x49, 0x4e, 0x44, 0x5f, 0x54, 0x49, 0x4c, 0x45, 0x10,
	0x01, 0x12, 0x16, 0x0a, 0x12, 0x44, 0x45, 0x43, 0x49, 0x53, 0x49, 0x4f, 0x4e, 0x5f, 0x4b, 0x49,
	0x4e, 0x44, 0x5f, 0x4c, 0x55, 0x43, 0x4b, 0x10, 0x02, 0x12, 0x18, 0x0a, 0x14, 0x44, 0x45, 0x43,
	0x49, 0x53, 0x49, 0x4f, 0x4e, 0x5f, 0x4b, 0x49, 0x4e, 0x44, 0x5f, 0x41, 0x43, 0x54, 0x49, 0x4f,
	0x4e, 0x10, 0x03, 0x12, 0x1a, 0x0a, 0x16, 0x44, 0x45, 0x43, 0x49, 0x53, 0x49, 0x4f, 0x4e, 0x5f,
	0x4b, 0x49, 0x4e, 0x44, 0x5f, 0x54, 0x41, 0x4b, 0x45, 0x5f, 0x52, 0x4f, 0x57, 0x10, 0x04, 0x2a,
	0x4a, 0x0a, 0x08, 0x4c, 0x75, 0x63, 0x6b, 0x43, 0x61, 0x72, 0x64, 0x12, 0x12, 0x0a, 0x0e, 0x4c,
	0x55, 0x43, 0x4b, 0x5f, 0x43, 0x41, 0x52, 0x44, 0x5f, 0x4e, 0x4f, 0x4e, 0x45, 0x10, 0x00, 0x12,
	0x13, 0x0a, 0x0f, 0x4c, 0x55, 0x43, 0x4b, 0x5f, 0x43, 0x41, 0x52, 0x44, 0x5f, 0x50, 0x4c, 0x55,
	0x53, 0x35, 0x10, 0x01, 0x12, 0x15, 0x0a, 0x11, 0x4c, 0x55, 0x43, 0x4b, 0x5f, 0x43, 0x41, 0x52,
	0x44, 0x5f, 0x46, 0x49, 0x4e, 0x41, 0x4c, 0x31, 0x30, 0x10, 0x02, 0x2a, 0xe0, 0x01, 0x0a, 0x0a,
	0x41, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x43, 0x61, 0x72, 0x64, 0x12, 0x14, 0x0a, 0x10, 0x41, 0x43,
	0x54, 0x49, 0x4f, 0x4e, 0x5f, 0x43, 0x41, 0x52, 0x44, 0x5f, 0x4e, 0x4f, 0x4e, 0x45, 0x10, 0x00,
	0x12, 0x14, 0x0a, 0x10, 0x41, 0x43, 0x54, 0x49, 0x4f, 0x4e, 0x5f, 0x43, 0x41, 0x52, 0x44, 0x5f,
	0x53, 0x54, 0x4f, 0x50, 0x10, 0x01, 0x12, 0x14, 0x0a, 0x10, 0x41, 0x43, 0x54, 0x49, 0x4f, 0x4e,
	0x5f, 0x43, 0x41, 0x52, 0x44, 0x5f, 0x53, 0x57, 0x41, 0x50, 0x10, 0x02, 0x12, 0x14, 0x0a, 0x10,
	0x41, 0x43, 0x54, 0x49, 0x4f, 0x4e, 0x5f, 0x43, 0x41, 0x52, 0x44, 0x5f, 0x53, 0x4b, 0x49, 0x50,
	0x10, 0x03, 0x12, 0x15, 0x0a, 0x11, 0x41, 0x43, 0x54, 0x49, 0x4f, 0x4e, 0x5f, 0x43, 0x41, 0x52,
	0x44, 0x5f, 0x46, 0x52, 0x4f, 0x4e, 0x54, 0x10, 0x04, 0x12, 0x19, 0x0a, 0x15, 0x41, 0x43, 0x54,
	0x49, 0x4f, 0x4e, 0x5f, 0x43, 0x41, 0x52, 0x44, 0x5f, 0x41, 0x53, 0x43, 0x45, 0x4e, 0x44, 0x49,
	0x4e, 0x47, 0x10, 0x05, 0x12, 0x18, 0x0a, 0x14, 0x41, 0x43, 0x54, 0x49, 0x4f, 0x4e, 0x5f, 0x43,
	0x41, 0x52, 0x44, 0x5f, 0x41, 0x4e, 0x59, 0x57, 0x48, 0x45, 0x52, 0x45, 0x10, 0x06, 0x12, 0x17,
	0x0a, 0x13, 0x41, 0x43, 0x54, 0x49, 0x4f, 0x4e, 0x5f, 0x43, 0x41, 0x52, 0x44, 0x5f, 0x41, 0x4e,
	0x4f, 0x54, 0x48, 0x45, 0x52, 0x10, 0x07, 0x12, 0x15, 0x0a, 0x11, 0x41, 0x43, 0x54, 0x49, 0x4f,
	0x4e, 0x5f, 0x43, 0x41, 0x52, 0x44, 0x5f, 0x50, 0x4c, 0x55, 0x53, 0x35, 0x10, 0x08, 0x2a, 0x86,
	0x01, 0x0a, 0x09, 0x46, 0x61, 0x75, 0x6c, 0x74, 0x4b, 0x69, 0x6e, 0x64, 0x12, 0x1a, 0x0a, 0x16,
	0x46, 0x41, 0x55, 0x4c, 0x54, 0x5f, 0x4b, 0x49, 0x4e, 0x44, 0x5f, 0x55, 0x4e, 0x53, 0x50, 0x45,
	0x43, 0x49, 0x46, 0x49, 0x45, 0x44, 0x10, 0x00, 0x12, 0x16, 0x0a, 0x12, 0x46, 0x41, 0x55, 0x4c,
	0x54, 0x5f, 0x4b, 0x49, 0x4e, 0x44, 0x5f, 0x54, 0x49, 0x4d, 0x45, 0x4f, 0x55, 0x54, 0x10, 0x01,
	0x12, 0x14, 0x0a, 0x10, 0x46, 0x41, 0x55, 0x4c, 0x54, 0x5f, 0x4b, 0x49, 0x4e, 0x44, 0x5f, 0x43,
	0x52, 0x41, 0x53, 0x48, 0x10, 0x02, 0x12, 0x16, 0x0a, 0x12, 0x46, 0x41, 0x55, 0x4c, 0x54, 0x5f,
	0x4b, 0x49, 0x4e, 0x44, 0x5f, 0x49, 0x4c, 0x4c, 0x45, 0x47, 0x41, 0x4c, 0x10, 0x03, 0x12, 0x17,
	0x0a, 0x13, 0x46, 0x41, 0x55, 0x4c, 0x54, 0x5f, 0x4b, 0x49, 0x4e, 0x44, 0x5f, 0x50, 0x52, 0x4f,
	0x54, 0x4f, 0x43, 0x4f, 0x4c, 0x10, 0x04, 0x2a, 0x8b, 0x01, 0x0a, 0x0a, 0x4e, 0x6f, 0x74, 0x69,
	0x63, 0x65, 0x4b, 0x69, 0x6e, 0x64, 0x12, 0x1b, 0x0a, 0x17, 0x4e, 0x4f, 0x54, 0x49, 0x43, 0x45,
	0x5f, 0x4b, 0x49, 0x4e, 0x44, 0x5f, 0x55, 0x4e, 0x53, 0x50, 0x45, 0x43, 0x49, 0x46, 0x49, 0x45,
	0x44, 0x10, 0x00, 0x12, 0x17, 0x0a, 0x13, 0x4e, 0x4f, 0x54, 0x49, 0x43, 0x45, 0x5f, 0x4b, 0x49,
	0x4e, 0x44, 0x5f, 0x54, 0x49, 0x4d, 0x45, 0x4f, 0x55, 0x54, 0x10, 0x01, 0x12, 0x17, 0x0a, 0x13,
	0x4e, 0x4f, 0x54, 0x49, 0x43, 0x45, 0x5f, 0x4b, 0x49, 0x4e, 0x44, 0x5f, 0x49, 0x4c, 0x4c, 0x45,
	0x47, 0x41, 0x4c, 0x10, 0x02, 0x12, 0x18, 0x0a, 0x14, 0x4e, 0x4f, 0x54, 0x49, 0x43, 0x45, 0x5f,
	0x4b, 0x49, 0x4e, 0x44, 0x5f, 0x50, 0x52, 0x4f, 0x54, 0x4f, 0x43, 0x4f, 0x4c, 0x10, 0x03, 0x12,
	0x14, 0x0a, 0x10, 0x4e, 0x4f, 0x54, 0x49, 0x43, 0x45, 0x5f, 0x4b, 0x49, 0x4e, 0x44, 0x5f, 0x4c,
	0x41, 0x54, 0x45, 0x10, 0x04, 0x32, 0x42, 0x0a, 0x05, 0x41, 0x72, 0x65, 0x6e, 0x61, 0x12, 0x39,
	0x0a, 0x04, 0x50, 0x6c, 0x61, 0x79, 0x12, 0x14, 0x2e, 0x6e, 0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76,
	0x31, 0x2e, 0x42, 0x6f, 0x74, 0x4d, 0x65, 0x73, 0x73, 0x61, 0x67, 0x65, 0x1a, 0x17, 0x2e, 0x6e,
	0x69, 0x6d, 0x6d, 0x74, 0x2e, 0x76, 0x31, 0x2e, 0x45, 0x6e, 0x67, 0x69, 0x6e, 0x65, 0x4d, 0x65,
	0x73, 0x73, 0x61, 0x67, 0x65, 0x28, 0x01, 0x30, 0x01, 0x62, 0x06, 0x70, 0x72, 0x6f, 0x74, 0x6f,
	0x33,
}

var (
	file_nimmt_v1_arena_proto_rawDescOnce sync.Once
	file_nimmt_v1_arena_proto_rawDescData = file_nimmt_v1_arena_proto_rawDesc
)

func file_nimmt_v1_arena_proto_rawDescGZIP() []byte {
	file_nimmt_v1_arena_proto_rawDescOnce.Do(func() {
		file_nimmt_v1_arena_proto_rawDescData = protoimpl.X.CompressGZIP(file_nimmt_v1_arena_proto_rawDescData)
	})
	return file_nimmt_v1_arena_proto_rawDescData
}

var file_nimmt_v1_arena_proto_enumTypes = make([]protoimpl.EnumInfo, 5)
var file_nimmt_v1_arena_proto_msgTypes = make([]protoimpl.MessageInfo, 23)
var file_nimmt_v1_arena_proto_goTypes = []interface{}{
	(DecisionKind)(0),       // 0: nimmt.v1.DecisionKind
	(LuckCard)(0),           // 1: nimmt.v1.LuckCard
	(ActionCard)(0),         // 2: nimmt.v1.ActionCard
	(FaultKind)(0),          // 3: nimmt.v1.FaultKind
	(NoticeKind)(0),         // 4: nimmt.v1.NoticeKind
	(*BotMessage)(nil),      // 5: nimmt.v1.BotMessage
	(*Hello)(nil),           // 6: nimmt.v1.Hello
	(*Answer)(nil),          // 7: nimmt.v1.Answer
	(*EngineMessage)(nil),   // 8: nimmt.v1.EngineMessage
	(*Welcome)(nil),         // 9: nimmt.v1.Welcome
	(*GameStart)(nil),       // 10: nimmt.v1.GameStart
	(*DecisionRequest)(nil), // 11: nimmt.v1.DecisionRequest
	(*GameEnd)(nil),         // 12: nimmt.v1.GameEnd
	(*Fault)(nil),           // 13: nimmt.v1.Fault
	(*Notice)(nil),          // 14: nimmt.v1.Notice
	(*MatchEnd)(nil),        // 15: nimmt.v1.MatchEnd
	(*Observation)(nil),     // 16: nimmt.v1.Observation
	(*Row)(nil),             // 17: nimmt.v1.Row
	(*Marker)(nil),          // 18: nimmt.v1.Marker
	(*TurnPlays)(nil),       // 19: nimmt.v1.TurnPlays
	(*Placement)(nil),       // 20: nimmt.v1.Placement
	(*Choice)(nil),          // 21: nimmt.v1.Choice
	(*Pending)(nil),         // 22: nimmt.v1.Pending
	(*Decision)(nil),        // 23: nimmt.v1.Decision
	(*PlayTile)(nil),        // 24: nimmt.v1.PlayTile
	(*PlaceLuck)(nil),       // 25: nimmt.v1.PlaceLuck
	(*PlayAction)(nil),      // 26: nimmt.v1.PlayAction
	(*TakeRow)(nil),         // 27: nimmt.v1.TakeRow
}
var file_nimmt_v1_arena_proto_depIdxs = []int32{
	6,  // 0: nimmt.v1.BotMessage.hello:type_name -> nimmt.v1.Hello
	7,  // 1: nimmt.v1.BotMessage.answer:type_name -> nimmt.v1.Answer
	23, // 2: nimmt.v1.Answer.decision:type_name -> nimmt.v1.Decision
	9,  // 3: nimmt.v1.EngineMessage.welcome:type_name -> nimmt.v1.Welcome
	10, // 4: nimmt.v1.EngineMessage.game_start:type_name -> nimmt.v1.GameStart
	11, // 5: nimmt.v1.EngineMessage.request:type_name -> nimmt.v1.DecisionRequest
	12, // 6: nimmt.v1.EngineMessage.game_end:type_name -> nimmt.v1.GameEnd
	14, // 7: nimmt.v1.EngineMessage.notice:type_name -> nimmt.v1.Notice
	15, // 8: nimmt.v1.EngineMessage.match_end:type_name -> nimmt.v1.MatchEnd
	0,  // 9: nimmt.v1.DecisionRequest.kind:type_name -> nimmt.v1.DecisionKind
	16, // 10: nimmt.v1.DecisionRequest.view:type_name -> nimmt.v1.Observation
	16, // 11: nimmt.v1.GameEnd.view:type_name -> nimmt.v1.Observation
	13, // 12: nimmt.v1.GameEnd.faults:type_name -> nimmt.v1.Fault
	3,  // 13: nimmt.v1.Fault.kind:type_name -> nimmt.v1.FaultKind
	4,  // 14: nimmt.v1.Notice.kind:type_name -> nimmt.v1.NoticeKind
	23, // 15: nimmt.v1.Notice.played:type_name -> nimmt.v1.Decision
	17, // 16: nimmt.v1.Observation.spaces:type_name -> nimmt.v1.Row
	18, // 17: nimmt.v1.Observation.markers:type_name -> nimmt.v1.Marker
	2,  // 18: nimmt.v1.Observation.action_cards:type_name -> nimmt.v1.ActionCard
	19, // 19: nimmt.v1.Observation.history:type_name -> nimmt.v1.TurnPlays
	21, // 20: nimmt.v1.Observation.choices:type_name -> nimmt.v1.Choice
	20, // 21: nimmt.v1.Observation.to_place:type_name -> nimmt.v1.Placement
	22, // 22: nimmt.v1.Observation.pending:type_name -> nimmt.v1.Pending
	23, // 23: nimmt.v1.Observation.legal:type_name -> nimmt.v1.Decision
	1,  // 24: nimmt.v1.Marker.card:type_name -> nimmt.v1.LuckCard
	0,  // 25: nimmt.v1.Choice.kind:type_name -> nimmt.v1.DecisionKind
	1,  // 26: nimmt.v1.Choice.luck_card:type_name -> nimmt.v1.LuckCard
	2,  // 27: nimmt.v1.Choice.action_card:type_name -> nimmt.v1.ActionCard
	0,  // 28: nimmt.v1.Pending.kind:type_name -> nimmt.v1.DecisionKind
	1,  // 29: nimmt.v1.Pending.card:type_name -> nimmt.v1.LuckCard
	24, // 30: nimmt.v1.Decision.tile:type_name -> nimmt.v1.PlayTile
	25, // 31: nimmt.v1.Decision.luck:type_name -> nimmt.v1.PlaceLuck
	26, // 32: nimmt.v1.Decision.action:type_name -> nimmt.v1.PlayAction
	27, // 33: nimmt.v1.Decision.take_row:type_name -> nimmt.v1.TakeRow
	2,  // 34: nimmt.v1.PlayAction.card:type_name -> nimmt.v1.ActionCard
	5,  // 35: nimmt.v1.Arena.Play:input_type -> nimmt.v1.BotMessage
	8,  // 36: nimmt.v1.Arena.Play:output_type -> nimmt.v1.EngineMessage
	36, // [36:37] is the sub-list for method output_type
	35, // [35:36] is the sub-list for method input_type
	35, // [35:35] is the sub-list for extension type_name
	35, // [35:35] is the sub-list for extension extendee
	0,  // [0:35] is the sub-list for field type_name
}

func init() { file_nimmt_v1_arena_proto_init() }
func file_nimmt_v1_arena_proto_init() {
	if File_nimmt_v1_arena_proto != nil {
		return
	}
	if !protoimpl.UnsafeEnabled {
		file_nimmt_v1_arena_proto_msgTypes[0].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*BotMessage); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[1].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*Hello); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[2].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*Answer); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[3].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*EngineMessage); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[4].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*Welcome); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[5].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*GameStart); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[6].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*DecisionRequest); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[7].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*GameEnd); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[8].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*Fault); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[9].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*Notice); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[10].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*MatchEnd); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[11].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*Observation); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[12].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*Row); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[13].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*Marker); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[14].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*TurnPlays); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[15].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*Placement); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[16].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*Choice); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[17].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*Pending); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[18].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*Decision); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[19].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*PlayTile); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[20].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*PlaceLuck); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[21].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*PlayAction); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
		file_nimmt_v1_arena_proto_msgTypes[22].Exporter = func(v interface{}, i int) interface{} {
			switch v := v.(*TakeRow); i {
			case 0:
				return &v.state
			case 1:
				return &v.sizeCache
			case 2:
				return &v.unknownFields
			default:
				return nil
			}
		}
	}
	file_nimmt_v1_arena_proto_msgTypes[0].OneofWrappers = []interface{}{
		(*BotMessage_Hello)(nil),
		(*BotMessage_Answer)(nil),
	}
	file_nimmt_v1_arena_proto_msgTypes[3].OneofWrappers = []interface{}{
		(*EngineMessage_Welcome)(nil),
		(*EngineMessage_GameStart)(nil),
		(*EngineMessage_Request)(nil),
		(*EngineMessage_GameEnd)(nil),
		(*EngineMessage_Notice)(nil),
		(*EngineMessage_MatchEnd)(nil),
	}
	file_nimmt_v1_arena_proto_msgTypes[11].OneofWrappers = []interface{}{}
	file_nimmt_v1_arena_proto_msgTypes[16].OneofWrappers = []interface{}{}
	file_nimmt_v1_arena_proto_msgTypes[17].OneofWrappers = []interface{}{}
	file_nimmt_v1_arena_proto_msgTypes[18].OneofWrappers = []interface{}{
		(*Decision_Tile)(nil),
		(*Decision_Luck)(nil),
		(*Decision_Action)(nil),
		(*Decision_TakeRow)(nil),
	}
	file_nimmt_v1_arena_proto_msgTypes[21].OneofWrappers = []interface{}{}
	type x struct{}
	out := protoimpl.TypeBuilder{
		File: protoimpl.DescBuilder{
			GoPackagePath: reflect.TypeOf(x{}).PkgPath(),
			RawDescriptor: file_nimmt_v1_arena_proto_rawDesc,
			NumEnums:      5,
			NumMessages:   23,
			NumExtensions: 0,
			NumServices:   1,
		},
		GoTypes:           file_nimmt_v1_arena_proto_goTypes,
		DependencyIndexes: file_nimmt_v1_arena_proto_depIdxs,
		EnumInfos:         file_nimmt_v1_arena_proto_enumTypes,
		MessageInfos:      file_nimmt_v1_arena_proto_msgTypes,
	}.Build()
	File_nimmt_v1_arena_proto = out.File
	file_nimmt_v1_arena_proto_rawDesc = nil
	file_nimmt_v1_arena_proto_goTypes = nil
	file_nimmt_v1_arena_proto_depIdxs = nil
}
