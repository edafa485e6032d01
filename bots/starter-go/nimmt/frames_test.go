package nimmt

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	nimmtv1 "nimmt-arena/bot/nimmt/v1"
)

// statusFrames is the end of a conversation as the arena writes it (arena/protocol/frames.py).
func statusFrames(text string) []byte {
	return appendFrame([]byte{0}, []byte(text))
}

func reader(in io.Reader, limit int) *frameReader {
	return &frameReader{bufio.NewReaderSize(in, 16), limit}
}

// pieces is a reader that hands out its bytes a few at a time, as a socket may.
type pieces struct {
	data []byte
	size int
}

func (p *pieces) Read(buf []byte) (int, error) {
	if len(p.data) == 0 {
		return 0, io.EOF
	}
	n := copy(buf[:min(len(buf), p.size)], p.data)
	p.data = p.data[n:]
	return n, nil
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func TestAFrameIsItsVarintLengthThenItsBytes(t *testing.T) {
	if got := appendFrame(nil, []byte("abc")); !bytes.Equal(got, []byte("\x03abc")) {
		t.Errorf("got %q", got)
	}
	if got := appendFrame(nil, bytes.Repeat([]byte("x"), 300))[:2]; !bytes.Equal(got, []byte("\xac\x02")) {
		t.Errorf("a 300-byte frame starts %q", got)
	}
}

func TestFramesAreReadWhetherTheyArriveSplitOrPacked(t *testing.T) {
	long := bytes.Repeat([]byte("y"), 1000)
	var data []byte
	for _, payload := range [][]byte{[]byte("abc"), long, {}, []byte("OK")} {
		data = appendFrame(data, payload)
	}
	for _, size := range []int{1, 2, 7, len(data)} {
		r := reader(&pieces{data, size}, maxFrame)
		var got [][]byte
		for {
			payload, err := r.next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("pieces of %d: %v", size, err)
			}
			got = append(got, payload)
		}
		if len(got) != 4 || string(got[0]) != "abc" || !bytes.Equal(got[1], long) || len(got[2]) != 0 || string(got[3]) != "OK" {
			t.Errorf("pieces of %d: read %q", size, got)
		}
	}
}

func TestAFrameCutShortIsAnUnexpectedEnd(t *testing.T) {
	for _, data := range []string{"\x05ab", "\x80"} {
		if _, err := reader(strings.NewReader(data), maxFrame).next(); err != io.ErrUnexpectedEOF {
			t.Errorf("%q: got %v", data, err)
		}
	}
}

func TestAFrameOverTheLimitOrALengthOfSixBytesIsNotRead(t *testing.T) {
	over := appendFrame(nil, bytes.Repeat([]byte("z"), 65))
	if _, err := reader(bytes.NewReader(over), 64).next(); !errors.Is(err, errFrame) || !strings.Contains(err.Error(), "65 bytes") {
		t.Errorf("over the limit: got %v", err)
	}
	if _, err := reader(strings.NewReader("\x80\x80\x80\x80\x80\x01"), maxFrame).next(); !errors.Is(err, errFrame) {
		t.Errorf("a six-byte length: got %v", err)
	}
}

func TestTheStatusEndsTheConversation(t *testing.T) {
	if err := statusError("OK"); err != io.EOF {
		t.Errorf("OK: got %v", err)
	}
	err := statusError("UNAUTHENTICATED missing or unknown token")
	var arena *ArenaError
	if !errors.As(err, &arena) || arena.Code != codes.Unauthenticated ||
		arena.Message != "the arena ended the connection: UNAUTHENTICATED: missing or unknown token" {
		t.Errorf("got %#v", err)
	}
	if err := statusError("ABORTED"); !strings.HasSuffix(err.Error(), "ABORTED: (no details)") {
		t.Errorf("got %v", err)
	}
}

// framedArena serves framed connections on a Unix socket, one for each of replies: it reads
// the kit's first frame (sent on hellos), writes the connection's replies and closes it, then
// calls between (if any) before the next. The test's clean-up waits for it to finish, so that
// nothing it does (between writes files) races the removal of the test's folders.
func framedArena(t *testing.T, between func(), replies ...[]byte) (string, chan *nimmtv1.BotMessage) {
	path := filepath.Join(t.TempDir(), "frames.sock")
	listener, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() {
		listener.Close()
		<-done
	})
	hellos := make(chan *nimmtv1.BotMessage, len(replies))
	go func() {
		defer close(done)
		for i, reply := range replies {
			if i > 0 && between != nil {
				between()
			}
			conn, err := listener.Accept()
			if err != nil {
				return
			}
			payload, err := reader(conn, maxFrame).next()
			message := &nimmtv1.BotMessage{}
			if err == nil && proto.Unmarshal(payload, message) == nil {
				hellos <- message
			}
			conn.Write(reply)
			conn.Close()
		}
	}()
	return FramedPrefix + path, hellos
}

func frameOf(t *testing.T, message *nimmtv1.EngineMessage) []byte {
	payload, err := proto.Marshal(message)
	if err != nil {
		t.Fatal(err)
	}
	return appendFrame(nil, payload)
}

func TestAMatchOnTheFramedSocketEndsWithItsStatus(t *testing.T) {
	end := &nimmtv1.EngineMessage{Body: &nimmtv1.EngineMessage_MatchEnd{MatchEnd: &nimmtv1.MatchEnd{Games: 1, Faults: 2}}}
	address, hello := framedArena(t, nil, append(frameOf(t, end), statusFrames("OK")...))
	summary, err := Play(&KitBot{}, address, "secret", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if summary.Faults != 2 || summary.Transport != "framed socket" {
		t.Errorf("got %+v", summary)
	}
	if got := <-hello; got.GetHello().GetToken() != "secret" || got.GetHello().GetKit() != Kit {
		t.Errorf("the hello was %v", got)
	}
}

func TestARefusalOnTheFramedSocketSaysWhy(t *testing.T) {
	address, _ := framedArena(t, nil, statusFrames("UNAUTHENTICATED missing or unknown token"))
	_, err := Play(&KitBot{}, address, "wrong", time.Second)
	var arena *ArenaError
	if !errors.As(err, &arena) || arena.Code != codes.Unauthenticated || !strings.Contains(err.Error(), "missing or unknown token") {
		t.Errorf("got %v", err)
	}
}

func TestAFramedSocketClosedWithoutAStatusIsAnArenaError(t *testing.T) {
	address, _ := framedArena(t, nil, nil)
	_, err := Play(&KitBot{}, address, "secret", time.Second)
	if err == nil || !strings.Contains(err.Error(), "the arena ended the connection without a status") {
		t.Errorf("got %v", err)
	}
}

func TestAKeptBotConnectsAgainToTheFramedSocketWithTheNextToken(t *testing.T) {
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("first\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	next := func() { os.WriteFile(tokenFile, []byte("second\n"), 0o600) }
	stay := &nimmtv1.EngineMessage{Body: &nimmtv1.EngineMessage_MatchEnd{MatchEnd: &nimmtv1.MatchEnd{Games: 1, Stay: true}}}
	end := &nimmtv1.EngineMessage{Body: &nimmtv1.EngineMessage_MatchEnd{MatchEnd: &nimmtv1.MatchEnd{Games: 1}}}
	address, hellos := framedArena(t, next, append(frameOf(t, stay), statusFrames("OK")...), append(frameOf(t, end), statusFrames("OK")...))
	summary, err := playMatches(&KitBot{}, address, "first", time.Second, tokenFile)
	if err != nil || summary.Stay {
		t.Fatalf("got %+v, %v", summary, err)
	}
	for _, want := range []string{"first", "second"} {
		if hello := (<-hellos).GetHello(); hello.GetToken() != want || !hello.GetStays() {
			t.Errorf("a hello was %v, want the token %q and stays", hello, want)
		}
	}
}

func TestNoFramedSocketIsCannotReachTheArena(t *testing.T) {
	address := FramedPrefix + filepath.Join(t.TempDir(), "nothing.sock")
	started := time.Now()
	_, err := Play(&KitBot{}, address, "secret", 200*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "cannot reach the arena") {
		t.Errorf("got %v", err)
	}
	if waited := time.Since(started); waited < 200*time.Millisecond || waited > 5*time.Second {
		t.Errorf("waited %s for a connect timeout of 200ms", waited)
	}
}

func TestTheFramedSocketComesFirstWhenTheArenaOffersIt(t *testing.T) {
	t.Setenv("NIMMT_ENGINE", "unix:///run/nimmt/engine.sock")
	t.Setenv("NIMMT_FRAMES", "")
	if got := DefaultAddress(); got != "unix:///run/nimmt/engine.sock" {
		t.Errorf("without NIMMT_FRAMES: %q", got)
	}
	t.Setenv("NIMMT_FRAMES", "unix:///run/nimmt/frames.sock")
	if got := DefaultAddress(); got != "frames+unix:///run/nimmt/frames.sock" {
		t.Errorf("with NIMMT_FRAMES: %q", got)
	}
}
