package nimmt

// Playing from the owner's machine through the arena's gateway (docs/REMOTE.md): --remote URL
// with the bot's remote token in $NIMMT_REMOTE_TOKEN, match after match.

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log"
	"net"
	"os"
	"regexp"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
)

// ReconnectMax is the longest pause between two attempts to reach the gateway.
const ReconnectMax = 10 * time.Second

var remoteURL = regexp.MustCompile(`^(?:(grpcs?)://)?([^/]+)$`)

// final are the statuses after which a remote bot does not connect again: fix something first.
var final = map[codes.Code]bool{
	codes.Unauthenticated:    true,
	codes.FailedPrecondition: true,
	codes.InvalidArgument:    true,
	codes.PermissionDenied:   true,
}

// RemoteTarget is the address and transport of the gateway at url: grpcs://HOST:PORT (or
// HOST:PORT) with TLS, trusting the system's CAs or the certificate in caFile; grpc://HOST:PORT
// in plaintext, only to a loopback address.
func RemoteTarget(url, caFile string) (string, grpc.DialOption, error) {
	parts := remoteURL.FindStringSubmatch(url)
	if parts == nil {
		return "", nil, &ArenaError{Message: fmt.Sprintf("--remote %q: give grpcs://HOST:PORT (the bot page shows it)", url)}
	}
	scheme, target := parts[1], parts[2]
	if scheme == "grpc" {
		host := target
		if i := strings.LastIndex(target, ":"); i >= 0 {
			host = target[:i]
		}
		if host = strings.Trim(host, "[]"); host != "localhost" && host != "127.0.0.1" && host != "::1" {
			return "", nil, &ArenaError{Message: fmt.Sprintf("--remote %q: plaintext only to loopback; use grpcs://", url)}
		}
		return target, grpc.WithInsecure(), nil
	}
	config, err := trust(caFile)
	if err != nil {
		return "", nil, err
	}
	return target, grpc.WithTransportCredentials(credentials.NewTLS(config)), nil
}

// trust is the TLS configuration that trusts the system's CAs, or the certificates in caFile.
func trust(caFile string) (*tls.Config, error) {
	if caFile == "" {
		return &tls.Config{}, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, &ArenaError{Message: fmt.Sprintf("cannot read the CA file %s: %v", caFile, err)}
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, &ArenaError{Message: fmt.Sprintf("cannot read the CA file %s: no certificate in it", caFile)}
	}
	return &tls.Config{RootCAs: pool}, nil
}

// Untrusted is what a kit says when the gateway answers but its certificate is not trusted.
const Untrusted = "the arena's certificate is not trusted (pass --ca FILE)"

// untrustedCertificate says why the gateway at target (HOST:PORT) cannot be trusted with
// caFile (or the system's CAs), or "" if it can, cannot be reached, or does not answer in time:
// a TLS handshake of its own, asked after gRPC could not connect, since gRPC says only that.
func untrustedCertificate(target, caFile string) string {
	config, err := trust(caFile)
	if err != nil {
		return ""
	}
	host, _, err := net.SplitHostPort(target)
	if err != nil {
		return ""
	}
	config.ServerName = host
	config.NextProtos = []string{"h2"}
	conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", target, config)
	if err == nil {
		conn.Close()
		return ""
	}
	var unknown x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	var name x509.HostnameError
	if errors.As(err, &unknown) || errors.As(err, &invalid) || errors.As(err, &name) {
		return err.Error()
	}
	return ""
}

// PlayRemote plays bot match after match through the gateway at url with the bot's remote
// token, connecting again after each match and after a dropped connection (a growing pause, at
// most ReconnectMax); matches is how many (0: until stopped). It returns the number played, and
// an *ArenaError if the gateway refuses the token or the protocol.
func PlayRemote(bot Bot, url, token, caFile string, matches int, connectTimeout time.Duration) (int, error) {
	target, transport, err := RemoteTarget(url, caFile)
	if err != nil {
		return 0, err
	}
	played, pause := 0, time.Second
	for matches == 0 || played < matches {
		summary, err := play(bot, target, token, connectTimeout, transport, false)
		var refused *ArenaError
		switch {
		case err == nil:
			played++
			pause = time.Second
			log.Printf("match %d over (%d games); waiting for the next", played, summary.Games)
			continue
		case !errors.As(err, &refused) || final[refused.Code]:
			return played, err
		case refused.Code == codes.OK && !strings.HasPrefix(url, "grpc://"): // never reached
			if why := untrustedCertificate(target, caFile); why != "" { // retrying would not help
				return played, &ArenaError{Message: fmt.Sprintf("%s: %s: %s", Untrusted, url, why), Code: codes.FailedPrecondition}
			}
		}
		log.Printf("WARNING %v; connecting again in %s", err, pause)
		time.Sleep(pause)
		if pause *= 2; pause > ReconnectMax {
			pause = ReconnectMax
		}
	}
	return played, nil
}

func mainRemote(bot Bot, url, caFile string, matches int, connectTimeout time.Duration) int {
	token := strings.TrimSpace(os.Getenv("NIMMT_REMOTE_TOKEN"))
	if token == "" {
		log.Printf("ERROR set NIMMT_REMOTE_TOKEN to the bot's remote token (shown on the bot's page)")
		return 2
	}
	_, err := PlayRemote(bot, url, token, caFile, matches, connectTimeout)
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
