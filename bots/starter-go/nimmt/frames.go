package nimmt

// The framed socket ($NIMMT_FRAMES, protos/nimmt/v1/arena.proto "The framed socket"): the
// conversation of Arena.Play without gRPC, for a bot on the arena's own machine, where gRPC's
// HTTP/2 machinery costs more CPU per decision than the decision. Each message is a frame: its
// length as a protobuf varint, then the serialized message. The arena ends the conversation
// with an empty frame and one frame of text, the status ("OK", or a code name, a space and the
// reason), then closes the socket.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	nimmtv1 "nimmt-arena/bot/nimmt/v1"
)

// FramedPrefix starts the address of a framed socket: frames+unix:///run/nimmt/frames.sock.
const FramedPrefix = "frames+unix://"

// The longest frame the kit reads (a request is a few KiB), and the most bytes of its length.
const (
	maxFrame  = 4 << 20
	maxVarint = 5
)

// How often the kit tries again to connect while the arena's socket does not accept yet.
const dialPoll = 20 * time.Millisecond

// errFrame is bytes on the socket that are not a frame the kit reads.
var errFrame = errors.New("not a frame")

// DefaultAddress is where the arena said to connect: its framed socket ($NIMMT_FRAMES, the
// cheaper transport, on this machine only) if it offers one, else its gRPC socket
// ($NIMMT_ENGINE), else "".
func DefaultAddress() string {
	if frames := os.Getenv("NIMMT_FRAMES"); strings.HasPrefix(frames, "unix://") {
		return "frames+" + frames
	}
	return os.Getenv("NIMMT_ENGINE")
}

// frameReader reads frames: their payloads, without the lengths.
type frameReader struct {
	in    *bufio.Reader
	limit int
}

// next is the next frame's payload; io.EOF if the stream ends between two frames,
// io.ErrUnexpectedEOF inside one, an error wrapping errFrame for a length over the limit or
// longer than maxVarint bytes.
func (r *frameReader) next() ([]byte, error) {
	var size uint64
	for i := 0; ; i++ {
		if i == maxVarint {
			return nil, fmt.Errorf("%w: a frame length of more than %d bytes", errFrame, maxVarint)
		}
		b, err := r.in.ReadByte()
		if err == io.EOF && i > 0 {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return nil, err
		}
		size |= uint64(b&0x7f) << (7 * i)
		if b < 0x80 {
			break
		}
	}
	if size > uint64(r.limit) {
		return nil, fmt.Errorf("%w: a frame of %d bytes, over the limit of %d", errFrame, size, r.limit)
	}
	payload := make([]byte, size)
	if _, err := io.ReadFull(r.in, payload); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return payload, nil
}

// appendFrame is buf with payload appended as a frame.
func appendFrame(buf, payload []byte) []byte {
	return append(protowire.AppendVarint(buf, uint64(len(payload))), payload...)
}

// framedStream is one conversation on the framed socket, with the gRPC stream's Send and Recv:
// Recv returns io.EOF after the status OK and an *ArenaError for any other end.
type framedStream struct {
	conn   net.Conn
	frames frameReader
}

// dialFramed connects to the framed socket at path, trying again until timeout has passed (the
// arena may still be starting to listen).
func dialFramed(address, path string, timeout time.Duration) (*framedStream, error) {
	limit := time.Now().Add(timeout)
	for {
		conn, err := net.DialTimeout("unix", path, timeout)
		if err == nil {
			return &framedStream{conn, frameReader{bufio.NewReaderSize(conn, 64<<10), maxFrame}}, nil
		}
		if time.Now().After(limit) {
			return nil, &ArenaError{Message: fmt.Sprintf("cannot reach the arena at %s within %s (%v): is the match running, and is the address right?", address, timeout, err)}
		}
		time.Sleep(dialPoll)
	}
}

func (s *framedStream) Close() error { return s.conn.Close() }

// Send writes message as one frame. If the arena has closed the socket, the error says why
// when the arena left a status (as gRPC's Send leaves it to Recv).
func (s *framedStream) Send(message *nimmtv1.BotMessage) error {
	payload, err := proto.Marshal(message)
	if err != nil {
		return err
	}
	if _, err := s.conn.Write(appendFrame(nil, payload)); err != nil {
		s.conn.SetReadDeadline(time.Now().Add(time.Second))
		for {
			if _, status := s.Recv(); status != nil {
				if status == io.EOF {
					return &ArenaError{Message: fmt.Sprintf("the arena ended the connection without a status: %v", err)}
				}
				return status
			}
		}
	}
	return nil
}

// Recv is the arena's next message.
func (s *framedStream) Recv() (*nimmtv1.EngineMessage, error) {
	payload, err := s.frames.next()
	if err != nil {
		return nil, wentAway(err)
	}
	if len(payload) == 0 { // the end: the status follows
		text, err := s.frames.next()
		if err != nil {
			return nil, wentAway(err)
		}
		return nil, statusError(string(text))
	}
	message := &nimmtv1.EngineMessage{}
	if err := proto.Unmarshal(payload, message); err != nil {
		return nil, &ArenaError{Message: fmt.Sprintf("the arena ended the connection: a message the kit cannot read: %v", err), Code: codes.Internal}
	}
	return message, nil
}

// statusError is io.EOF for the status OK, else an *ArenaError with the status's code and reason.
func statusError(text string) error {
	name, details, _ := strings.Cut(text, " ")
	if name == "OK" {
		return io.EOF
	}
	if details == "" {
		details = "(no details)"
	}
	code := codes.Unknown
	code.UnmarshalJSON([]byte(`"` + name + `"`)) // an unknown name stays Unknown
	return &ArenaError{Message: fmt.Sprintf("the arena ended the connection: %s: %s", name, details), Code: code}
}

// wentAway is the *ArenaError for a framed socket that ended without a status (err).
func wentAway(err error) error {
	if err == io.EOF {
		return &ArenaError{Message: "the arena ended the connection without a status (it went away)"}
	}
	return &ArenaError{Message: fmt.Sprintf("the arena ended the connection without a status: %v", err)}
}
