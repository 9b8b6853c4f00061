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
		if cmd.Action == "tab.get" {
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
