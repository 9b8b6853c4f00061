package engine

import (
	"net"
	"net/url"
	"regexp"
	"strings"

	"github.com/openchrome/openchrome/protocol"
)

// checkURL accepts what a tab may be sent to: absolute http(s) and file URLs,
// and about:blank. A bare host, as a person types it into the address bar
// ("example.com/docs", "localhost:3000"), is read the way the address bar
// reads it. Everything else is bad_request, with the fix in the hint.
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
	if m := bareHost.FindStringSubmatch(s); m != nil && !fileName.MatchString(m[1]) {
		scheme := "https://"
		if h := strings.Trim(m[1], "[]"); strings.EqualFold(h, "localhost") || net.ParseIP(h) != nil {
			scheme = "http://" // a server on this machine or this network seldom has a certificate
		}
		s = scheme + s
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

// bareHost matches a URL with no scheme that starts with a host: a name
// with a dot in it, localhost, or an IP address, then maybe a port and a path.
var bareHost = regexp.MustCompile(`(?i)^(localhost|[a-z0-9-]+(?:\.[a-z0-9-]+)+|\[[0-9a-f:.]+\])(?::\d{1,5})?(?:[/?#].*)?$`)

// fileName matches a host that is more likely a file's name ("index.html"):
// a path relative to a page, which a tab cannot be sent to.
var fileName = regexp.MustCompile(`(?i)\.(?:html?|php|aspx?|jsp|cgi|js|css|json|xml|pdf|txt|md|png|jpe?g|gif|svg)$`)

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
