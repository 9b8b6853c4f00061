package bridge

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net"
	"net/http"
	"strings"
)

// NewToken returns a fresh 256-bit bearer token.
func NewToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}

// authorize decides whether an upgrade request may become a session. It
// returns 0 when it may, else the HTTP status to refuse with.
//
// A web page can open a WebSocket to loopback, but its browser always sends
// the page's Origin, and a DNS-rebinding page also sends its own Host; our
// clients send neither. The token is compared in constant time.
func authorize(r *http.Request, token string) int {
	if r.Header.Get("Origin") != "" || !loopbackHost(r.Host) {
		return http.StatusForbidden
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
		return http.StatusUnauthorized
	}
	return 0
}

func loopbackHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
