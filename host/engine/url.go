package engine

import (
	"net/url"
	"strings"

	"github.com/openchrome/openchrome/protocol"
)

// checkURL accepts what a tab may be sent to: absolute http(s) and file URLs,
// and about:blank. Everything else is bad_request, with the fix in the hint.
func checkURL(raw string) (string, error) {
	bad := func(why string) error {
		return protocol.Errorf(protocol.CodeBadRequest, "url %q %s", clip(raw, 200), why).
			WithHint("pass an absolute URL such as https://example.com/")
	}
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", bad("is empty")
	}
	if s == "about:blank" {
		return s, nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", bad("is malformed")
	}
	switch u.Scheme {
	case "http", "https":
		if u.Host == "" || u.Hostname() == "" {
			return "", bad("has no host")
		}
	case "file":
		if u.Path == "" {
			return "", bad("has no path")
		}
	case "":
		return "", bad("is not absolute")
	default:
		return "", bad("has scheme " + u.Scheme + ": only http, https, file and about:blank are allowed")
	}
	return u.String(), nil
}

// clip shortens s to at most n bytes, on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
