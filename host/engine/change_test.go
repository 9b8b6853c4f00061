package engine

import (
	"encoding/json"
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
		{"nothing visible: the server refused its request", effects{changes: "no visible change", failed: []string{"POST /api/save: 500 Internal Server Error"}},
			"none", "input delivered; no visible change; a request it sent failed: POST /api/save: 500 Internal Server Error (requestErrors)", ""},
		{"a spinner gone, two requests failed", effects{changes: "1 element removed", failed: []string{"GET /a: 404", "GET /b: net::ERR_FAILED"}},
			"dom", "1 element removed; 2 requests it sent failed, the first GET /a: 404 (requestErrors)", ""},
		{"a box the page kept unchecked", effects{changes: "no visible change", stayed: "unchecked"}, "none",
			"input delivered; it stayed unchecked: the page kept it so", ""},
		{"the page changed", effects{changes: "2 elements added"}, "dom", "2 elements added", ""},
		{"the page changed, and the handler threw", effects{changes: `1 element added: "Later"`, threw: true}, "dom",
			`1 element added: "Later"; the page threw an error (pageErrors)`, ""},
		{"nothing visible, and why", effects{changes: "no visible change: the page did not move"}, "none",
			"input delivered; no visible change: the page did not move", ""},
		{"a navigation", effects{navigated: true, url: "http://a/next", changes: "x"}, "navigation", "navigated to http://a/next", "read_page"},
		{"a navigation to a page that is gone", effects{navigated: true, url: "http://a/old", status: 404}, "navigation",
			"navigated to http://a/old; the server answered 404 Not Found", "read_page"},
		{"a navigation no server has answered yet", effects{navigated: true, navigating: "http://a/pay", url: "http://a/cart"}, "navigation",
			"navigating to http://a/pay: no answer from the server yet; the page shown is the one it leaves", "wait_for"},
		{"a new tab", effects{opened: []int{8, 9}, navigated: true}, "new_tab", "opened tab 9, now the current tab", "read_page"},
		{"a download", effects{downloads: []browser.Started{{ID: 1, Name: "a.csv"}}, opened: []int{9}}, "download", "download started: a.csv", "downloads"},
		{"a file chooser", effects{chooser: &browser.FileChooser{}}, "file_chooser", "a file chooser opened (none shows)", "upload_file"},
		{"a dialog before all", effects{dialog: `confirm "Sure?"`, navigated: true}, "dialog", `a dialog opened: confirm "Sure?"`, "interact"},
		{"the tab closed", effects{closed: true}, "tab_closed", "the page closed its own tab", "tabs_context"},
		{"a popup closed itself", effects{closed: true, opener: 4}, "tab_closed",
			"the page closed its own tab; tab 4, which opened it, is the current tab", "read_page"},
		{"raw input, unwatched", effects{}, "none", "input delivered", ""},
		{"a click on what hears only double clicks", effects{gesture: "double_click", ref: "e4", changes: "no visible change"}, "none",
			"input delivered; no visible change: its script listens for a double click, not a click", "interact"},
		{"a click on what hears only double clicks, that changed the page all the same", effects{gesture: "double_click", ref: "e4", changes: `text changed: "x"`}, "dom",
			`text changed: "x"`, ""},
		{"a navigation to an address with a masked secret", effects{navigating: "http://a/cb?code=[redacted]&s=1", url: "http://a/"}, "navigation",
			"navigating to http://a/cb?code=[redacted]&s=1: no answer from the server yet; the page shown is the one it leaves", "wait_for"},
		{"a frame navigated", effects{frame: "http://b/next", url: "http://a/", changes: "5 hidden"}, "navigation",
			"its frame navigated to http://b/next; the page around it stays", "read_page"},
		{"a dialog answered", effects{answered: `confirm "Sure?"`}, "none", `answered confirm "Sure?"`, ""},
		{"a dialog answered, the page still", effects{answered: `confirm "Sure?"`, changes: "no visible change"}, "none", `answered confirm "Sure?"`, ""},
		{"a dialog answered, and what the page did then", effects{answered: `confirm "Delete Invoice 2?"`, changes: `1 removed: "Invoice 2 $30"`}, "dom",
			`answered confirm "Delete Invoice 2?"; 1 removed: "Invoice 2 $30"`, ""},
		{"a dialog answered, and the next one", effects{answered: `confirm "Sure?"`, dialog: `alert "Done"`}, "dialog", `a dialog opened: alert "Done"`, "interact"},
		{"a dialog answered, and the page left", effects{answered: `confirm "Leave?"`, navigated: true, url: "http://a/b"}, "navigation", "navigated to http://a/b", "read_page"},
		{"a control took the text", effects{changes: "no visible change", wrote: true}, "none",
			"input delivered; the value is set, nothing else changed", ""},
		{"a control took the text, a request is still running", effects{changes: "no visible change yet: 1 request it started still running", wrote: true}, "none",
			"input delivered; the value is set, nothing else changed yet: 1 request it started still running", ""},
		{"a list drawn after a pause", effects{changes: "no visible change", wrote: true, offers: 2}, "dom",
			"input delivered; its list shows 2 option(s): offers", ""},
		{"raw input, a request still running", effects{running: 2}, "none", "input delivered; 2 request(s) it started still running", ""},
		{"a key moved the focus", effects{focused: `textbox "Bio" e9`}, "none", `input delivered; the focus moved to textbox "Bio" e9`, ""},
		{"a key moved the focus, nothing else showed", effects{changes: "no visible change", focused: `menuitem "Open" e4`}, "none",
			`input delivered; the focus moved to menuitem "Open" e4`, ""},
		{"a key moved the focus and opened a menu", effects{changes: "3 elements shown", focused: `menuitem "Open" e4`}, "dom",
			`3 elements shown; the focus moved to menuitem "Open" e4`, ""},
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

func TestTheWaitForANavigationTakesAnyValueWhereASecretIsMasked(t *testing.T) {
	_, next := changeOf(3, effects{navigating: "http://a/cb?code=[redacted]&s=1", url: "http://a/"})
	require.Len(t, next, 1)
	assert.Equal(t, map[string]any{"url": "http://a/cb?code=*&s=1", "timeoutMs": 60000, "tabId": 3}, next[0].Args)
}

func TestAClickedSelectPointsToInteractSelect(t *testing.T) {
	raw, _ := json.Marshal("Small")
	delivered := true
	ch, next := changeOf(7, actedEffects(browser.Acted{Ref: "e3", Delivered: &delivered, Changes: "no visible change",
		Value: raw, Options: []string{"Small", "Medium", "Large"}}))
	assert.Equal(t, "none", ch.Type)
	assert.Contains(t, ch.Summary, "pick with interact select, from Small, Medium, Large")
	require.Len(t, next, 1)
	assert.Equal(t, map[string]any{"action": "select", "ref": "e3", "values": []string{"Medium"}, "tabId": 7}, next[0].Args,
		"an option other than the one it holds")
}

func TestOnlyAValueTheControlKeptCountsAsWritten(t *testing.T) {
	yes, no := true, false
	val, _ := json.Marshal("Bob")
	tests := []struct {
		name  string
		a     browser.Acted
		wrote bool
	}{
		{"fill kept", browser.Acted{Action: "fill", Value: val, Verified: &yes}, true},
		{"fill not kept", browser.Acted{Action: "fill", Value: val, Verified: &no}, false},
		{"a secret", browser.Acted{Action: "fill", ValueSet: true, Verified: &yes}, true},
		{"select", browser.Acted{Action: "select", Value: val}, true},
		{"a click on a field", browser.Acted{Action: "click", Value: val}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.wrote, actedEffects(tt.a).wrote)
		})
	}
}

func TestABoxThePageKeptSaysItStayed(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name   string
		a      browser.Acted
		stayed string
	}{
		{"check refused", browser.Acted{Action: "check", Checked: &no, Verified: &no}, "unchecked"},
		{"uncheck refused", browser.Acted{Action: "uncheck", Checked: &yes, Verified: &no}, "checked"},
		{"check took", browser.Acted{Action: "check", Checked: &yes, Verified: &yes}, ""},
		{"a click on a box", browser.Acted{Action: "click", Checked: &no, Verified: &no}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.stayed, actedEffects(tt.a).stayed)
		})
	}
}

func TestAQueryNamingAnOptionPicksIt(t *testing.T) {
	size := browser.Candidate{Ref: 3, Role: "combobox", Name: "Size", Option: "Medium"}
	text := "Large"
	tests := []struct {
		name   string
		act    browser.Act
		c      browser.Candidate
		action string
		values []string
		err    string
	}{
		{"a click on the option picks it", browser.Act{Action: "click"}, size, "select", []string{"Medium"}, ""},
		{"select takes its option from the query", browser.Act{Action: "select"}, size, "select", []string{"Medium"}, ""},
		{"values given are kept", browser.Act{Action: "select", Values: []string{"Large"}}, size, "select", []string{"Large"}, ""},
		{"so is text", browser.Act{Action: "select", Text: &text}, size, "select", nil, ""},
		{"a hover stays a hover", browser.Act{Action: "hover"}, size, "hover", nil, ""},
		{"a select by its own name needs values", browser.Act{Action: "select"}, browser.Candidate{Ref: 3, Role: "combobox", Name: "Size"}, "", nil,
			`select needs values, e.g. ["Norway"]: the query named e3 (combobox "Size"), not one of its options`},
		{"a click on the select itself stays a click", browser.Act{Action: "click"}, browser.Candidate{Ref: 3, Role: "combobox"}, "click", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := tt.act
			err := pickOption(&a, tt.c)
			if tt.err != "" {
				require.Error(t, err)
				assert.Equal(t, tt.err, protocol.AsError(err).Message)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.action, a.Action)
			assert.Equal(t, tt.values, a.Values)
		})
	}
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
	a.Blocked.Escapes = true
	assert.Equal(t, `click e41 (button "Accept all") to dismiss it (or press Escape: interact action press, key Escape), then act again`,
		blockedError(a).Hint, "a modal <dialog> closes on Escape")
	a.Blocked.Escapes = false

	a.Blocked.Dismiss = nil
	assert.Contains(t, blockedError(a).Hint, "press Escape", "the way out of an overlay with no button")
	assert.Contains(t, blockedError(a).Hint, "oc_handoff_start")
	pinned := browser.Acted{Target: `button "More"`, Ref: "e9", Blocked: &browser.Blocked{
		By: &browser.Control{Ref: "e5", Name: `contentinfo "Fixed footer"`}, Pinned: true}}
	assert.Equal(t, `it is fixed over the page and nothing closes it; reach e9 by keyboard as a person would `+
		`(interact action focus, ref e9, then press Enter), or call oc_handoff_start with reason manual_recovery`, blockedError(pinned).Hint,
		"the page's own footer: no Escape closes it")
	unseen := browser.Acted{Target: `button "Continue"`, Ref: "e12", Blocked: &browser.Blocked{
		By: &browser.Control{Ref: "e13", Name: "div"}, Dismiss: []browser.Control{}, Unseen: true}}
	assert.Equal(t, `button "Continue" is covered by div e13, a transparent layer a person does not see: nothing was done`, blockedError(unseen).Message)
	assert.Equal(t, `press Escape (interact action press, key Escape), or reach e12 by keyboard as a person would `+
		`(interact action focus, ref e12, then press Enter), or call oc_handoff_start with reason manual_recovery`, blockedError(unseen).Hint)
	a.Blocked = &browser.Blocked{By: &browser.Control{Ref: "e45", Name: `generic "Plan Pro" clickable`}, PassThrough: true}
	assert.Equal(t, `button "Pay" takes no clicks: they go through it to generic "Plan Pro" clickable e45; nothing was done`, blockedError(a).Message)
	assert.Contains(t, blockedError(a).Hint, "click e45 if that is what you mean")
	a.Blocked.By = nil
	assert.Equal(t, `button "Pay" takes no clicks (the page turned them off): nothing was done`, blockedError(a).Message)
	assert.Contains(t, blockedError(a).Hint, "a person cannot click it either")

	a.Blocked = &browser.Blocked{By: &browser.Control{Ref: "e50", Name: `dialog "Really leave?"`},
		Asks: []browser.Control{{Ref: "e51", Name: `button "Stay"`}, {Ref: "e52", Name: `button "Leave"`}}}
	assert.Equal(t, `it asks a question: answer it with one of button "Stay" e51, button "Leave" e52 (or ask the person which), then act again`,
		blockedError(a).Hint)
}

func TestAHiddenMatchSaysWhereToLook(t *testing.T) {
	in := &browser.HiddenMatch{Name: `link "Widgets"`, Holder: &browser.Control{Ref: "e3", Name: `div "Products"`}}
	assert.Equal(t, `link "Widgets" is there but hidden, inside div "Products" e3`, hiddenWhere(in))
	assert.Equal(t, "hover or click e3 to show it, then act again", hiddenHint(in))
	alone := &browser.HiddenMatch{Name: `button "Gadgets"`}
	assert.Equal(t, `button "Gadgets" is there but hidden`, hiddenWhere(alone))
	assert.Contains(t, hiddenHint(alone), "read_page shows what is visible now")
	option := &browser.HiddenMatch{Name: `option "Newest"`, Holder: &browser.Control{Ref: "e7", Name: `combobox "Sort by"`}}
	assert.Equal(t, `interact select with ref e7 and values ["Newest"] opens its list and picks it`, hiddenHint(option))
	closed := &browser.HiddenMatch{Name: `button "Close"`, ClosedIn: `dialog "Settings"`}
	assert.Equal(t, `button "Close" is there but hidden, in dialog "Settings", which is not open`, hiddenWhere(closed))
	assert.Equal(t, `open dialog "Settings" first (the page's control that opens it), then act again`, hiddenHint(closed))
}

func TestAPlaceNotOnThePageSaysWhereTheControlsAre(t *testing.T) {
	two := &browser.Elsewhere{Name: "Add to cart", Where: "Green mug", Count: 2,
		Alike: []browser.Placed{{Ref: 5, Near: "Blue mug"}, {Ref: 9, Near: "Red mug"}}}
	assert.Equal(t, `2 "Add to cart" are on the page, none near "Green mug": e5 near "Blue mug", e9 near "Red mug"`, elsewhereWhat(two))
	many := &browser.Elsewhere{Name: "Delete", Where: "Invoice 9", Count: 5, Alike: []browser.Placed{{Ref: 1}, {Ref: 2}, {Ref: 3}}}
	assert.Equal(t, `5 "Delete" are on the page, none near "Invoice 9": e1, e2, e3 and 2 more`, elsewhereWhat(many))
	one := &browser.Elsewhere{Name: "Edit", Where: "Bob", Count: 1, Alike: []browser.Placed{{Ref: 4, Near: "Ann"}}}
	assert.Equal(t, `1 "Edit" is on the page, none near "Bob": e4 near "Ann"`, elsewhereWhat(one))
}

func TestFormInputSaysATextItsFieldsWriteOnce(t *testing.T) {
	yes := true
	filled := func(changes string) browser.Acted {
		raw, _ := json.Marshal("x")
		return browser.Acted{Action: "fill", Delivered: &yes, Value: raw, Changes: changes}
	}
	tests := []struct {
		name    string
		changes []string
		want    string
	}{
		{"a summary the page writes as it fills", []string{`text changed: "a=1"`, `text changed: "a=1 b=2"`, `text changed: "a=1 b=2 c=3…"`, `text changed: "a=1 b=2 c=3…"`},
			`A, B, C, D: text changed: "a=1 b=2 c=3…"`},
		{"a text each field writes", []string{`text changed: "Too short"`, `text changed: "Not an email"`},
			`A: text changed: "Too short"; B: text changed: "Not an email"`},
		{"the same change, a field that changed nothing between", []string{`1 element added: "Saved"`, `1 element added: "Saved"`, "no visible change", `1 element added: "Saved"`},
			`A, B, D: 1 element added: "Saved"`},
		{"a change that is not a text", []string{"2 elements added", "2 elements added, 1 removed"},
			"A: 2 elements added; B: 2 elements added, 1 removed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f fillChanges
			for i, c := range tt.changes {
				f.add(7, string(rune('A'+i)), filled(c))
			}
			ch, _ := f.change()
			assert.Equal(t, "dom", ch.Type)
			assert.Equal(t, tt.want, ch.Summary)
		})
	}
}
