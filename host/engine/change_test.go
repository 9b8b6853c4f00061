package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

func TestChangeOfNamesTheWeightiestChange(t *testing.T) {
	tests := []struct {
		name     string
		e        effects
		typ      string
		summary  string
		nextTool string
	}{
		{"nothing visible", effects{changes: "no visible change"}, "none", "input delivered; no visible change", ""},
		{"nothing visible: the handler threw", effects{changes: "no visible change", threw: true}, "none",
			"input delivered; no visible change; the page threw an error (pageErrors)", ""},
		{"the page changed", effects{changes: "2 elements added"}, "dom", "2 elements added", ""},
		{"nothing visible, and why", effects{changes: "no visible change: the page did not move"}, "none",
			"input delivered; no visible change: the page did not move", ""},
		{"a navigation", effects{navigated: true, url: "http://a/next", changes: "x"}, "navigation", "navigated to http://a/next", "read_page"},
		{"a new tab", effects{opened: []int{8, 9}, navigated: true}, "new_tab", "opened tab 9, now the current tab", "read_page"},
		{"a download", effects{downloads: []browser.Started{{ID: 1, Name: "a.csv"}}, opened: []int{9}}, "download", "download started: a.csv", "downloads"},
		{"a file chooser", effects{chooser: &browser.FileChooser{}}, "file_chooser", "a file chooser opened (none shows)", "upload_file"},
		{"a dialog before all", effects{dialog: `confirm "Sure?"`, navigated: true}, "dialog", `a dialog opened: confirm "Sure?"`, "interact"},
		{"the tab closed", effects{closed: true}, "tab_closed", "the page closed its own tab", "tabs_context"},
		{"raw input, unwatched", effects{}, "none", "input delivered", ""},
		{"raw input, a request still running", effects{running: 2}, "none", "input delivered; 2 request(s) it started still running", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch, next := changeOf(7, tt.e)
			assert.Equal(t, tt.typ, ch.Type)
			assert.Equal(t, tt.summary, ch.Summary)
			if tt.nextTool == "" {
				assert.Empty(t, next)
				return
			}
			require.NotEmpty(t, next)
			assert.Equal(t, tt.nextTool, next[0].Tool)
		})
	}
	_, next := changeOf(7, effects{opened: []int{9}})
	assert.Equal(t, 9, next[0].Args["tabId"], "read the new tab, not the old one")
}

func TestBlockedErrorNamesTheWayOut(t *testing.T) {
	a := browser.Acted{Target: `button "Pay"`, Blocked: &browser.Blocked{
		By:      &browser.Control{Ref: "e40", Name: `dialog "Cookies"`},
		Dismiss: []browser.Control{{Ref: "e41", Name: `button "Accept all"`}, {Ref: "e42", Name: `button "Reject"`}},
	}}
	e := blockedError(a)
	assert.Equal(t, protocol.CodeConflict, e.Code)
	assert.Equal(t, `button "Pay" is covered by dialog "Cookies" e40: nothing was done`, e.Message)
	assert.Equal(t, `click e41 (button "Accept all") to dismiss it, then act again`, e.Hint)

	a.Blocked.Dismiss = nil
	assert.Contains(t, blockedError(a).Hint, "oc_handoff_start")
	a.Blocked.PassThrough = true
	assert.Contains(t, blockedError(a).Hint, "lets clicks through")
}
