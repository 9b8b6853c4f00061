package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/openchrome/openchrome/host/browser"
)

func TestABrowsersOwnKeySaysTheCallThatDoesIt(t *testing.T) {
	tests := []struct {
		chord string
		does  string     // "" when the page may have it
		next  nextAction // zero when no call does it exactly
	}{
		{"F5", "reloads the page", nextAction{"navigate", map[string]any{"url": "reload", "tabId": 7}}},
		{"Control+r", "reloads the page", nextAction{"navigate", map[string]any{"url": "reload", "tabId": 7}}},
		{"cmd+Shift+R", "reloads the page", nextAction{"navigate", map[string]any{"url": "reload", "tabId": 7}}},
		{"shift+ctrl+r", "reloads the page", nextAction{"navigate", map[string]any{"url": "reload", "tabId": 7}}},
		{"alt+Left", "goes back", nextAction{"navigate", map[string]any{"url": "back", "tabId": 7}}},
		{"Alt+ArrowRight", "goes forward", nextAction{"navigate", map[string]any{"url": "forward", "tabId": 7}}},
		{"ctrl+w", "closes the tab", nextAction{"tabs_close", map[string]any{"tabId": 7}}},
		{"Ctrl+T", "opens a tab", nextAction{"tabs_create", map[string]any{}}},
		{"ctrl+5", "goes to another tab", nextAction{"tabs_context", map[string]any{}}},
		{"ctrl+l", "goes to the address bar", nextAction{}},
		{"ctrl+q", "quits the browser", nextAction{}},
		{"ctrl+shift+Delete", "clears browsing data", nextAction{}},
		{"ctrl+a", "", nextAction{}},
		{"ctrl+s", "", nextAction{}}, // pages save with it
		{"Enter", "", nextAction{}},
		{"r", "", nextAction{}},
		{"ctrl+", "", nextAction{}},
		{"", "", nextAction{}},
	}
	for _, tt := range tests {
		t.Run(tt.chord, func(t *testing.T) {
			does, next := browserShortcut(7, tt.chord)
			if tt.does == "" {
				assert.Empty(t, does)
				assert.Empty(t, next)
				return
			}
			assert.Contains(t, does, tt.chord+" "+tt.does+" in a browser, which keys sent to the page do not do")
			if tt.next.Tool == "" {
				assert.Empty(t, next)
				return
			}
			assert.Equal(t, []nextAction{tt.next}, next)
		})
	}
}

func TestAPressOfABrowserKeyThatChangedNothingSaysWhy(t *testing.T) {
	delivered := true
	ch, next := changeOf(7, actedEffects(browser.Acted{Action: "press", Key: "F5", Delivered: &delivered, Changes: "no visible change"}))
	assert.Equal(t, "none", ch.Type)
	assert.Equal(t, "input delivered; no visible change: F5 reloads the page in a browser, which keys sent to the page do not do", ch.Summary)
	assert.Equal(t, []nextAction{{"navigate", map[string]any{"url": "reload", "tabId": 7}}}, next)

	// A page that answers the key itself (an app's own F5) is its own.
	ch, next = changeOf(7, actedEffects(browser.Acted{Action: "press", Key: "F5", Delivered: &delivered, Changes: "text changed: \"Refreshed\""}))
	assert.Equal(t, "dom", ch.Type)
	assert.Empty(t, next)

	// A computer key, raw input: the same.
	e := inputEffects(browser.Inputted{Changes: "no visible change"})
	e.key = "ctrl+w"
	ch, next = changeOf(7, e)
	assert.Contains(t, ch.Summary, "ctrl+w closes the tab in a browser")
	assert.Equal(t, "tabs_close", next[0].Tool)
}
