package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"

	"github.com/openchrome/openchrome/ledger"
)

// pageEvent is one entry the extension observed on a tab (page.events):
// a console message, an uncaught exception, a request or a navigation. It
// never holds headers or bodies; text and URLs are redacted here, before
// anything is kept.
type pageEvent struct {
	Seq        int    `json:"seq"`
	TS         int64  `json:"ts"` // Unix milliseconds
	Kind       string `json:"kind"`
	Level      string `json:"level,omitempty"`
	Text       string `json:"text,omitempty"`
	URL        string `json:"url,omitempty"`
	Line       int    `json:"line,omitempty"`
	Method     string `json:"method,omitempty"`
	Type       string `json:"type,omitempty"`
	Status     int    `json:"status,omitempty"`
	Error      string `json:"error,omitempty"`
	FromCache  bool   `json:"fromCache,omitempty"`
	Transition string `json:"transition,omitempty"`
}

// eventPage is what page.events answers.
type eventPage struct {
	Events    []pageEvent `json:"events"`
	Next      int         `json:"next"`
	Observing bool        `json:"observing"`
	Dropped   int         `json:"dropped"`
}

// readEvents reads a tab's observed entries from since on, redacted.
func (c *call) readEvents(ctx context.Context, tab, since int, kinds ...string) (eventPage, error) {
	var p eventPage
	if err := c.do(ctx, pageEvents(tab, since, kinds), &p); err != nil {
		return p, err
	}
	for i := range p.Events {
		ev := &p.Events[i]
		ev.Text = c.engine.red.Text(ev.Text)
		ev.URL = c.engine.red.URL(ev.URL)
		ev.Error = c.engine.red.Text(ev.Error)
	}
	return p, nil
}

// observe turns observation on for tab and returns the function that turns
// it off again, unless it was already on (someone else's).
func (c *call) observe(ctx context.Context, tab int) (stop func(), err error) {
	var before eventPage
	if err := c.do(ctx, pageEvents(tab, 0, []string{"navigation"}), &before); err != nil {
		return nil, err
	}
	if before.Observing {
		return func() {}, nil
	}
	if err := c.do(ctx, pageObserve(tab, true), nil); err != nil {
		return nil, err
	}
	return func() {
		off, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5e9)
		defer cancel()
		_ = c.do(off, pageObserve(tab, false), nil)
	}, nil
}

// newArtifactID returns 16 hex digits naming a recording, an evidence bundle
// or a session snapshot.
func newArtifactID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}

// writeJSON writes v indented to name, private to the user.
func writeJSON(name string, v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return b, writeFile(name, b)
}

// writeFile writes an artifact file, private to the user.
func writeFile(name string, b []byte) error { return ledger.WriteFile(name, b, 0o600) }
