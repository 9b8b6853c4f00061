// Package policy is what the person allows agents in their browser:
// ~/.openchrome/config.json, and the decision it makes for every URL an
// agent tab is about to reach. One decision, made the same way in the
// engine (navigate, tabs_create, crawls, session resume) and in the
// extension (a navigation a click or a script starts), which gets the
// rules with the side panel's state.
package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"strings"

	"github.com/openchrome/openchrome/protocol"
)

// Config is ~/.openchrome/config.json.
type Config struct {
	// AllowedOrigins, when not empty, are the only origins an agent tab may
	// reach: "example.com", "*.example.com" (the domain and its
	// subdomains), "https://app.example.com:8443", "http://localhost".
	AllowedOrigins []string `json:"allowedOrigins"`
	// BlockedOrigins are origins an agent tab never reaches, whatever else
	// allows them.
	BlockedOrigins []string `json:"blockedOrigins"`
	// AllowFileURLs lets agent tabs open file: URLs (the person's local
	// files). Off by default.
	AllowFileURLs bool `json:"allowFileURLs"`
	// UploadRoots are directories upload_file may read files from, besides
	// the MCP client's roots, the directory `openchrome mcp` runs in and
	// ~/.openchrome/uploads.
	UploadRoots []string `json:"uploadRoots"`
	// RevealProfileSecrets stops masking the profile's cookies and stored
	// tokens in what tools return. Off by default.
	RevealProfileSecrets bool `json:"revealProfileSecrets"`
}

// Defaults is the config install writes: everything allowed but local
// files, profile secrets masked.
func Defaults() Config {
	return Config{AllowedOrigins: []string{}, BlockedOrigins: []string{}, UploadRoots: []string{}}
}

// Load reads the config at path: Defaults when there is none, a coded error
// naming the file when it is not one (bad JSON, an unknown field, a bad
// pattern).
func Load(path string) (Config, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Defaults(), nil
	}
	if err != nil {
		return Config{}, fmt.Errorf("policy: %w", err)
	}
	c := Defaults()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Config{}, protocol.Errorf(protocol.CodeBadRequest, "%s is not a valid config: %v", path, err).
			WithHint("fix it (docs/config.md), or remove it for the defaults")
	}
	if _, err := c.Policy(); err != nil {
		return Config{}, protocol.Errorf(protocol.CodeBadRequest, "%s: %v", path, protocol.AsError(err).Message).
			WithHint("fix it (docs/config.md), or remove it for the defaults")
	}
	return c, nil
}

// Write writes c to path, indented, for the person to edit.
func Write(path string, c Config, write func(string, []byte) error) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return write(path, append(b, '\n'))
}

// Policy is the decision over URLs: parsed rules, possibly narrowed for one
// MCP client. Its zero value allows every web page and no local file.
type Policy struct {
	allowed   [][]pattern // each non-empty list must allow the URL
	blocked   []pattern
	allowFile bool
}

// Rules are a policy as the extension and the side panel get it.
type Rules struct {
	Allowed   [][]string `json:"allowed,omitempty"`
	Blocked   []string   `json:"blocked,omitempty"`
	AllowFile bool       `json:"allowFile,omitempty"`
	// Error says the config cannot be read: then nothing is allowed.
	Error string `json:"error,omitempty"`
}

// Policy parses c's rules.
func (c Config) Policy() (Policy, error) {
	var p Policy
	p.allowFile = c.AllowFileURLs
	return p.Narrow(c.AllowedOrigins, c.BlockedOrigins)
}

// Narrow returns p with allowed (when not empty) as one more list a URL
// must be in, and blocked added to what is blocked: for one client's
// --allowed-origins and --blocked-origins. It can only take away.
func (p Policy) Narrow(allowed, blocked []string) (Policy, error) {
	out := Policy{allowFile: p.allowFile, blocked: append([]pattern(nil), p.blocked...)}
	out.allowed = append(out.allowed, p.allowed...)
	if len(allowed) > 0 {
		list := make([]pattern, 0, len(allowed))
		for _, s := range allowed {
			pt, err := parsePattern(s)
			if err != nil {
				return Policy{}, err
			}
			list = append(list, pt)
		}
		out.allowed = append(out.allowed, list)
	}
	for _, s := range blocked {
		pt, err := parsePattern(s)
		if err != nil {
			return Policy{}, err
		}
		out.blocked = append(out.blocked, pt)
	}
	return out, nil
}

// FromRules is the policy rules say (the extension's form).
func FromRules(r Rules) (Policy, error) {
	p := Policy{allowFile: r.AllowFile}
	for _, list := range r.Allowed {
		var err error
		if p, err = p.Narrow(list, nil); err != nil {
			return Policy{}, err
		}
	}
	return p.Narrow(nil, r.Blocked)
}

// Rules returns p as the extension gets it.
func (p Policy) Rules() Rules {
	r := Rules{AllowFile: p.allowFile}
	for _, list := range p.allowed {
		var l []string
		for _, pt := range list {
			l = append(l, pt.raw)
		}
		r.Allowed = append(r.Allowed, l)
	}
	for _, pt := range p.blocked {
		r.Blocked = append(r.Blocked, pt.raw)
	}
	return r
}

// Check says whether an agent tab may reach rawURL: nil, or domain_blocked
// naming the rule that refused it.
func (p Policy) Check(rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return protocol.Errorf(protocol.CodeBadRequest, "%q is not a URL", rawURL)
	}
	switch u.Scheme {
	case "http", "https":
	case "file":
		if p.allowFile {
			return nil
		}
		return protocol.Errorf(protocol.CodeDomainBlocked, "file: URLs are off: agents do not open your local files").
			WithHint(`set "allowFileURLs": true in ~/.openchrome/config.json to allow them`)
	case "about":
		if u.Opaque == "blank" || strings.HasPrefix(rawURL, "about:blank") {
			return nil
		}
		fallthrough
	default:
		// data:, blob:, javascript:, chrome:, view-source: and the rest are
		// no origin a rule could name: an agent navigates to web pages.
		if u.Scheme == "data" || u.Scheme == "blob" {
			return nil
		}
		return protocol.Errorf(protocol.CodeDomainBlocked, "%s: URLs are not web pages agents open", u.Scheme).
			WithHint("navigate to an http or https URL")
	}
	host, port := u.Hostname(), u.Port()
	for _, pt := range p.blocked {
		if pt.matches(u.Scheme, host, port) {
			return protocol.Errorf(protocol.CodeDomainBlocked, "%s is blocked by the rule %q", origin(u), pt.raw).
				WithHint("the person's blockedOrigins say no; ask them, or work elsewhere")
		}
	}
	for _, list := range p.allowed {
		ok := false
		for _, pt := range list {
			if pt.matches(u.Scheme, host, port) {
				ok = true
				break
			}
		}
		if !ok {
			names := make([]string, len(list))
			for i, pt := range list {
				names[i] = pt.raw
			}
			return protocol.Errorf(protocol.CodeDomainBlocked, "%s is not among the allowed origins (%s)", origin(u), strings.Join(names, ", ")).
				WithHint("the person's allowedOrigins (or this client's --allowed-origins) say where agents may go")
		}
	}
	return nil
}

func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

// pattern is one rule: [scheme://]host[:port], host "*" for any, or
// "*.domain" for the domain and its subdomains.
type pattern struct {
	raw    string
	scheme string // "" for any
	host   string // lower case, without "*."
	wild   bool   // *.host: the host and its subdomains
	any    bool   // *: every host
	port   string // "" for any
}

func parsePattern(s string) (pattern, error) {
	pt := pattern{raw: s}
	rest := strings.TrimSpace(strings.ToLower(s))
	if k := strings.Index(rest, "://"); k >= 0 {
		pt.scheme, rest = rest[:k], rest[k+3:]
		if pt.scheme != "http" && pt.scheme != "https" {
			return pattern{}, protocol.Errorf(protocol.CodeBadRequest, "origin rule %q: only http and https origins are named", s)
		}
	}
	rest = strings.TrimSuffix(rest, "/")
	if h, p, err := net.SplitHostPort(rest); err == nil {
		rest, pt.port = h, p
	}
	switch {
	case rest == "*":
		pt.any = true
	case strings.HasPrefix(rest, "*."):
		pt.wild, pt.host = true, rest[2:]
	default:
		pt.host = rest
	}
	if !pt.any && (pt.host == "" || strings.ContainsAny(pt.host, "*/?#@ ")) {
		return pattern{}, protocol.Errorf(protocol.CodeBadRequest, "origin rule %q is not [scheme://]host[:port] (host may start with *.)", s)
	}
	return pt, nil
}

func (pt pattern) matches(scheme, host, port string) bool {
	if pt.scheme != "" && pt.scheme != scheme {
		return false
	}
	if pt.port != "" && pt.port != portOf(scheme, port) {
		return false
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	switch {
	case pt.any:
		return true
	case pt.wild:
		return host == pt.host || strings.HasSuffix(host, "."+pt.host)
	}
	return host == pt.host
}

func portOf(scheme, port string) string {
	if port != "" {
		return port
	}
	if scheme == "https" {
		return "443"
	}
	return "80"
}
