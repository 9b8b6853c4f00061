package redact

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

const (
	// minSecret is the shortest known secret, in characters, that a
	// Redactor masks. Masking every "abc" or "1" in all output would wreck
	// it and protect little.
	minSecret = 4
	// maxSecrets bounds what a Redactor remembers; adding more drops the
	// oldest. A long-lived daemon sees one secret per typed password field,
	// and a secret typed hours ago is unlikely to be echoed now.
	maxSecrets = 256
)

// A Redactor masks, on top of the patterns of [Text], secrets the engine
// knows exactly: the text an agent typed into a password field, a token it
// was handed. Every occurrence of every known secret is masked, including
// its percent-encoded and JSON-escaped forms. All occurrences are found in
// the original text and overlapping ones (of one secret or several) merge
// into one [Mask], so no secret leaves a fragment beside another's mask, as
// replacing them one at a time, even longest first, can.
//
// The zero value is ready to use and knows no secrets; a nil *Redactor is the
// same for every method but Add, which is how the package-level functions
// work. A Redactor is safe for concurrent use (the daemon shares one between
// its tools and its logger) and must not be copied after first use.
type Redactor struct {
	// mu guards the fields below.
	mu sync.RWMutex
	// secrets are the known secrets, oldest first.
	secrets []string
	// forms are what to look for: every form of every secret. Add replaces
	// the slice and never changes one it has published, so readers may use
	// it after unlocking.
	forms []string
}

// Add makes r mask secret from now on. Secrets shorter than four characters,
// or made only of spaces, are ignored. Adding a secret r already knows makes
// it the newest; beyond 256 secrets the oldest is forgotten.
func (r *Redactor) Add(secret string) {
	if utf8.RuneCountInString(secret) < minSecret || strings.TrimSpace(secret) == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.secrets = slices.DeleteFunc(r.secrets, func(s string) bool { return s == secret })
	r.secrets = append(r.secrets, secret)
	if n := len(r.secrets) - maxSecrets; n > 0 {
		r.secrets = slices.Delete(r.secrets, 0, n) // Delete clears the tail, so a dropped secret is not kept alive
	}
	r.forms = formsOf(r.secrets)
}

// formsOf lists every form in which the secrets may appear in output: as
// typed, percent-encoded in a query or a path, and escaped inside a JSON
// string. Longest first, without duplicates.
func formsOf(secrets []string) []string {
	forms := make([]string, 0, len(secrets))
	for _, s := range secrets {
		forms = append(forms, s, url.QueryEscape(s), url.PathEscape(s))
		if b, err := json.Marshal(s); err == nil {
			forms = append(forms, string(b[1:len(b)-1]))
		}
	}
	slices.SortFunc(forms, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	return slices.Compact(forms)
}

// known returns s with every occurrence of a known secret masked.
func (r *Redactor) known(s string) string {
	if r == nil {
		return s
	}
	r.mu.RLock()
	forms := r.forms
	r.mu.RUnlock()
	var spans []span
	for _, f := range forms {
		for i := 0; i <= len(s)-len(f); {
			j := strings.Index(s[i:], f)
			if j < 0 {
				break
			}
			spans = append(spans, span{i + j, i + j + len(f)})
			i += j + 1 // the next occurrence may overlap this one ("aaaa" in "aaaaa")
		}
	}
	return mask(s, spans)
}

// Known masks r's known secrets in s and nothing else. It is for output an
// agent asked for — page text, a script's result — where the patterns of
// [Text] would mask too much, but a password the agent typed must still
// not come back.
func (r *Redactor) Known(s string) string { return r.known(s) }

// Text is [Text] plus r's known secrets.
func (r *Redactor) Text(s string) string { return scrub(r.known(s), false) }

// URL is [URL] plus r's known secrets.
func (r *Redactor) URL(u string) string { return scrub(r.known(u), true) }

// value redacts a string whose kind is unknown: as a URL when it looks like
// one (so a relative "/cb?code=..." is read as a URL too), else as text.
func (r *Redactor) value(s string) string {
	if looksLikeURL(s) {
		return r.URL(s)
	}
	return r.Text(s)
}

// looksLikeURL reports whether s is one word that is an absolute,
// protocol-relative, path-absolute or query-only URL.
func looksLikeURL(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t\r\n") {
		return false
	}
	return strings.Contains(s, "://") || s[0] == '/' || s[0] == '?'
}
