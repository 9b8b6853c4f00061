package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/host/audit"
	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// TestEveryCallIsAuditedWithoutItsArguments runs calls through an engine
// with an audit log: one line each, with the tab's origin and the outcome,
// never what the agent sent or got; a later engine shows them as activity.
func TestEveryCallIsAuditedWithoutItsArguments(t *testing.T) {
	path := filepath.Join(t.TempDir(), "logs", "audit.jsonl")
	log, err := audit.Open(path, 0)
	require.NoError(t, err)
	page := []browser.Tab{{TabID: 7, URL: "https://shop.example.com:8443/cart?session=abc123def456", Active: true}}
	e, _ := newEngineWith(t, Options{Audit: log}, protocol.Version, tabs(page, func(cmd protocol.Command) (any, *protocol.Error) {
		if tabOf(cmd) != 7 { // as the extension's router refuses any command to it
			return nil, protocol.Errorf(protocol.CodeTabNotFound, "no tab %d", tabOf(cmd))
		}
		return map[string]any{"type": "string", "value": "the page's secret answer"}, nil
	}))
	run(t, e, "javascript_tool", `{"tabId":7,"code":"document.querySelector('#card-number-4111').value"}`)
	wantError(t, run(t, e, "javascript_tool", `{"tabId":99,"code":"1"}`), protocol.CodeTabNotFound)
	run(t, e, "tabs_context", `{}`)
	require.NoError(t, log.Close())

	b, err := os.ReadFile(path)
	require.NoError(t, err)
	text := string(b)
	assert.Len(t, strings.Split(strings.TrimSpace(text), "\n"), 3, "one line a call")
	for _, never := range []string{"card-number", "querySelector", "secret answer", "session=", "abc123", "/cart"} {
		assert.NotContains(t, text, never, "no argument, result or URL path in the audit log")
	}
	entries, err := audit.Recent(path, 10)
	require.NoError(t, err)
	require.Len(t, entries, 3)
	assert.Equal(t, "javascript_tool", entries[0].Tool)
	assert.Equal(t, "https://shop.example.com:8443", entries[0].Origin)
	assert.Empty(t, entries[0].Code)
	assert.Equal(t, "tab_not_found", entries[1].Code)
	assert.Equal(t, "tabs_context", entries[2].Tool)

	// A new daemon's side panel starts with them.
	again, err := audit.Open(path, 0)
	require.NoError(t, err)
	t.Cleanup(func() { again.Close() })
	e2, _ := newEngineWith(t, Options{Audit: again}, protocol.Version, tabs(page, nil))
	shown := e2.state.recent()
	require.Len(t, shown, 3)
	assert.Equal(t, "tabs_context", shown[0].Tool, "newest first")
	assert.Equal(t, "tab_not_found", shown[1].Error)
}

// TestASentToolIsAuditedWhereItsTabIs: a tool whose first step is a command
// to the tab skips the gate's look-up; where the tab is still reaches the
// audit log, from profile.secrets' answer, or, when the person lets
// secrets show and none is asked, from a look-up after the call.
func TestASentToolIsAuditedWhereItsTabIs(t *testing.T) {
	home := ledger.Home(t.TempDir())
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	log, err := audit.Open(path, 0)
	require.NoError(t, err)
	page := []browser.Tab{{TabID: 7, URL: "https://shop.example.com/cart"}}
	e, fb := newEngineWith(t, Options{Home: home, Audit: log}, protocol.Version, tabs(page, func(cmd protocol.Command) (any, *protocol.Error) {
		if cmd.Action == "profile.secrets" {
			return browser.Secrets{URL: "https://shop.example.com/cart"}, nil
		}
		return map[string]any{"type": "number", "value": 1}, nil
	}))
	run(t, e, "javascript_tool", `{"tabId":7,"code":"1"}`)
	assert.Equal(t, []string{"page.evaluate"}, fb.actions(), "no look-up before the command, nor after: profile.secrets said where")

	require.NoError(t, os.WriteFile(home.ConfigFile(), []byte(`{"revealProfileSecrets": true}`), 0o600))
	run(t, e, "javascript_tool", `{"tabId":7,"code":"1"}`)
	assert.Equal(t, "tab.get", fb.last().Action, "looked up after the call, for its audit entry")
	require.NoError(t, log.Close())

	entries, err := audit.Recent(path, 10)
	require.NoError(t, err)
	require.Len(t, entries, 2)
	for _, en := range entries {
		assert.Equal(t, "https://shop.example.com", en.Origin)
	}
}
