package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

// acted is interact's result.
type acted struct {
	Action    string `json:"action"`
	Ref       string `json:"ref"`
	Strategy  string `json:"strategy"`
	Navigated bool   `json:"navigated"`
	URL       string `json:"url"`
	Title     string `json:"title"`
	Dialog    string `json:"dialog"`
	Changes   string `json:"changes"`
	Value     any    `json:"value"`
	Checked   any    `json:"checked"`
	Verified  *bool  `json:"verified"`
	Snapshot  string `json:"snapshot"`
	OK        *bool  `json:"ok"`
	Opened    []int  `json:"opened"`
	Closed    bool   `json:"closed"`
	Delivered bool   `json:"delivered"`
	Typed     string `json:"typed"`
	Found     string `json:"found"`
	Target    string `json:"target"`
	Answered  string `json:"answered"`
	Picked    *struct {
		Ref  string `json:"ref"`
		Name string `json:"name"`
	} `json:"picked"`
	Focused *struct {
		Ref  string `json:"ref"`
		Name string `json:"name"`
	} `json:"focused"`
	Offers []struct {
		Ref  string `json:"ref"`
		Name string `json:"name"`
	} `json:"offers"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Hint    string `json:"hint"`
	} `json:"error"`
	Blocked *struct {
		By struct {
			Ref  string `json:"ref"`
			Name string `json:"name"`
		} `json:"by"`
		Dismiss []struct {
			Ref  string `json:"ref"`
			Name string `json:"name"`
		} `json:"dismiss"`
		Asks []struct {
			Ref  string `json:"ref"`
			Name string `json:"name"`
		} `json:"asks"`
		Escapes bool `json:"escapes"`
	} `json:"blocked"`
	Change *struct {
		Type    string `json:"type"`
		Summary string `json:"summary"`
	} `json:"change"`
	NextActions []struct {
		Tool string         `json:"tool"`
		Args map[string]any `json:"args"`
	} `json:"nextActions"`
	Tried []struct {
		Strategy string `json:"strategy"`
		Result   string `json:"result"`
	} `json:"tried"`
	HITL *struct {
		Required      bool `json:"required"`
		SuggestedCall struct {
			Tool string         `json:"tool"`
			Args map[string]any `json:"args"`
		} `json:"suggested_call"`
	} `json:"hitl"`
}

func interact(t testing.TB, cs *mcp.ClientSession, args map[string]any) acted {
	t.Helper()
	var a acted
	okJSON(t, cs, "interact", args, &a)
	return a
}

// pageRuns reads a fixture page's window.runs: how many times each of its
// handlers ran, as the page itself counted.
func pageRuns(t testing.TB, cs *mcp.ClientSession, tab int) map[string]any {
	t.Helper()
	var r map[string]any
	require.NoError(t, json.Unmarshal([]byte(ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.runs"})), &r))
	return r
}

func TestAClickHappensOnce(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	runs := func(t *testing.T, tab int) map[string]any { return pageRuns(t, cs, tab) }

	t.Run("a plain click, and what it opened", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/dialogs.html")
		a := interact(t, cs, map[string]any{"query": "Alert", "action": "click", "tabId": tab})
		assert.Equal(t, "pointer", a.Strategy)
		assert.True(t, a.Delivered)
		assert.Equal(t, `alert "Hello from alert"`, a.Dialog)
		require.NotNil(t, a.Change)
		assert.Equal(t, "dialog", a.Change.Type)
		require.NotEmpty(t, a.NextActions)
		assert.Equal(t, "interact", a.NextActions[0].Tool)
		assert.Equal(t, "accept_dialog", a.NextActions[0].Args["action"])
		// The page runs on once it is answered: the answer says what it did.
		a = interact(t, cs, map[string]any{"action": "accept_dialog", "tabId": tab})
		require.NotNil(t, a.Change)
		assert.Equal(t, "dom", a.Change.Type, "%+v", a.Change)
		assert.Contains(t, a.Change.Summary, `answered alert "Hello from alert"; it says status "alert closed"`)
	})

	t.Run("what the page does after each answer is said with it", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/dialogs.html")
		interact(t, cs, map[string]any{"query": "Confirm", "action": "click", "tabId": tab})
		// The page asks again before it changes anything: that is the news.
		a := interact(t, cs, map[string]any{"action": "accept_dialog", "tabId": tab})
		require.NotNil(t, a.Change)
		assert.Equal(t, "dialog", a.Change.Type, "%+v", a.Change)
		assert.Equal(t, `alert "Deleted"`, a.Dialog)
		a = interact(t, cs, map[string]any{"action": "accept_dialog", "tabId": tab})
		assert.Equal(t, "dom", a.Change.Type, "%+v", a.Change)
		assert.Contains(t, a.Change.Summary, `answered alert "Deleted"; it says status "confirm: true"`)

		// Clicked by coordinates, and answered with words.
		var box struct{ X, Y int }
		okJSON(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `(() => { const r = document.querySelector("#prompt").getBoundingClientRect();
			return { X: Math.round(r.x + r.width / 2), Y: Math.round(r.y + r.height / 2) }; })()`}, &box)
		okJSON(t, cs, "computer", map[string]any{"action": "left_click", "coordinate": []int{box.X, box.Y}, "tabId": tab}, &a)
		assert.Equal(t, `prompt "Your name?"`, a.Dialog)
		a = interact(t, cs, map[string]any{"action": "accept_dialog", "text": "Bob", "tabId": tab})
		assert.Equal(t, "dom", a.Change.Type, "%+v", a.Change)
		assert.Contains(t, a.Change.Summary, `it says status "prompt: Bob"`)

		// A dialog no input of the agent's opened: answered, nothing more
		// to say of what the page did.
		ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `setTimeout(() => { document.querySelector("#status").textContent = "timer: " + confirm("From a timer?"); }, 50); 1`})
		require.Eventually(t, func() bool {
			return !call(t, cs, "interact", map[string]any{"action": "dismiss_dialog", "tabId": tab}).IsError
		}, 5*time.Second, 50*time.Millisecond)
		assert.Equal(t, `"timer: false"`, status(t, cs, tab))
	})

	t.Run("a button that moves when hovered is clicked where it went", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/moving.html")
		a := interact(t, cs, map[string]any{"query": "Catch me", "action": "click", "tabId": tab})
		assert.Equal(t, "pointer", a.Strategy)
		assert.Equal(t, `"caught"`, status(t, cs, tab))
	})

	t.Run("a button that pulses is clicked; one that slides on is not", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/moving.html")
		a := interact(t, cs, map[string]any{"query": "Pulse", "action": "click", "tabId": tab})
		assert.True(t, a.Delivered, "%+v", a)
		assert.Equal(t, `"pulse 1"`, status(t, cs, tab))

		r := call(t, cs, "interact", map[string]any{"query": "Drift", "action": "click", "tabId": tab})
		require.True(t, r.IsError, textOf(r))
		assert.Contains(t, textOf(r), "kept moving: nothing was done")
		assert.Equal(t, `"pulse 1"`, status(t, cs, tab), "the sliding button never ran")
	})

	t.Run("a button a script slides along is clicked once it stops", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/moving.html")
		interact(t, cs, map[string]any{"query": "Slide", "action": "click", "tabId": tab})
		assert.Equal(t, `"slide at 300"`, status(t, cs, tab))
	})

	t.Run("a partly covered button is clicked where it shows", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/moving.html")
		interact(t, cs, map[string]any{"query": "Half covered", "action": "click", "tabId": tab})
		assert.Equal(t, `"half covered clicked"`, status(t, cs, tab), "and never the overlay")
	})

	t.Run("a covered button: nothing is clicked, and what covers it is named", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/overlay.html")
		for _, name := range []string{"Covered save", "Trusted only"} {
			r := call(t, cs, "interact", map[string]any{"query": name, "action": "click", "tabId": tab})
			require.True(t, r.IsError, textOf(r))
			a := actedOf(t, r)
			require.NotNil(t, a.Error)
			assert.Equal(t, "conflict", a.Error.Code)
			assert.Contains(t, a.Error.Message, `div "Overlay"`)
			require.NotNil(t, a.Blocked)
			assert.Regexp(t, `^e\d+$`, a.Blocked.By.Ref)
			require.NotNil(t, a.HITL, "the person is suggested")
			assert.Equal(t, "oc_handoff_start", a.HITL.SuggestedCall.Tool)
			assert.EqualValues(t, tab, a.HITL.SuggestedCall.Args["tabId"])
		}
		assert.Equal(t, `""`, status(t, cs, tab), "neither the buttons nor the overlay ran")
	})

	t.Run("a cookie banner: nothing runs, its dismiss button is named; then exactly one run", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/act-once.html")
		r := call(t, cs, "interact", map[string]any{"query": "Pay", "action": "click", "tabId": tab})
		require.True(t, r.IsError, textOf(r))
		a := actedOf(t, r)
		assert.Equal(t, "conflict", a.Error.Code)
		assert.Contains(t, a.Blocked.By.Name, "Cookies")
		var accept string
		for _, d := range a.Blocked.Dismiss {
			if strings.Contains(d.Name, "Accept all") {
				accept = d.Ref
			}
		}
		require.NotEmpty(t, accept, "the banner's Accept all, by ref: %+v", a.Blocked)
		assert.Contains(t, a.Error.Hint, "dismiss")
		got := runs(t, tab)
		assert.EqualValues(t, 0, got["pay"])
		assert.EqualValues(t, 0, got["banner"], "the banner took no click either")

		interact(t, cs, map[string]any{"ref": accept, "action": "click", "tabId": tab})
		a = interact(t, cs, map[string]any{"query": "Pay", "action": "click", "tabId": tab})
		assert.True(t, a.Delivered)
		require.NotNil(t, a.Change)
		assert.Equal(t, `it says status "paid 1"`, a.Change.Summary, "what the page told the person, word for word")
		got = runs(t, tab)
		assert.EqualValues(t, 1, got["pay"])
		assert.Equal(t, []any{"pay:trusted"}, got["payTargets"])
	})

	t.Run("a button that only sends a request: delivered, once", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/act-once.html")
		// The page adds a button of its own 800 ms after it loads; a click
		// before then would see it come.
		ok(t, cs, "wait_for", map[string]any{"text": "Added later", "tabId": tab})
		a := interact(t, cs, map[string]any{"query": "Send report", "action": "click", "tabId": tab})
		assert.True(t, a.Delivered)
		require.NotNil(t, a.Change)
		assert.Equal(t, "none", a.Change.Type)
		assert.Contains(t, a.Change.Summary, "delivered")
		assert.NotContains(t, a.Change.Summary, "failed", "its request was answered")
		assert.EqualValues(t, 1, runs(t, tab)["send"])
	})

	t.Run("a link to a page that is gone: the server's answer is said", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/act-once.html")
		a := interact(t, cs, map[string]any{"query": "Old news", "action": "click", "tabId": tab})
		require.NotNil(t, a.Change)
		assert.Equal(t, "navigation", a.Change.Type)
		assert.Equal(t, "navigated to "+site.URL+"/old-news; the server answered 404 Not Found", a.Change.Summary)
	})

	t.Run("a button whose request the server refuses: delivered once, and the refusal is said", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/act-once.html")
		ok(t, cs, "wait_for", map[string]any{"text": "Added later", "tabId": tab})
		r := call(t, cs, "interact", map[string]any{"query": "Post comment", "action": "click", "tabId": tab})
		require.False(t, r.IsError, textOf(r))
		var a struct {
			acted
			RequestErrors []string `json:"requestErrors"`
		}
		require.NoError(t, json.Unmarshal([]byte(textOf(r)), &a))
		assert.True(t, a.Delivered)
		assert.Equal(t, []string{"POST /api/refuse: 500 Internal Server Error"}, a.RequestErrors)
		require.NotNil(t, a.Change)
		assert.Equal(t, "none", a.Change.Type)
		assert.Equal(t, "input delivered; no visible change; a request it sent failed: POST /api/refuse: 500 Internal Server Error (requestErrors)",
			a.Change.Summary)
		assert.EqualValues(t, 1, runs(t, tab)["comment"], "not sent again")

		// A click by coordinates says it as well.
		var at struct{ X, Y int }
		okJSON(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `(() => { const r = document.querySelector("#comment").getBoundingClientRect();
			return { X: Math.round(r.x + r.width / 2), Y: Math.round(r.y + r.height / 2) }; })()`}, &at)
		a.RequestErrors = nil
		okJSON(t, cs, "computer", map[string]any{"action": "left_click", "coordinate": []int{at.X, at.Y}, "tabId": tab}, &a)
		assert.Equal(t, []string{"POST /api/refuse: 500 Internal Server Error"}, a.RequestErrors)
		assert.EqualValues(t, 2, runs(t, tab)["comment"])
	})

	t.Run("what a click's request brings back is in its answer", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/answers.html")
		a := interact(t, cs, map[string]any{"query": "Search", "action": "click", "tabId": tab})
		require.NotNil(t, a.Change)
		assert.Equal(t, "dom", a.Change.Type, "the results came 400 ms after the click")
		assert.Contains(t, a.Change.Summary, "3 elements added")
		assert.EqualValues(t, 1, pageRuns(t, cs, tab)["search"])

		a = interact(t, cs, map[string]any{"query": "Sign in", "action": "click", "tabId": tab})
		require.NotNil(t, a.Change)
		assert.Equal(t, "navigation", a.Change.Type, "the script's redirect once the sign-in was answered")
		assert.Equal(t, "navigated to "+site.URL+"/", a.Change.Summary)

		tab = openTab(t, cs, site.URL+"/answers.html")
		a = interact(t, cs, map[string]any{"query": "Town", "action": "type", "text": "Par", "tabId": tab})
		require.NotNil(t, a.Change)
		assert.Equal(t, `2 elements added: "Paris", "Parma"`, a.Change.Summary, "the suggestions asked for as it was typed, quoted")

		// A search box that waits for the typing to pause before it asks.
		a = interact(t, cs, map[string]any{"query": "Search the docs", "action": "type", "text": "re", "tabId": tab})
		require.NotNil(t, a.Change)
		assert.Equal(t, `2 elements added: "list.retain", "list.remove"`, a.Change.Summary, "asked for 300 ms after the last key")
		a = interact(t, cs, map[string]any{"query": "Search the docs", "action": "fill", "text": "get", "tabId": tab})
		require.NotNil(t, a.Change)
		assert.Equal(t, `1 element added: "dict.get", 2 removed: "list.retain", "list.remove"`, a.Change.Summary)

		a = interact(t, cs, map[string]any{"query": "Sync", "action": "click", "tabId": tab})
		require.NotNil(t, a.Change)
		assert.Equal(t, "none", a.Change.Type)
		assert.Contains(t, a.Change.Summary, "1 request it started still running", "a request that does not end is said, not waited for")
		assert.Equal(t, map[string]any{"search": 0.0, "signin": 0.0, "sync": 1.0}, pageRuns(t, cs, tab))
		ok(t, cs, "tabs_close", map[string]any{"tabId": tab}) // its request ends with it
	})

	t.Run("what a click starts on a timer is in its answer", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/answers.html")
		a := interact(t, cs, map[string]any{"query": "Check later", "action": "click", "tabId": tab})
		require.NotNil(t, a.Change)
		assert.Equal(t, `text changed: "Checked"`, a.Change.Summary, "the request 300 ms after the click, and what it brought")

		a = interact(t, cs, map[string]any{"query": "Copy link", "action": "click", "tabId": tab})
		require.NotNil(t, a.Change)
		assert.Equal(t, `it now reads "Copied"`, a.Change.Summary, "the button's own words")

		a = interact(t, cs, map[string]any{"query": "Open later", "action": "click", "tabId": tab})
		require.NotNil(t, a.Change)
		assert.Equal(t, "new_tab", a.Change.Type, "the tab opened 300 ms after the click: %+v", a)
		require.Len(t, a.Opened, 1)
		ok(t, cs, "tabs_close", map[string]any{"tabId": a.Opened[0]})
		assert.Equal(t, map[string]any{"search": 0.0, "signin": 0.0, "sync": 0.0, "check-later": 1.0, "open-later": 1.0},
			pageRuns(t, cs, tab))

		a = interact(t, cs, map[string]any{"query": "Save", "action": "click", "tabId": tab})
		require.NotNil(t, a.Change)
		assert.Equal(t, "navigation", a.Change.Type, "the redirect 800 ms after the click: %+v", a)
		assert.Equal(t, "navigated to "+site.URL+"/list.html", a.Change.Summary)
	})

	t.Run("a click by coordinates and a key at the focus are watched on too", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/answers.html")
		var at struct{ X, Y int }
		okJSON(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `(() => { const r = document.querySelector("#open-later").getBoundingClientRect();
			return { X: Math.round(r.x + r.width / 2), Y: Math.round(r.y + r.height / 2) }; })()`}, &at)
		var a acted
		okJSON(t, cs, "computer", map[string]any{"action": "left_click", "coordinate": []int{at.X, at.Y}, "tabId": tab}, &a)
		require.NotNil(t, a.Change)
		assert.Equal(t, "new_tab", a.Change.Type, "the tab opened 300 ms after the click: %+v", a.Change)
		require.Len(t, a.Opened, 1)
		ok(t, cs, "tabs_close", map[string]any{"tabId": a.Opened[0]})

		// Enter on the focused "Show later", on a page still for 2 s.
		ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `document.querySelector("#show-later").focus()`})
		ok(t, cs, "wait_for", map[string]any{"timeoutMs": 2100, "tabId": tab})
		a = interact(t, cs, map[string]any{"action": "press", "key": "Enter", "tabId": tab})
		require.NotNil(t, a.Change)
		assert.Equal(t, `text changed: "Shown"`, a.Change.Summary)
		assert.Equal(t, 1.0, pageRuns(t, cs, tab)["show-later"])
		ok(t, cs, "tabs_close", map[string]any{"tabId": tab})
	})

	t.Run("what a still page draws on a timer its click set is said; what ticks on its own is not", func(t *testing.T) {
		// The page script hears the page from its first read: a page is
		// still when nothing has changed in it for 2 s before the click,
		// but for what changes on its own again and again (a clock, known
		// as one from its second tick).
		still := func(tab int) {
			ok(t, cs, "read_page", map[string]any{"tabId": tab})
			ok(t, cs, "wait_for", map[string]any{"timeoutMs": 2600, "tabId": tab})
		}
		tab := openTab(t, cs, site.URL+"/answers.html")
		// At once, as an agent that navigates and clicks: what the page did
		// as it loaded is no timer of its own.
		a := interact(t, cs, map[string]any{"query": "Show later", "action": "click", "tabId": tab})
		require.NotNil(t, a.Change)
		assert.Equal(t, "dom", a.Change.Type)
		assert.Equal(t, `text changed: "Shown"`, a.Change.Summary, "drawn 300 ms after the click, with no request between")
		still(tab)
		a = interact(t, cs, map[string]any{"query": "Filter the pages", "action": "type", "text": "dict", "tabId": tab})
		require.NotNil(t, a.Change)
		assert.Equal(t, `1 element added: "dict.get"`, a.Change.Summary, "a search box's matches drawn 300 ms after the last key")
		ok(t, cs, "tabs_close", map[string]any{"tabId": tab})

		tab = openTab(t, cs, site.URL+"/clock.html")
		still(tab)
		a = interact(t, cs, map[string]any{"query": "Nothing", "action": "click", "tabId": tab})
		require.NotNil(t, a.Change)
		assert.Equal(t, "none", a.Change.Type, "the clock ticks on its own: %s", a.Change.Summary)
		assert.Equal(t, "input delivered; no visible change", a.Change.Summary)
		a = interact(t, cs, map[string]any{"query": "Show later", "action": "click", "tabId": tab})
		require.NotNil(t, a.Change)
		assert.Equal(t, `text changed: "Shown"`, a.Change.Summary, "the clock ticking beside it")
		assert.Equal(t, map[string]any{"nothing": 1.0, "show-later": 1.0}, pageRuns(t, cs, tab))
		ok(t, cs, "tabs_close", map[string]any{"tabId": tab})
	})

	t.Run("a query two elements answer alike clicks neither, and says where each is", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/act-once.html")
		err := fails(t, cs, "interact", map[string]any{"query": "Add to cart", "action": "click", "tabId": tab}, protocol.CodeConflict)
		assert.Regexp(t, `"Add to cart" matches 2 elements .* alike: e\d+ \(button "Add to cart" near "Blue shirt"\), e\d+ \(button "Add to cart" near "Red shirt"\); nothing was done`, err.Message)
		assert.Equal(t, []any{}, runs(t, tab)["cart"])

		// A place the page does not show: the two it does are named.
		assert.Regexp(t, `no match for "Add to cart near Green shirt" .*: 2 "Add to cart" are on the page, none near "Green shirt": e\d+ near "Blue shirt", e\d+ near "Red shirt"`,
			ok(t, cs, "find", map[string]any{"query": "Add to cart near Green shirt", "tabId": tab}))

		found := ok(t, cs, "find", map[string]any{"query": "Add to cart", "tabId": tab})
		red := regexp.MustCompile(`button "Add to cart" (e\d+) near "Red shirt"`).FindStringSubmatch(found)
		require.NotNil(t, red, found)
		interact(t, cs, map[string]any{"ref": red[1], "action": "click", "tabId": tab})
		assert.Equal(t, []any{"red"}, runs(t, tab)["cart"])

		// The hint says how to name the place; a query that does is taken.
		assert.Equal(t, `act on the one you mean by its ref, or say where it is, like "Add to cart near Blue shirt"`, err.Hint)
		blue := interact(t, cs, map[string]any{"query": "Add to cart near Blue shirt", "action": "click", "tabId": tab})
		assert.Contains(t, blue.Found, `near "Blue shirt"`)
		interact(t, cs, map[string]any{"query": "red shirt add to cart", "action": "click", "tabId": tab})
		assert.Equal(t, []any{"red", "blue", "red"}, runs(t, tab)["cart"])

		// A label two fields answer alike: neither is filled.
		tab = openTab(t, cs, site.URL+"/answers.html")
		r := call(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{{"label": "Email", "value": "ada@example.com"}}})
		require.True(t, r.IsError, textOf(r))
		var filled struct {
			Fields []struct {
				Error *protocol.Error `json:"error"`
			} `json:"fields"`
		}
		require.NoError(t, json.Unmarshal([]byte(textOf(r)), &filled))
		require.Len(t, filled.Fields, 1)
		require.NotNil(t, filled.Fields[0].Error)
		assert.Equal(t, protocol.CodeConflict, filled.Fields[0].Error.Code)
		assert.Regexp(t, `"Email" matches 2 elements .* alike: e\d+ \(textbox "Email" near "Sign in"\), e\d+ \(textbox "Email" near "Newsletter"\)`, filled.Fields[0].Error.Message)
		assert.Equal(t, `""`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab,
			"code": "document.getElementById('signin-email').value + document.getElementById('news-email').value"}))
	})

	t.Run("a button whose handler throws: delivered once, and the error is said", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/act-once.html")
		r := call(t, cs, "interact", map[string]any{"query": "Broken save", "action": "click", "tabId": tab})
		require.False(t, r.IsError, textOf(r))
		var a struct {
			acted
			PageErrors []string `json:"pageErrors"`
		}
		require.NoError(t, json.Unmarshal([]byte(textOf(r)), &a))
		assert.True(t, a.Delivered)
		assert.Equal(t, []string{"TypeError: saveDraft is not a function"}, a.PageErrors)
		require.NotNil(t, a.Change)
		assert.Contains(t, a.Change.Summary, "the page threw")
		assert.EqualValues(t, 1, runs(t, tab)["broken"])
	})

	t.Run("a mailto link is not clicked: Chrome would hand it to another app, and its prompt would hold the tab", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/act-once.html")
		err := fails(t, cs, "interact", map[string]any{"query": "Email support", "action": "click", "tabId": tab}, protocol.CodeDomainBlocked)
		assert.Contains(t, err.Message, "opens mailto:support@example.com in another application")
		assert.Contains(t, err.Message, "nothing was clicked")
		assert.EqualValues(t, 0, runs(t, tab)["mail"])
		// Nor at its point, by computer.
		var at []float64
		okJSON(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `(() => { const a = document.querySelector("#mail");
			a.scrollIntoView(); const r = a.getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)] })()`}, &at)
		err = fails(t, cs, "computer", map[string]any{"action": "left_click", "coordinate": at, "tabId": tab}, protocol.CodeDomainBlocked)
		assert.Contains(t, err.Message, "opens mailto:support@example.com in another application")
		assert.EqualValues(t, 0, runs(t, tab)["mail"])
		// Nor followed by Enter: by ref, at the focus, by computer.
		err = fails(t, cs, "interact", map[string]any{"query": "Email support", "action": "press", "key": "Enter", "tabId": tab}, protocol.CodeDomainBlocked)
		assert.Contains(t, err.Message, "nothing was pressed")
		interact(t, cs, map[string]any{"query": "Email support", "action": "focus", "tabId": tab})
		fails(t, cs, "interact", map[string]any{"action": "press", "key": "Enter", "tabId": tab}, protocol.CodeDomainBlocked)
		err = fails(t, cs, "computer", map[string]any{"action": "key", "text": "Return", "tabId": tab}, protocol.CodeDomainBlocked)
		assert.Contains(t, err.Message, "the focused link")
		assert.EqualValues(t, 0, runs(t, tab)["mail"])
		interact(t, cs, map[string]any{"query": "Send report", "action": "click", "tabId": tab})
		assert.EqualValues(t, 1, runs(t, tab)["send"], "the tab takes input as before")
	})

	t.Run("a button enabled after a delay is waited for, then clicked once", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/act-once.html")
		interact(t, cs, map[string]any{"query": "Late button", "action": "click", "tabId": tab})
		assert.EqualValues(t, 1, runs(t, tab)["late"])
	})

	t.Run("a button added after a delay is waited for, then clicked once", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/act-once.html")
		interact(t, cs, map[string]any{"query": "Added later", "action": "click", "tabId": tab})
		assert.EqualValues(t, 1, runs(t, tab)["added"])
	})

	t.Run("an element under a sticky header, or below a scrolling list's view, is scrolled to and clicked once", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/reach.html")
		// "Near the top" under the header, as after a person's scrolling.
		ok(t, cs, "javascript_tool", map[string]any{"tabId": tab,
			"code": "scrollBy(0, document.getElementById('near').getBoundingClientRect().top - 30)"})
		for _, name := range []string{"Near the top", "Inner save"} {
			a := interact(t, cs, map[string]any{"query": name, "action": "click", "tabId": tab})
			assert.Equal(t, "pointer", a.Strategy, name)
		}
		r := runs(t, tab)
		assert.EqualValues(t, 1, r["near"])
		assert.EqualValues(t, 1, r["inner"])
	})

	t.Run("a hover that opens a CSS menu says so, and its item is found and clicked", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/reach.html")
		a := interact(t, cs, map[string]any{"query": "Account", "action": "hover", "tabId": tab})
		assert.Regexp(t, `2 elements shown: ".*Log out.*"`, a.Change.Summary, "the menu and its link, quoted; no element was added")
		require.NotNil(t, a.Change)
		assert.Equal(t, "dom", a.Change.Type)
		// "Log out" is a name, though "log" is a role.
		interact(t, cs, map[string]any{"query": "Log out", "action": "click", "tabId": tab})
		assert.EqualValues(t, 1, runs(t, tab)["logout"])
		tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
		assert.Regexp(t, `Found a link "bug" e\d+ -> /?bugs\.html \?`, tree, "the question keeps its mark")
	})

	t.Run("a button drawn anew as the pointer comes over it is found again and clicked once", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/reach.html")
		a := interact(t, cs, map[string]any{"query": "Publish", "action": "click", "tabId": tab})
		assert.True(t, a.Delivered)
		r := runs(t, tab)
		assert.EqualValues(t, 1, r["publish"])
		assert.EqualValues(t, 2, r["redrawn"], "the pointer came over the first button, then over the new one")
	})

	t.Run("a link with no box of its own is clicked where its content shows, once", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/reach.html")
		tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
		for _, name := range []string{"Wrapped card", "Floated card"} {
			a := interact(t, cs, map[string]any{"ref": refOf(t, tree, `link "`+name+`"`), "action": "click", "tabId": tab})
			assert.Equal(t, "pointer", a.Strategy, name)
		}
		r := runs(t, tab)
		assert.EqualValues(t, 1, r["wrapped"])
		assert.EqualValues(t, 1, r["floated"])
	})

	t.Run("a button the page's fixed footer covers at its end is not clicked; the keyboard reaches it once", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/reach.html")
		err := fails(t, cs, "interact", map[string]any{"query": "Last word", "action": "click", "tabId": tab}, protocol.CodeConflict)
		assert.Regexp(t, `button "Last word" is covered by contentinfo "Site footer" e\d+: nothing was done`, err.Message)
		assert.Regexp(t, `reach e\d+ by keyboard as a person would \(interact action focus, ref e\d+, then press Enter\)`, err.Hint,
			"no Escape or button closes the page's own footer")
		assert.EqualValues(t, 0, runs(t, tab)["last"])
		ref := regexp.MustCompile(`ref (e\d+)`).FindStringSubmatch(err.Hint)[1]
		interact(t, cs, map[string]any{"ref": ref, "action": "focus", "tabId": tab})
		interact(t, cs, map[string]any{"action": "press", "key": "Enter", "tabId": tab})
		assert.EqualValues(t, 1, runs(t, tab)["last"])
	})

	t.Run("a button under a transparent layer is not clicked; the answer says no one sees the layer", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/reach.html")
		r := call(t, cs, "interact", map[string]any{"query": "Behind glass", "action": "click", "tabId": tab})
		require.True(t, r.IsError)
		var out struct {
			Error   protocol.Error
			Blocked struct{ Unseen bool }
		}
		require.NoError(t, json.Unmarshal([]byte(textOf(r)), &out), textOf(r))
		assert.Regexp(t, `button "Behind glass" is covered by div e\d+, a transparent layer a person does not see: nothing was done`, out.Error.Message)
		assert.True(t, out.Blocked.Unseen)
		assert.EqualValues(t, 0, runs(t, tab)["glass"])
		ref := regexp.MustCompile(`ref (e\d+)`).FindStringSubmatch(out.Error.Hint)[1]
		interact(t, cs, map[string]any{"ref": ref, "action": "focus", "tabId": tab})
		interact(t, cs, map[string]any{"action": "press", "key": "Enter", "tabId": tab})
		assert.EqualValues(t, 1, runs(t, tab)["glass"])
	})

	t.Run("what comes under the pointer as it presses takes nothing, and the button is clicked once where it went", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/swap.html")
		a := interact(t, cs, map[string]any{"query": "Pay", "action": "click", "tabId": tab})
		assert.True(t, a.Delivered)
		r := runs(t, tab)
		assert.EqualValues(t, 1, r["pay"])
		assert.EqualValues(t, 0, r["trap"], "the click met Trap first, and was stopped there")

		tab = openTab(t, cs, site.URL+"/swap.html?always")
		err := fails(t, cs, "interact", map[string]any{"query": "Pay", "action": "click", "tabId": tab}, protocol.CodeConflict)
		assert.Contains(t, err.Message, `button "Trap" came under the pointer`)
		r = runs(t, tab)
		assert.EqualValues(t, 0, r["pay"])
		assert.EqualValues(t, 0, r["trap"])
	})

	t.Run("a disabled element is refused, not forced", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/form.html")
		err := fails(t, cs, "interact", map[string]any{"query": "Archive", "action": "click", "tabId": tab}, protocol.CodeBadRequest)
		assert.Contains(t, err.Message, "disabled")
		assert.Contains(t, err.Hint, "enabled")
	})
}

func TestReadPageShowsWhatAPersonCanUse(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/listeners.html")
	runs := func() map[string]any { return pageRuns(t, cs, tab) }

	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	assert.NotContains(t, tree, "Invisible words", "a visibility:hidden parent's own text stays hidden")
	rename := refOf(t, tree, `h2 "Double-click to rename"`)
	assert.Contains(t, tree, rename+" clickable (double_click)", "a script listens on it for double clicks: it is marked so")
	file := refOf(t, tree, `generic "quarterly.pdf"`)
	assert.Contains(t, tree, file+" clickable (right_click)", "and for right clicks")
	found := ok(t, cs, "find", map[string]any{"query": "quarterly.pdf", "tabId": tab})
	assert.Contains(t, found, file+" clickable (right_click) (", "find says so too")
	plan := refOf(t, tree, `generic "Plan Pro, $10 a month"`)
	assert.Contains(t, tree, plan+" clickable\n", "a click reaches the card: nothing more is said")
	shown := refOf(t, tree, `button "Shown anyway"`)
	// aria-hidden keeps it from a screen reader, not from a person's eyes.
	assert.Contains(t, tree, "Rated 4.5 of 5")
	rate := refOf(t, tree, `button "Rate it"`)
	assert.NotContains(t, tree, "Parked words", "nobody sees what is parked off the page")
	assert.Contains(t, tree, "Sandals NEW", "words a style sheet writes are seen")
	assert.Contains(t, tree, "Inbox 3", "apart from the text their margin sets them off from")
	assert.Contains(t, tree, "| Price: $10", "and those it takes from an attribute")
	assert.Contains(t, tree, `textbox "Email *"`, "a label's asterisk names its control, as Chrome names it")
	assert.Contains(t, tree, `button "Publish now"`, "a button's words in its style sheet are part of its name")
	assert.Contains(t, tree, `link "Settings"`, "a picture the style sheet draws writes no words: its quoted URL is no name")
	assert.Contains(t, tree, `link "Help"`, "one is named by its alternative text")
	assert.NotContains(t, tree, "data:image")
	// Seen, but not usable: said so, and not clicked (each waited for
	// first, as a button enabled late is: one is enough to show it).
	ship := refOf(t, tree, `button "Ship it"`)
	assert.Contains(t, tree, ship+" disabled", "by its fieldset")
	archive := refOf(t, tree, `button "Archive"`)
	assert.Contains(t, tree, archive+" disabled", "inert")
	err := fails(t, cs, "interact", map[string]any{"ref": archive, "action": "click", "tabId": tab}, protocol.CodeBadRequest)
	assert.Contains(t, err.Message, "is disabled")

	star := refOf(t, tree, `generic "Star this"`)
	card := refOf(t, tree, `generic "Open the frame's card"`)
	vault := refOf(t, tree, `generic "Open the vault"`)
	assert.Contains(t, tree, star+" clickable", "a listener in an open shadow root counts")
	assert.Contains(t, tree, vault+" clickable", "one in a closed root on a plain div")
	assert.Contains(t, tree, card+" clickable", "and one in a same-origin frame")

	// An agent that clicks it anyway is told what it listens for.
	a := interact(t, cs, map[string]any{"ref": rename, "action": "click", "tabId": tab})
	require.NotNil(t, a.Change)
	assert.Equal(t, "input delivered; no visible change: its script listens for a double click, not a click", a.Change.Summary)
	require.NotEmpty(t, a.NextActions)
	assert.Equal(t, map[string]any{"action": "double_click", "ref": rename, "tabId": float64(tab)}, a.NextActions[0].Args)
	interact(t, cs, map[string]any{"ref": rename, "action": "double_click", "tabId": tab})
	interact(t, cs, map[string]any{"ref": file, "action": "right_click", "tabId": tab})
	interact(t, cs, map[string]any{"ref": plan, "action": "click", "tabId": tab})
	interact(t, cs, map[string]any{"ref": shown, "action": "click", "tabId": tab})
	interact(t, cs, map[string]any{"ref": star, "action": "click", "tabId": tab})
	interact(t, cs, map[string]any{"ref": vault, "action": "click", "tabId": tab})
	interact(t, cs, map[string]any{"ref": card, "action": "click", "tabId": tab})
	interact(t, cs, map[string]any{"ref": rate, "action": "click", "tabId": tab})
	// Named by its style sheet, an icon glyph left out: found by those words.
	refOf(t, tree, `button "Save draft"`)
	interact(t, cs, map[string]any{"query": "Save draft", "action": "click", "tabId": tab})
	// The areas of an image map: links on the picture, clicked where their
	// shapes are.
	interact(t, cs, map[string]any{"ref": refOf(t, tree, `link "Kitchen"`), "action": "click", "tabId": tab})
	interact(t, cs, map[string]any{"query": "Bathroom", "action": "click", "tabId": tab})
	assert.Equal(t, `"#bath-plan"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "location.hash"}))
	// A chart's bars: shapes a script listens on, named by their <title>.
	interact(t, cs, map[string]any{"ref": refOf(t, tree, `"Q1: 80"`), "action": "click", "tabId": tab})
	interact(t, cs, map[string]any{"query": "Q2: 60", "action": "click", "tabId": tab})
	// A button whose wrapper hears its clicks too is one control, said once;
	// clicked by its name, both hear it once.
	assert.Equal(t, 1, strings.Count(tree, `button "Send"`), tree)
	assert.Equal(t, 1, strings.Count(tree, `button "Follow"`), tree)
	interact(t, cs, map[string]any{"query": "Send", "action": "click", "tabId": tab})
	interact(t, cs, map[string]any{"query": "Follow", "action": "click", "tabId": tab})
	assert.Equal(t, map[string]any{"rename": 1.0, "menu": 1.0, "plan": 1.0, "shown": 1.0, "star": 1.0, "vault": 1.0, "card": 1.0, "draft": 1.0, "rate": 1.0,
		"ship": 0.0, "archive": 0.0, "kitchen": 1.0, "bath": 1.0, "q1": 1.0, "q2": 1.0,
		"send": 1.0, "sendbox": 1.0, "follow": 1.0, "followbox": 1.0}, runs())

	interactive := ok(t, cs, "read_page", map[string]any{"tabId": tab, "filter": "interactive"})
	assert.Contains(t, interactive, rename, "the interactive outline keeps them")
	assert.Contains(t, interactive, plan)
}

// TestControlsDrawnInTheirLabels reads a form whose checkboxes, radios and
// file input are hidden so that their labels can draw them: a person clicks
// the label, and the agent gets the control there, by its name.
func TestControlsDrawnInTheirLabels(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/labels.html")
	runs := func() map[string]any { return pageRuns(t, cs, tab) }

	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	remember := refOf(t, tree, `checkbox "Remember me"`)
	terms := refOf(t, tree, `checkbox "I accept the terms"`)
	refOf(t, tree, `link "terms"`) // a link in the label keeps its own ref
	refOf(t, tree, `radio "Basic plan"`)
	photo := refOf(t, tree, `button "Choose a photo"`)
	news := refOf(t, tree, `checkbox "Send me the newsletter"`)
	dark := refOf(t, tree, `checkbox "Dark mode"`)
	alerts := refOf(t, tree, `checkbox "Alerts"`)
	assert.NotContains(t, tree, "Never shown", "a hidden label draws nothing")
	assert.Equal(t, 3, strings.Count(tree, "textbox "), "a field no one sees or can click (a trap for bots) is not shown:\n%s", tree)
	// Nor are they filled by the words of their labels.
	fails(t, cs, "interact", map[string]any{"query": "Homepage", "action": "fill", "text": "spam.example", "tabId": tab}, protocol.CodeNotFound)
	hp := call(t, cs, "form_input", map[string]any{"fields": []map[string]any{{"label": "Leave this empty", "value": "x"}}, "tabId": tab})
	assert.Contains(t, textOf(hp), `"filled":0`)
	assert.Equal(t, `"|"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab,
		"code": `document.querySelector("#trap-clipped").value + "|" + document.querySelector("#trap-away").value`}))
	assert.Equal(t, 1, strings.Count(tree, "Remember me"), "the label's text is the control's name, said once")

	a := interact(t, cs, map[string]any{"ref": remember, "action": "click", "tabId": tab})
	assert.Equal(t, true, a.Checked)
	a = interact(t, cs, map[string]any{"ref": terms, "action": "check", "tabId": tab})
	require.NotNil(t, a.Verified)
	assert.True(t, *a.Verified)
	// Clipped to nothing, or transparent under the box drawn for it: a
	// person clicks the label.
	a = interact(t, cs, map[string]any{"ref": news, "action": "click", "tabId": tab})
	assert.Equal(t, true, a.Checked)
	a = interact(t, cs, map[string]any{"ref": dark, "action": "click", "tabId": tab})
	assert.Equal(t, true, a.Checked)
	a = interact(t, cs, map[string]any{"ref": alerts, "action": "click", "tabId": tab})
	assert.Equal(t, true, a.Checked, "a switch is clicked where its label draws it")
	r := call(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{{"label": "Pro plan", "value": true}}})
	require.False(t, r.IsError, textOf(r))
	assert.Contains(t, ok(t, cs, "find", map[string]any{"tabId": tab, "query": "Basic plan"}), `radio "Basic plan"`)

	file := writeFile(t, filepath.Join(e.home.Path("uploads"), "me.png"), "png")
	ok(t, cs, "upload_file", map[string]any{"tabId": tab, "ref": photo, "paths": []string{file}})
	assert.Equal(t, map[string]any{"remember": 1.0, "terms": 1.0, "news": 1.0, "dark": 1.0, "alerts": 1.0, "pro": 1.0, "photo": 1.0,
		"files": []any{"me.png"}}, runs(),
		"each control changed once, through its label")

	tree = ok(t, cs, "read_page", map[string]any{"tabId": tab})
	assert.Contains(t, tree, remember+" checked")
	assert.Contains(t, tree, refOf(t, tree, `radio "Pro plan"`)+" checked")
}

// TestFieldsNamedByTheWordsBesideThem: fields with no label, named only by
// the words a person reads beside them (a table's row header, the cell
// before, a line above), are filled by those words, by form_input and by
// interact's query.
func TestFieldsNamedByTheWordsBesideThem(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/labels.html")

	filled := ok(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{
		{"label": "First name", "value": "Ada"}, {"label": "Last name", "value": "Lovelace"}}})
	assert.Contains(t, filled, `"failed":0`)
	a := interact(t, cs, map[string]any{"tabId": tab, "query": "Phone", "action": "fill", "text": "555-0100"})
	assert.Equal(t, "555-0100", a.Value)
	assert.Equal(t, `"Ada|Lovelace|555-0100"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab,
		"code": `["first", "last", "phone"].map((id) => document.getElementById(id).value).join("|")`}))

	filled = ok(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{{"label": "Delivery", "value": "Express"}}})
	assert.Contains(t, filled, `"failed":0`, "radios that share a name are named by the words above them")
	assert.Equal(t, "true", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `document.getElementById("express").checked`}))
}

// TestATableIsSortedByItsHeader: a header that listens for the click has a
// ref in its row's line; clicking it (named as an agent names it) sorts the
// table once, the answer says the rows moved, and the header says the order.
func TestATableIsSortedByItsHeader(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/sortable.html")
	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	price := refOf(t, tree, `columnheader "Price"`)
	assert.Contains(t, tree, `| columnheader "Name" `+refOf(t, tree, `columnheader "Name"`)+` clickable | columnheader "Price" `+price+` clickable`)

	a := interact(t, cs, map[string]any{"tabId": tab, "query": "the Price column header", "action": "click"})
	assert.Equal(t, price, a.Ref)
	require.NotNil(t, a.Change, "%+v", a)
	assert.Equal(t, "now sorted ascending, 3 elements moved", a.Change.Summary)
	tree = ok(t, cs, "read_page", map[string]any{"tabId": tab})
	assert.Contains(t, tree, `columnheader "Price" `+price+` sorted ascending clickable`)
	assert.Regexp(t, `(?s)Cherry \| 1.*Banana \| 3.*Apple \| 5`, tree)
	assert.Equal(t, "1", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.runs.sorts"}))
}

// TestReadPageFindsDelegatedClicks reads a page whose elements have no
// listener of their own: an app root, the document and the window hear their
// clicks, and the hand cursor tells a person what to click.
func TestReadPageFindsDelegatedClicks(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/delegated.html")

	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	// The line that starts each target: a card is a box of a heading and text.
	starts := map[string]string{
		"basic":     `generic (e\d+) clickable\n +h3 "Basic"`,
		"pro":       `generic (e\d+) clickable\n +h3 "Pro"`,
		"invoice-1": `row (e\d+) clickable: \| Invoice 1 \| \$20\n`,
		"invoice-2": `row (e\d+) clickable: \| Invoice 2 \| \$30\n`,
		"urgent":    `generic "urgent" (e\d+) clickable`,
		"later":     `generic "later" (e\d+) clickable`,
	}
	assert.Contains(t, tree, "\nPlain words nobody clicks.\n", "no hand cursor: text, no ref")
	assert.Equal(t, 2, strings.Count(tree, "generic e"), "the root listening for its cards is not one:\n%s", tree)
	want := map[string]any{}
	for id, start := range starts {
		m := regexp.MustCompile(start).FindStringSubmatch(tree)
		require.NotNil(t, m, "no %s in:\n%s", start, tree)
		ref := m[1]
		interact(t, cs, map[string]any{"ref": ref, "action": "click", "tabId": tab})
		want[id] = 1.0
	}
	assert.Equal(t, want, pageRuns(t, cs, tab), "each clicked once, through its delegate")

	// A root a framework hears every event of its tree on is no card: what
	// it holds is read as if it were not there.
	assert.Regexp(t, `\nh2 "Sign in"\nbutton "Continue" e\d+`, tree)
	interact(t, cs, map[string]any{"query": "Continue", "action": "click", "tabId": tab})
	want["go"] = 1.0
	assert.Equal(t, want, pageRuns(t, cs, tab))
}

// TestReadPageSeesAListenerAddedWithoutAChange: a script that starts to
// listen on an element without changing the page (a server-rendered page
// hydrating after the first read) is seen by a read a while later.
func TestReadPageSeesAListenerAddedWithoutAChange(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/hydrate.html")
	assert.Contains(t, ok(t, cs, "read_page", map[string]any{"tabId": tab}), "\nh1 \"Rename me\"\n", "nothing listens on it yet")
	ok(t, cs, "wait_for", map[string]any{"tabId": tab, "predicate": "window.hydrated === true"})
	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	h1 := refOf(t, tree, `h1 "Rename me"`)
	assert.Contains(t, tree, h1+" clickable")
	interact(t, cs, map[string]any{"ref": h1, "action": "double_click", "tabId": tab})
	assert.Equal(t, "1", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.renamed"}))
}

// TestReadPageMarksListenersInCrossOriginFrames reads listeners.html inside
// frames.html's cross-origin frame: in the page's process (another port, the
// same site), out of it (localhost: another site, its own CDP session), and
// out of both (127.0.0.2 inside localhost). The elements only a script marks
// as clickable get refs there too.
func TestReadPageMarksListenersInCrossOriginFrames(t *testing.T) {
	e := sharedEnv(t)
	a, b := fixtureSites(t)
	cs := e.client("e2e")
	c := fixtureSiteOn(t, "127.0.0.2")
	for _, tc := range []struct{ name, frame string }{
		{"same site", b.URL + "/listeners.html"},
		{"cross site", siteOnLocalhost(b, "/listeners.html")},
		// A frame of a third site inside a cross-site frame: its own
		// process, attached to the frame around it.
		{"cross site in cross site", siteOnLocalhost(b, "/frames.html?cross="+url.QueryEscape(c.URL+"/listeners.html"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := openTab(t, cs, a.URL+"/frames.html?cross="+tc.frame)
			tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
			plan := refOf(t, tree, `generic "Plan Pro, $10 a month"`)
			rename := refOf(t, tree, `h2 "Double-click to rename"`)
			assert.Contains(t, tree, plan+" clickable", tree)
			assert.Contains(t, tree, rename+" clickable")
			assert.Contains(t, tree, refOf(t, tree, `generic "Open the vault"`)+" clickable", "in a closed shadow root too")

			interact(t, cs, map[string]any{"ref": plan, "action": "click", "tabId": tab})
			assert.Contains(t, ok(t, cs, "read_page", map[string]any{"tabId": tab}), `status "plan chosen"`, "the frame's own handler ran")
			interact(t, cs, map[string]any{"ref": rename, "action": "double_click", "tabId": tab})
			assert.Contains(t, ok(t, cs, "read_page", map[string]any{"tabId": tab}), `status "renaming"`)
		})
	}
}

// TestALinkInAFrameNavigatesTheFrame follows a link and sends a form in a
// frame (same-origin, read in place; cross-site, out of process): the answer
// says where the frame went, and that the page around it stays, not what
// the frame's old document showed as it went; the token in the link's
// address is never shown.
func TestALinkInAFrameNavigatesTheFrame(t *testing.T) {
	e := sharedEnv(t)
	a, b := fixtureSites(t)
	cs := e.client("e2e")
	for _, tc := range []struct{ name, page string }{
		{"same origin", a.URL + "/frames.html?same=frame-links.html"},
		{"cross site", a.URL + "/frames.html?cross=" + url.QueryEscape(siteOnLocalhost(b, "/frame-links.html"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := openTab(t, cs, tc.page)
			ok(t, cs, "wait_for", map[string]any{"tabId": tab, "text": "Open the list"})
			r := call(t, cs, "interact", map[string]any{"query": "Open the list", "action": "click", "tabId": tab})
			require.False(t, r.IsError, textOf(r))
			assert.NotContains(t, textOf(r), "frame-secret", "the token in the frame's address")
			var got acted
			require.NoError(t, json.Unmarshal([]byte(textOf(r)), &got))
			require.NotNil(t, got.Change)
			assert.Equal(t, "navigation", got.Change.Type, "%+v", got.Change)
			assert.Regexp(t, `^its frame navigated to http://[^ ]+/list\.html\?access_token=\[redacted\]; the page around it stays$`, got.Change.Summary)
			assert.Contains(t, got.URL, "/frames.html", "the tab stayed where it was")
			require.NotEmpty(t, got.NextActions)
			assert.Equal(t, "read_page", got.NextActions[0].Tool)
			tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
			assert.Contains(t, tree, `h1 "Frames"`)
			assert.Contains(t, tree, `h1 "Long List"`, "the frame shows the list")

			ok(t, cs, "navigate", map[string]any{"tabId": tab, "url": tc.page})
			ok(t, cs, "wait_for", map[string]any{"tabId": tab, "text": "Open the list"})
			ok(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{{"label": "Find", "value": "cats"}}})
			got = interact(t, cs, map[string]any{"query": "Search", "action": "click", "tabId": tab})
			assert.Regexp(t, `^its frame navigated to http://[^ ]+/list\.html\?q=cats; the page around it stays$`, got.Change.Summary)
		})
	}

	t.Run("clicked by coordinates", func(t *testing.T) {
		tab := openTab(t, cs, a.URL+"/frames.html?same=frame-links.html")
		ok(t, cs, "wait_for", map[string]any{"tabId": tab, "text": "Open the list"})
		var at struct{ X, Y int }
		okJSON(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `(() => {
			const frame = document.getElementById("same-frame"), f = frame.getBoundingClientRect();
			const l = frame.contentDocument.querySelector("a").getBoundingClientRect();
			return { X: Math.round(f.x + frame.clientLeft + l.x + l.width / 2), Y: Math.round(f.y + frame.clientTop + l.y + l.height / 2) };
		})()`}, &at)
		r := call(t, cs, "computer", map[string]any{"action": "left_click", "coordinate": []int{at.X, at.Y}, "tabId": tab})
		require.False(t, r.IsError, textOf(r))
		assert.NotContains(t, textOf(r), "frame-secret")
		assert.Contains(t, textOf(r), `"type":"navigation","summary":"its frame navigated to `)
	})
}

// TestAClickInAFrameUnderABannerIsNotDelivered clicks a button in a
// cross-origin frame that a banner of the page covers: the frame's own hit
// test cannot see the banner, so the click would land on it. Nothing is
// clicked, the banner and its Accept are named; after Accept the click goes
// through, once. The frame is out of process, then in the page's process,
// then nested in another cross-site frame that is scrolled out of view.
func TestAClickInAFrameUnderABannerIsNotDelivered(t *testing.T) {
	e := sharedEnv(t)
	a, b := fixtureSites(t)
	c := fixtureSiteOn(t, "127.0.0.2")
	cs := e.client("e2e")
	for _, tc := range []struct{ name, frame string }{
		{"cross site", siteOnLocalhost(b, "/frame-inner.html")},
		{"same site", b.URL + "/frame-inner.html"},
		{"cross site in a cross-site frame", siteOnLocalhost(b, "/frames.html?cross="+url.QueryEscape(c.URL+"/frame-inner.html"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := openTab(t, cs, a.URL+"/frame-banner.html?cross="+url.QueryEscape(tc.frame))
			tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
			buttons := regexp.MustCompile(`button "Inner button" (e\d+)`).FindAllStringSubmatch(tree, -1)
			require.NotEmpty(t, buttons, tree)
			inner := buttons[len(buttons)-1][1]

			r := call(t, cs, "interact", map[string]any{"ref": inner, "action": "click", "tabId": tab})
			require.True(t, r.IsError, "covered: %s", textOf(r))
			a := actedOf(t, r)
			require.NotNil(t, a.Blocked, textOf(r))
			assert.Contains(t, a.Blocked.By.Name, "Cookies")
			require.NotEmpty(t, a.Blocked.Dismiss)
			assert.Contains(t, a.Blocked.Dismiss[0].Name, "Accept all")
			assert.Equal(t, "0", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.bannerClicks"}),
				"the banner was not clicked either")
			assert.NotContains(t, ok(t, cs, "read_page", map[string]any{"tabId": tab}), `status "inner clicked"`)

			interact(t, cs, map[string]any{"ref": a.Blocked.Dismiss[0].Ref, "action": "click", "tabId": tab})
			interact(t, cs, map[string]any{"ref": inner, "action": "click", "tabId": tab})
			after := ok(t, cs, "read_page", map[string]any{"tabId": tab})
			assert.Equal(t, 1, strings.Count(after, `status "inner clicked"`), "the frame's button, once:\n%s", after)
		})
	}
}

// TestABannerInAFrameNamesItsOwnButtons covers a page's button with a
// consent manager's frame: nothing is clicked, and the answer names the
// frame's Accept button by ref (found without a read first); clicking it
// removes the frame, which is said as such, and the button then runs once.
func TestABannerInAFrameNamesItsOwnButtons(t *testing.T) {
	e := sharedEnv(t)
	a, b := fixtureSites(t)
	cs := e.client("e2e")
	for _, tc := range []struct{ name, frame string }{
		{"cross site", siteOnLocalhost(b, "/consent.html")},
		{"same origin", a.URL + "/consent.html"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := openTab(t, cs, a.URL+"/consent-frame.html?cross="+url.QueryEscape(tc.frame))
			ok(t, cs, "wait_for", map[string]any{"tabId": tab, "predicate": "window.cmpLoaded === true"})
			found := ok(t, cs, "find", map[string]any{"tabId": tab, "query": "Pay now"})
			pay := regexp.MustCompile(`button "Pay now" (e\d+)`).FindStringSubmatch(found)
			require.NotNil(t, pay, found)

			r := call(t, cs, "interact", map[string]any{"ref": pay[1], "action": "click", "tabId": tab})
			require.True(t, r.IsError, "covered: %s", textOf(r))
			blocked := actedOf(t, r)
			require.NotNil(t, blocked.Blocked, textOf(r))
			assert.Equal(t, `iframe "Privacy choices"`, blocked.Blocked.By.Name)
			require.NotEmpty(t, blocked.Blocked.Dismiss, textOf(r))
			accept := blocked.Blocked.Dismiss[0]
			assert.Contains(t, accept.Name, "Accept all")
			assert.Contains(t, blocked.Error.Hint, accept.Ref, "the hint names the button to press")

			done := interact(t, cs, map[string]any{"ref": accept.Ref, "action": "click", "tabId": tab})
			assert.False(t, done.Navigated, "the tab stayed where it was: %+v", done)
			require.NotNil(t, done.Change)
			assert.Equal(t, "dom", done.Change.Type, done.Change.Summary)
			// Not all it held, hidden: a same-origin frame's is named.
			assert.Regexp(t, `^the frame it was in is gone(: iframe "Privacy choices")?$`, done.Change.Summary)

			interact(t, cs, map[string]any{"ref": pay[1], "action": "click", "tabId": tab})
			assert.Equal(t, "1", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.runs.pay"}))
		})
	}
}

// TestABannerNamesItsButtonsHoweverItIsBuilt covers "Pay now" with consent
// banners built as the consent managers build them: the buttons inside a
// labelled region (a container, not a control), inside a shadow root, or
// in a dialog shown modal, known by its heading or, without one, by what it
// says. Nothing is clicked, what covers it and both
// buttons are named, Reject before the Accept the page puts first, and after
// one the payment runs once.
func TestABannerNamesItsButtonsHoweverItIsBuilt(t *testing.T) {
	e := sharedEnv(t)
	a, _ := fixtureSites(t)
	cs := e.client("e2e")
	blockers := map[string]string{"region": `region "Cookie banner"`, "shadow": `dialog "Privacy settings"`, "modal": `dialog "Your privacy"`,
		"untitled": `dialog "We store cookies on your device."`, // what it says, not its buttons
		"sibling":  `dialog "Cookie choices"`, "plain": `div "We use cookies. Accept all cookies…"`}
	for _, kind := range []string{"region", "shadow", "modal", "untitled", "sibling", "plain"} {
		t.Run(kind, func(t *testing.T) {
			tab := openTab(t, cs, a.URL+"/banners.html?kind="+kind)
			r := call(t, cs, "interact", map[string]any{"query": "Pay now", "action": "click", "tabId": tab})
			require.True(t, r.IsError, "covered: %s", textOf(r))
			blocked := actedOf(t, r)
			require.NotNil(t, blocked.Blocked, textOf(r))
			var names []string
			for _, d := range blocked.Blocked.Dismiss {
				names = append(names, d.Name)
			}
			assert.Equal(t, []string{`button "Reject all"`, `button "Accept all cookies"`}, names, textOf(r))
			assert.Equal(t, blockers[kind], blocked.Blocked.By.Name)
			modal := kind == "modal" || kind == "untitled"
			assert.Equal(t, modal, blocked.Blocked.Escapes, "a <dialog> shown modal closes on Escape")
			assert.Equal(t, modal, strings.Contains(blocked.Error.Hint, "press Escape"), blocked.Error.Hint)
			assert.Equal(t, "0", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.runs.pay"}))

			require.Len(t, blocked.Blocked.Dismiss, 2)
			gone := interact(t, cs, map[string]any{"ref": blocked.Blocked.Dismiss[1].Ref, "action": "click", "tabId": tab})
			require.NotNil(t, gone.Change)
			switch kind {
			case "region":
				assert.Contains(t, gone.Change.Summary, `1 removed: "We use cookies to improve your experience.`, "what went is quoted")
			case "plain":
			default: // a dialog, in a web component's shadow root too
				assert.True(t, strings.HasPrefix(gone.Change.Summary, "dialog closed: "+blockers[kind]), gone.Change.Summary)
				assert.NotContains(t, gone.Change.Summary, "1 removed,", "its going is the dialog closing")
			}
			interact(t, cs, map[string]any{"query": "Pay now", "action": "click", "tabId": tab})
			assert.Equal(t, "1", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.runs.pay"}))
		})
	}
}

// TestADialogThatAsksIsNotDismissedForThePerson covers "Pay now" with a
// modal dialog that asks a question none of whose answers plainly
// dismisses it ("Leave checkout?": Stay, Leave). Nothing is clicked; the
// dialog is named with its answers, and none is offered as a way out. Once
// the agent answers, the payment runs once.
func TestADialogThatAsksIsNotDismissedForThePerson(t *testing.T) {
	e := sharedEnv(t)
	a, _ := fixtureSites(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, a.URL+"/banners.html?kind=question")
	r := call(t, cs, "interact", map[string]any{"query": "Pay now", "action": "click", "tabId": tab})
	require.True(t, r.IsError, "covered: %s", textOf(r))
	blocked := actedOf(t, r)
	require.NotNil(t, blocked.Blocked, textOf(r))
	assert.Equal(t, `dialog "Leave checkout?"`, blocked.Blocked.By.Name)
	assert.Empty(t, blocked.Blocked.Dismiss, "neither answer is a way out to take for the person")
	require.Len(t, blocked.Blocked.Asks, 2, textOf(r))
	assert.Equal(t, `button "Stay"`, blocked.Blocked.Asks[0].Name)
	assert.Equal(t, `button "Leave"`, blocked.Blocked.Asks[1].Name)
	require.NotNil(t, blocked.Error)
	assert.Contains(t, blocked.Error.Hint, `answer it with one of button "Stay" `+blocked.Blocked.Asks[0].Ref)
	assert.Equal(t, "0", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.runs.pay"}))

	stay := interact(t, cs, map[string]any{"ref": blocked.Blocked.Asks[0].Ref, "action": "click", "tabId": tab})
	require.NotNil(t, stay.Change, "%+v", stay)
	assert.Contains(t, stay.Change.Summary, `dialog closed: dialog "Leave checkout?`)
	interact(t, cs, map[string]any{"query": "Pay now", "action": "click", "tabId": tab})
	assert.Equal(t, "1", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.runs.pay"}))
}

// TestFillMovesASliderThePageDraws fills sliders (and a spin button) that
// are no input, as a person sets them with the keyboard: a key at a time, each counted by the
// page, stopping at the value, at the step nearest it, or at the first key
// that moves nothing; a value outside the slider's range sends no key.
func TestFillMovesASliderThePageDraws(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/slider.html")
	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	keys := func() map[string]float64 {
		var k map[string]float64
		require.NoError(t, json.Unmarshal([]byte(ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.keys"})), &k))
		return k
	}
	type slid struct {
		acted
		Keys   int    `json:"keys"`
		Unkept string `json:"unkept"`
	}
	fill := func(label, text string) slid {
		var out slid
		okJSON(t, cs, "interact", map[string]any{"ref": refOf(t, tree, label), "action": "fill", "text": text, "tabId": tab}, &out)
		return out
	}

	v := fill(`slider "Volume"`, "73")
	assert.Equal(t, "73", v.Value)
	require.NotNil(t, v.Verified)
	assert.True(t, *v.Verified)
	assert.Equal(t, float64(v.Keys), keys()["volume"], "each key the answer counts reached the page once")
	assert.Less(t, v.Keys, 23, "page keys take it most of the way")

	p := fill(`slider "Price"`, "612")
	assert.Equal(t, "610", p.Value)
	assert.False(t, *p.Verified)
	assert.Equal(t, "it moves in steps of 5: 610 is the nearest it takes", p.Unkept)
	p = fill(`slider "Price"`, "1000")
	assert.Equal(t, "1000", p.Value)
	assert.True(t, *p.Verified)

	d := fill(`slider "Depth"`, "47")
	assert.Equal(t, "47", d.Value, "the keys turned round are followed")

	z := fill(`slider "Zoom"`, "7")
	assert.Equal(t, "7", z.Value, "moved along its track when Up moved nothing")
	assert.Equal(t, float64(4), keys()["zoom"], "Right four times; the keys that moved nothing are not counted by the page")

	r := fill(`slider "Rating"`, "70")
	assert.False(t, *r.Verified)
	assert.Equal(t, "it did not move on ArrowRight: it stands at 50", r.Unkept)

	// A spin button the page draws, with no top: above any slider's 100.
	g := fill(`spinbutton "Guests"`, "120")
	assert.Equal(t, "120", g.Value)
	assert.True(t, *g.Verified, g.Unkept)
	assert.Equal(t, float64(118), keys()["guests"], "an arrow a step, each once")

	before := keys()
	err := fails(t, cs, "interact", map[string]any{"ref": refOf(t, tree, `slider "Volume"`), "action": "fill", "text": "150", "tabId": tab}, protocol.CodeBadRequest)
	assert.Equal(t, "it takes a number from 0 to 100", err.Hint)
	err = fails(t, cs, "interact", map[string]any{"ref": refOf(t, tree, `spinbutton "Guests"`), "action": "fill", "text": "0", "tabId": tab}, protocol.CodeBadRequest)
	assert.Equal(t, "it takes a number of at least 1", err.Hint)
	assert.Equal(t, before, keys(), "no key was sent")
}

// TestACollapsedPanelShowsNothing reads and acts on an accordion whose
// panel is collapsed to no height: read_page shows none of it, a click on
// what is in it is refused as hidden, naming the toggle that opens it
// (nothing is clicked), and the
// toggle's answer, once its transition ends, says what it showed and hid.
// The page is an app shell whose body has no height and hides its
// overflow: all of it still shows, and so does a button drawn out of a bar
// collapsed to no height. The words of a closed details, of what is hidden
// until found and of a canvas's fallback show neither in the tree nor in
// the page's text.
func TestACollapsedPanelShowsNothing(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/panels.html")
	runs := func(name string) string {
		return ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.runs." + name})
	}

	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	assert.NotContains(t, tree, "Return policy", tree)
	assert.NotContains(t, tree, "Ships in 3 days", tree)
	assert.NotContains(t, tree, "Offline", tree)
	assert.Contains(t, tree, "Total: $20")
	assert.Contains(t, tree, `button "Warranty"`)
	assert.NotContains(t, tree, "Two years", "a closed details shows its summary only")
	assert.NotContains(t, tree, "Gift wrap", "what is hidden until found is not seen")
	assert.NotContains(t, tree, "Sales by month", "a canvas shows its picture, not its fallback")
	assert.NotContains(t, tree, "Track order", "a menu scaled to nothing")
	assert.NotContains(t, tree, "Help", "a fixed element in a menu scaled to nothing")
	text := ok(t, cs, "read_page", map[string]any{"tabId": tab, "mode": "text"})
	assert.Contains(t, text, "Total: $20")
	assert.Contains(t, text, "Chat with us", "what is drawn out of the collapsed bar shows in the text too")
	for _, hidden := range []string{"Two years", "Gift wrap", "Sales by month", "Return policy", "Track order", "Help"} {
		assert.NotContains(t, text, hidden, text)
	}
	interact(t, cs, map[string]any{"ref": refOf(t, tree, `button "Warranty"`), "action": "click", "tabId": tab})
	assert.Contains(t, ok(t, cs, "read_page", map[string]any{"tabId": tab}), "Two years, parts and labour.", "an open details shows its words")
	// Asked for by name, it is there but hidden, and the toggle that
	// opens its panel (aria-controls) is what shows it.
	toggle := refOf(t, tree, `button "Shipping details"`)
	err := fails(t, cs, "interact", map[string]any{"query": "Return policy", "action": "click", "tabId": tab}, protocol.CodeNotFound)
	assert.Contains(t, err.Message, `link "Return policy" is there but hidden`)
	assert.Contains(t, err.Hint, "click "+toggle)
	assert.Equal(t, "0", runs("returns"))
	fails(t, cs, "interact", map[string]any{"query": "Track order", "action": "click", "tabId": tab}, protocol.CodeNotFound)
	// wait_for sees as read_page does.
	ok(t, cs, "wait_for", map[string]any{"selector": "#returns", "state": "hidden", "timeoutMs": 1000, "tabId": tab})

	interact(t, cs, map[string]any{"ref": refOf(t, tree, `button "Chat with us"`), "action": "click", "tabId": tab})
	assert.Equal(t, "1", runs("chat"), "the button drawn out of the collapsed bar takes the click")

	open := interact(t, cs, map[string]any{"query": "Shipping details", "action": "click", "tabId": tab})
	require.NotNil(t, open.Change, "%+v", open)
	assert.True(t, strings.HasPrefix(open.Change.Summary, `now expanded, 2 elements shown: "Ships in 3 days.", "Return policy"`), open.Change.Summary)
	ok(t, cs, "wait_for", map[string]any{"selector": "#returns", "state": "visible", "timeoutMs": 1000, "tabId": tab})
	tree = ok(t, cs, "read_page", map[string]any{"tabId": tab})
	interact(t, cs, map[string]any{"ref": refOf(t, tree, `link "Return policy"`), "action": "click", "tabId": tab})
	assert.Equal(t, "1", runs("returns"))

	shut := interact(t, cs, map[string]any{"query": "Shipping details", "action": "click", "tabId": tab})
	assert.True(t, strings.HasPrefix(shut.Change.Summary, "now collapsed, 2 hidden"), shut.Change.Summary)
}

// TestASlowServerIsNotAStuckPage sends a form its server answers 42 s
// later. The click answers once the browser has waited its 15 s for the
// navigation, saying where the page is going (sent, and not to be sent
// again) and that the page shown is the one it leaves; the wait it offers
// next is met when the answer comes, though the browser holds the page's
// debugger back until then, which a page stuck in its own script does too.
func TestASlowServerIsNotAStuckPage(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/answers.html")
	a := interact(t, cs, map[string]any{"query": "Pay slowly", "action": "click", "tabId": tab})
	want := site.URL + "/api/wait?ms=42000"
	require.NotNil(t, a.Change, "%+v", a)
	assert.Equal(t, "navigating to "+want+": no answer from the server yet; the page shown is the one it leaves", a.Change.Summary)
	assert.Equal(t, "navigation", a.Change.Type)
	assert.Equal(t, "Answers", a.Title, "the page shown")
	require.Len(t, a.NextActions, 1)
	assert.Equal(t, "wait_for", a.NextActions[0].Tool)
	var w struct {
		Met bool   `json:"met"`
		URL string `json:"url"`
	}
	okJSON(t, cs, "wait_for", a.NextActions[0].Args, &w)
	assert.True(t, w.Met)
	assert.Equal(t, want, w.URL)
}

// TestWhatFadesOutIsNotThere reads and acts on a modal and a list that
// fade out with opacity and let clicks pass through: read_page shows
// neither, a click on what is in the modal is refused and says the dialog
// is not open, opening and closing it says so by name once its fade ends,
// and the list's options are said as shown when it opens. A button scaled
// to nothing is not there either, and a link whose clicks the page turned
// off is refused with that reason, not as covered.
func TestWhatFadesOutIsNotThere(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/fades.html")

	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	for _, gone := range []string{"Settings", "Save", "Small", "Compose"} {
		assert.NotContains(t, tree, gone, tree)
	}
	assert.Contains(t, tree, `link "help page"`, "a transform does not move a link in a line of text")
	fails(t, cs, "interact", map[string]any{"query": "Compose", "action": "click", "tabId": tab}, protocol.CodeNotFound)
	r := call(t, cs, "interact", map[string]any{"query": "Next", "action": "click", "tabId": tab})
	require.True(t, r.IsError, textOf(r))
	next := actedOf(t, r)
	assert.Equal(t, `link "Next" takes no clicks (the page turned them off): nothing was done`, next.Error.Message)
	assert.Contains(t, next.Error.Hint, "a person cannot click it either")
	assert.Equal(t, `"{\"compose\":0,\"next\":0,\"save\":0}"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "JSON.stringify(window.runs, Object.keys(window.runs).sort())"}))
	err := fails(t, cs, "interact", map[string]any{"query": "Save", "action": "click", "tabId": tab}, protocol.CodeNotFound)
	assert.Contains(t, err.Message, `button "Save" is there but hidden, in dialog "Settings", which is not open`)
	assert.Contains(t, err.Hint, `open dialog "Settings" first`)

	a := interact(t, cs, map[string]any{"query": "Open settings", "action": "click", "tabId": tab})
	require.NotNil(t, a.Change, "%+v", a)
	assert.True(t, strings.HasPrefix(a.Change.Summary, `dialog opened: dialog "Settings"`), a.Change.Summary)
	assert.NotContains(t, a.Change.Summary, "shown", "what showed with the dialog is said by its name")
	interact(t, cs, map[string]any{"query": "Save", "action": "click", "tabId": tab})
	assert.Equal(t, "1", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.runs.save"}))
	a = interact(t, cs, map[string]any{"query": "Close", "action": "click", "tabId": tab})
	require.NotNil(t, a.Change, "%+v", a)
	assert.True(t, strings.HasPrefix(a.Change.Summary, `dialog closed: dialog "Settings"`), a.Change.Summary)
	assert.NotContains(t, a.Change.Summary, "hidden", a.Change.Summary)

	a = interact(t, cs, map[string]any{"query": "Size: M", "action": "click", "tabId": tab})
	require.NotNil(t, a.Change, "%+v", a)
	assert.Contains(t, a.Change.Summary, `shown: "Small Medium Large"`)
	interact(t, cs, map[string]any{"query": "Large", "action": "click", "tabId": tab})
	assert.Equal(t, `"L"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "document.getElementById('chosen').textContent"}))
	assert.NotContains(t, ok(t, cs, "read_page", map[string]any{"tabId": tab}), "Small", "the list faded out again")
}

// TestAListDrawnAnewSaysWhatWent deletes a row of a list the page draws
// anew after every change: the answer names the row that went, not the
// elements the page replaced, and the delete ran once.
func TestAListDrawnAnewSaysWhatWent(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/todos.html")

	a := interact(t, cs, map[string]any{"query": "Delete near Walk the dog", "action": "click", "tabId": tab})
	require.NotNil(t, a.Change, "%+v", a)
	assert.True(t, strings.HasPrefix(a.Change.Summary, `redrawn: "Walk the dog Delete" gone`), a.Change.Summary)
	assert.NotContains(t, a.Change.Summary, "added")
	assert.Equal(t, "1", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.runs.del"}))
}

// TestAControlDrawnAnewIsAnsweredByTheOneInItsPlace ticks, edits and
// ticks again items of a list the page draws anew after every change: the
// box clicked is gone, so the answer says the one drawn in its place, by
// ref and state; a double click's editor is said by what it holds, typed
// into where the focus is; and a tick the page lost (the editor closing
// as the pointer went down drew the list anew under it) says the box is
// as it was.
func TestAControlDrawnAnewIsAnsweredByTheOneInItsPlace(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/todos.html")
	eval := func(code string) string {
		return ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": code})
	}
	boxOf := func(item string) string {
		tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
		m := regexp.MustCompile(`checkbox (e\d+) (?:un)?checked generic "` + item).FindStringSubmatch(tree)
		require.NotNil(t, m, "no box before %q:\n%s", item, tree)
		return m[1]
	}

	ticked := interact(t, cs, map[string]any{"ref": boxOf("Walk the dog"), "action": "click", "tabId": tab})
	require.NotNil(t, ticked.Change)
	assert.Regexp(t, `^drawn anew as e\d+, now checked$`, ticked.Change.Summary)
	assert.Equal(t, "1", eval("window.runs.ticks"))

	opened := interact(t, cs, map[string]any{"query": "Buy milk", "action": "double_click", "tabId": tab})
	require.NotNil(t, opened.Change)
	assert.Contains(t, opened.Change.Summary, `shown: textbox holding "Buy milk", focused`)
	typed := interact(t, cs, map[string]any{"action": "type", "text": " and bread", "tabId": tab})
	assert.Equal(t, "Buy milk and bread", typed.Value, "typed where the focus is")
	kept := interact(t, cs, map[string]any{"action": "press", "key": "Enter", "tabId": tab})
	require.NotNil(t, kept.Change)
	assert.Equal(t, `redrawn: "Buy milk Delete" gone, "Buy milk and bread Delete" new`, kept.Change.Summary,
		"the row drawn twice over went once")

	// The editor open, a tick: the pointer going down closes it, and the
	// list drawn anew under the pointer takes no click.
	interact(t, cs, map[string]any{"query": "Write report", "action": "double_click", "tabId": tab})
	lost := interact(t, cs, map[string]any{"ref": boxOf("Walk the dog"), "action": "click", "tabId": tab})
	require.NotNil(t, lost.Change)
	assert.Regexp(t, `^drawn anew as e\d+, still checked`, lost.Change.Summary)
	assert.Equal(t, "1", eval("window.runs.ticks"))
	fails(t, cs, "interact", map[string]any{"action": "type", "text": "x", "tabId": tab}, protocol.CodeBadRequest)
}

// TestAButtonDrawnAnewWhileDisabledIsNotClicked asks for a disabled
// button a page draws anew every 200 ms: nothing is clicked, and the
// answer says it was drawn anew as it waited, and that it was disabled.
func TestAButtonDrawnAnewWhileDisabledIsNotClicked(t *testing.T) {
	e := sharedEnv(t)
	srv := siteWith(t, map[string]http.HandlerFunc{
		"/poll.html": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>Poll</title><div id="app"></div><script>
window.runs = 0;
const draw = () => { document.getElementById("app").innerHTML = "<button disabled onclick=\"runs++\">Submit</button>"; };
draw(); setInterval(draw, 200);
</script>`)
		},
	})
	cs := e.client("e2e")
	tab := openTab(t, cs, srv.URL+"/poll.html")
	err := fails(t, cs, "interact", map[string]any{"query": "Submit", "action": "click", "tabId": tab}, protocol.CodeStaleRef)
	assert.Contains(t, err.Message, "the page drew the element anew 3 times as the action waited for it, and nothing was sent")
	assert.Contains(t, err.Message, "it was disabled till then")
	assert.Equal(t, "0", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.runs"}))
}

func TestDragByRef(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/drag.html")
	eval := func(code string) string {
		return ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": code})
	}

	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	card := refOf(t, tree, `generic "Report.pdf"`)
	archive := refOf(t, tree, `region "Archive"`)
	a := interact(t, cs, map[string]any{"ref": card, "action": "drag", "target": archive, "tabId": tab})
	assert.Equal(t, "html5", a.Strategy, "an HTML5 drag gets its drop")
	assert.Equal(t, "1", eval("window.drops"))
	assert.Equal(t, `"report"`, eval("document.getElementById('archive').dataset.got"), "with the drag's data")

	// A list that follows the mouse: Gamma dropped on Alpha takes its place.
	tree = ok(t, cs, "read_page", map[string]any{"tabId": tab})
	alpha := refOf(t, tree, `listitem "Alpha"`)
	gamma := refOf(t, tree, `listitem "Gamma"`)
	a = interact(t, cs, map[string]any{"ref": gamma, "action": "drag", "target": alpha, "tabId": tab})
	assert.Equal(t, "pointer", a.Strategy)
	assert.Equal(t, `"Gamma,Alpha,Beta"`, eval("document.getElementById('order').textContent"))
	// By name now that the status says every item's: the item is "Beta".
	a = interact(t, cs, map[string]any{"query": "Beta", "action": "drag", "target": "Gamma", "tabId": tab})
	assert.Equal(t, `listitem "Beta"`, a.Target, a.Found)
	assert.Equal(t, `"Beta,Gamma,Alpha"`, eval("document.getElementById('order').textContent"))

	// A target a screen away: the page scrolls to it while the drag is held.
	tree = ok(t, cs, "read_page", map[string]any{"tabId": tab})
	a = interact(t, cs, map[string]any{"ref": refOf(t, tree, `generic "Notes.txt"`), "action": "drag",
		"target": refOf(t, tree, `region "Far archive"`), "tabId": tab})
	assert.Equal(t, "html5", a.Strategy)
	assert.Equal(t, `"notes"`, eval("document.getElementById('far-got').textContent"), "dropped where it was aimed")

	// Named as a person would: an item by its text, and a drop zone no
	// script listens on, so it has no ref, by what it says.
	a = interact(t, cs, map[string]any{"query": "Mango", "action": "drag", "target": "Trash bin", "tabId": tab})
	assert.Equal(t, "pointer", a.Strategy)
	assert.Regexp(t, `^"Mango" matched e\d+ \(text is "Mango"\); "Trash bin" matched e\d+ \(text is "Trash bin"\)$`, a.Found)
	assert.Equal(t, `"Mango"`, eval("document.getElementById('binned').textContent"), "dropped once, in the bin")
	assert.Equal(t, `"Kiwi"`, eval("[...document.querySelectorAll('#fruit li')].map((li) => li.textContent).join()"))

	// A list that slides the item into its place after the release, and
	// takes the new order when the slide ends: the answer waits for it.
	tree = ok(t, cs, "read_page", map[string]any{"tabId": tab})
	a = interact(t, cs, map[string]any{"ref": refOf(t, tree, `listitem "Sun"`), "action": "drag",
		"target": refOf(t, tree, `listitem "Star"`), "tabId": tab})
	assert.Equal(t, "Drag: Moon,Star,Sun", a.Title, "the answer comes once the dropped item is in its place")

	// A list that lifts an item only once the press is held still.
	tree = ok(t, cs, "read_page", map[string]any{"tabId": tab})
	interact(t, cs, map[string]any{"ref": refOf(t, tree, `listitem "Red"`), "action": "drag",
		"target": refOf(t, tree, `listitem "Blue"`), "tabId": tab})
	assert.Equal(t, `"Green,Blue,Red"`, eval("document.getElementById('colours').textContent"))

	fails(t, cs, "interact", map[string]any{"ref": alpha, "action": "drag", "tabId": tab}, protocol.CodeBadRequest)
	fails(t, cs, "interact", map[string]any{"ref": alpha, "action": "drag", "target": "No such place", "tabId": tab}, protocol.CodeNotFound)
}

// formFilled is form_input's result.
type formFilled struct {
	Fields []struct {
		Field     string          `json:"field"`
		OK        bool            `json:"ok"`
		Value     any             `json:"value"`
		Formatted bool            `json:"formatted"`
		Checked   *bool           `json:"checked"`
		Error     *protocol.Error `json:"error"`
	} `json:"fields"`
	Filled, Failed int
	Change         struct{ Type, Summary string }
	NextActions    []struct{ Tool string } `json:"nextActions"`
}

// actedOf reads an interact result's structured content.
func actedOf(t *testing.T, r *mcp.CallToolResult) acted {
	t.Helper()
	var a acted
	b, err := json.Marshal(r.StructuredContent)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &a), "%s", b)
	return a
}

// TestADialogOpenedLateIsPartOfTheClick clicks a button whose page asks,
// by a timer, a moment after the click: at whatever moment the dialog
// opens, before the answer or while it is put together, the click was
// delivered and the answer says so; the dialog is named when it is open.
func TestADialogOpenedLateIsPartOfTheClick(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/dialogs.html")
	for ms := 0; ms <= 240; ms += 15 {
		ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": fmt.Sprintf("window.laterMs = %d", ms)})
		a := interact(t, cs, map[string]any{"query": "Remove", "action": "click", "tabId": tab})
		assert.True(t, a.Delivered, "%d ms: %+v", ms, a)
		if a.Dialog != "" {
			assert.Equal(t, `confirm "Remove it?"`, a.Dialog, "%d ms", ms)
			require.NotNil(t, a.Change)
			assert.Equal(t, "dialog", a.Change.Type, "%d ms", ms)
		}
		// Answered once it is open, whenever that is.
		for deadline := time.Now().Add(10 * time.Second); ; {
			require.True(t, time.Now().Before(deadline), "%d ms: the dialog never opened", ms)
			r := call(t, cs, "interact", map[string]any{"action": "accept_dialog", "tabId": tab})
			if !r.IsError {
				break
			}
			require.Contains(t, textOf(r), "no JavaScript dialog is open", "%d ms", ms)
		}
		assert.Equal(t, `"remove: true"`, status(t, cs, tab), "%d ms", ms)
	}
}

// TestTypingStopsAtADialog types into a field whose page refuses "!" with
// an alert: the answer comes at once, names the dialog and how much was
// typed, and once the dialog is answered no more of the text is typed (the
// next key typed follows "Hi" straight away).
func TestTypingStopsAtADialog(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/dialogs.html")
	value := func() string {
		return ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `document.querySelector("#nick").value`})
	}
	for _, tool := range []string{"interact", "computer"} {
		t.Run(tool, func(t *testing.T) {
			ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `document.querySelector("#nick").value = ""`})
			var a acted
			if tool == "interact" {
				a = interact(t, cs, map[string]any{"query": "Nickname", "action": "type", "text": "Hi! there", "tabId": tab})
			} else {
				interact(t, cs, map[string]any{"query": "Nickname", "action": "click", "tabId": tab})
				okJSON(t, cs, "computer", map[string]any{"action": "type", "text": "Hi! there", "tabId": tab}, &a)
			}
			assert.Equal(t, `alert "No exclamation marks"`, a.Dialog)
			assert.Equal(t, "3 of 9 characters: the page opened a dialog", a.Typed)
			interact(t, cs, map[string]any{"action": "accept_dialog", "tabId": tab})
			ok(t, cs, "computer", map[string]any{"action": "type", "text": "#", "tabId": tab})
			ok(t, cs, "wait_for", map[string]any{"tabId": tab, "predicate": `document.querySelector("#nick").value.endsWith("#")`})
			assert.Equal(t, `"Hi#"`, value())
		})
	}
}

// TestFormInputStopsWhereTheFormLeavesItsPage fills fields one of which
// opens a dialog, or takes the tab to another page: the fields after it are
// not filled (on the page a dialog holds, or on the next page), and the
// answer says what happened and what to call next.
func TestFormInputStopsWhereTheFormLeavesItsPage(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/dialogs.html")
	fill := func(fields ...map[string]any) formFilled {
		r := call(t, cs, "form_input", map[string]any{"tabId": tab, "fields": fields})
		require.True(t, r.IsError, "a field was not filled: %s", textOf(r))
		var out formFilled
		require.NoError(t, json.Unmarshal([]byte(textOf(r)), &out), textOf(r))
		return out
	}

	out := fill(map[string]any{"label": "Size", "value": "L"}, map[string]any{"label": "Colour", "value": "Blue"})
	assert.Equal(t, 1, out.Filled)
	require.Len(t, out.Fields, 2)
	assert.True(t, out.Fields[0].OK)
	require.NotNil(t, out.Fields[1].Error)
	assert.Equal(t, protocol.CodeConflict, out.Fields[1].Error.Code)
	assert.Equal(t, "dialog", out.Change.Type)
	assert.Contains(t, out.Change.Summary, `confirm "Change the size?"`)
	interact(t, cs, map[string]any{"action": "accept_dialog", "tabId": tab})
	assert.Equal(t, `""`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `document.querySelector("#colour").value`}))

	out = fill(map[string]any{"label": "Go to", "value": "List"}, map[string]any{"label": "Colour", "value": "Blue"})
	assert.Equal(t, "navigation", out.Change.Type)
	require.Len(t, out.NextActions, 1)
	assert.Equal(t, "read_page", out.NextActions[0].Tool)
	require.Len(t, out.Fields, 2)
	require.NotNil(t, out.Fields[1].Error)
	assert.Contains(t, out.Fields[1].Error.Message, "not filled")
	ok(t, cs, "wait_for", map[string]any{"url": site.URL + "/list.html", "tabId": tab})
}

func TestStaleRefsAreRefused(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/replace.html")
	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	alpha := refOf(t, tree, `button "Alpha"`)

	interact(t, cs, map[string]any{"query": "Replace", "action": "click", "tabId": tab})
	before := status(t, cs, tab)
	err := fails(t, cs, "interact", map[string]any{"ref": alpha, "action": "click", "tabId": tab}, protocol.CodeStaleRef)
	assert.Contains(t, err.Message, "removed")
	assert.Contains(t, err.Hint, "read_page")
	assert.Equal(t, before, status(t, cs, tab), "the new Alpha, with the same name, was not clicked")

	fresh := refOf(t, ok(t, cs, "read_page", map[string]any{"tabId": tab}), `button "Alpha"`)
	assert.NotEqual(t, alpha, fresh, "the new element has a new ref")
	assert.Equal(t, `the page drew button "Alpha" anew: it is `+fresh+` now; act on `+fresh+` if it is the one, or call read_page`, err.Hint,
		"the refusal names the look-alike, for the agent to judge")
	interact(t, cs, map[string]any{"ref": fresh, "action": "click", "tabId": tab})
	assert.Equal(t, `"pressed: Alpha v2"`, status(t, cs, tab))

	a := interact(t, cs, map[string]any{"query": "Next page", "action": "click", "tabId": tab})
	assert.True(t, a.Navigated)
	assert.Equal(t, "Replaced Next", a.Title)
	err = fails(t, cs, "interact", map[string]any{"ref": fresh, "action": "click", "tabId": tab}, protocol.CodeStaleRef)
	assert.Contains(t, err.Message, "left")
	fails(t, cs, "read_page", map[string]any{"ref": fresh, "tabId": tab}, protocol.CodeStaleRef)
	fails(t, cs, "interact", map[string]any{"ref": "e99999", "action": "click", "tabId": tab}, protocol.CodeBadRequest)
}

// A tab's refs stay short: each page counts from 1 again, passing over the
// numbers of the pages before it, so that a ref kept from one of those is
// refused, never taken for an element of the page shown now.
func TestRefsStayShortAcrossPages(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	pages := []string{"/login.html", "/form.html", "/menu.html", "/list.html", "/login.html"}
	tab := openTab(t, cs, site.URL+pages[0])
	refPattern := regexp.MustCompile(`\be(\d+)\b`)
	var read [][]int // the refs each page's read handed out
	for i, path := range pages {
		if i > 0 {
			ok(t, cs, "navigate", map[string]any{"url": site.URL + path, "tabId": tab})
		}
		var refs []int
		for _, m := range refPattern.FindAllStringSubmatch(ok(t, cs, "read_page", map[string]any{"tabId": tab}), -1) {
			n, err := strconv.Atoi(m[1])
			require.NoError(t, err)
			refs = append(refs, n)
		}
		require.NotEmpty(t, refs, path)
		for j, before := range read {
			if i-j <= 3 {
				for _, r := range refs {
					assert.NotContains(t, before, r, "page %d reused e%d of page %d", i+1, r, j+1)
				}
			}
		}
		if i > 0 {
			old := fmt.Sprintf("e%d", read[i-1][0])
			err := fails(t, cs, "interact", map[string]any{"ref": old, "action": "click", "tabId": tab}, protocol.CodeStaleRef)
			assert.Contains(t, err.Message, "left")
		}
		read = append(read, refs)
	}
	assert.Equal(t, 1, slices.Min(read[4]), "the fifth page counts from 1 again: the first page is more than three back")
	assert.Less(t, slices.Max(read[4]), slices.Max(read[3]), "and its refs stay below the fourth's")

	// The login page's form works by its new refs.
	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	interact(t, cs, map[string]any{"ref": refOf(t, tree, `textbox "Username"`), "action": "type", "text": "tomsmith", "tabId": tab})
	assert.Equal(t, `"tomsmith"`, ok(t, cs, "javascript_tool", map[string]any{"code": `document.querySelector("#username").value`, "tabId": tab}))
}

func TestDialogs(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/dialogs.html")

	a := interact(t, cs, map[string]any{"query": "Confirm", "action": "click", "tabId": tab})
	assert.Equal(t, `confirm "Delete everything?"`, a.Dialog)
	err := fails(t, cs, "read_page", map[string]any{"tabId": tab}, protocol.CodeConflict)
	assert.Contains(t, err.Hint, "accept_dialog")
	// The page answers nothing under it: what needs it says so at once.
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"page_screenshot", map[string]any{"tabId": tab}},
		{"page_pdf", map[string]any{"tabId": tab}},
		{"computer", map[string]any{"action": "left_click", "coordinate": []int{5, 5}, "tabId": tab}},
		{"javascript_tool", map[string]any{"code": "1 + 1", "tabId": tab}},
	} {
		err := fails(t, cs, c.tool, c.args, protocol.CodeConflict)
		assert.Contains(t, err.Message, `confirm "Delete everything?"`, c.tool)
	}
	a = interact(t, cs, map[string]any{"action": "dismiss_dialog", "tabId": tab})
	assert.Equal(t, `confirm "Delete everything?"`, a.Answered)
	require.NotNil(t, a.Change)
	assert.Equal(t, `answered confirm "Delete everything?"; it says status "confirm: false"`, a.Change.Summary, "what the page did once it ran on")
	assert.Equal(t, `"confirm: false"`, status(t, cs, tab))

	// A dialog the page opens once the first is answered is the answer's.
	interact(t, cs, map[string]any{"query": "Confirm", "action": "click", "tabId": tab})
	a = interact(t, cs, map[string]any{"action": "accept_dialog", "tabId": tab})
	assert.Equal(t, `alert "Deleted"`, a.Dialog)
	require.NotNil(t, a.Change)
	assert.Equal(t, "dialog", a.Change.Type)
	require.NotEmpty(t, a.NextActions)
	assert.Equal(t, "accept_dialog", a.NextActions[0].Args["action"])
	interact(t, cs, map[string]any{"action": "accept_dialog", "tabId": tab})
	assert.Equal(t, `"confirm: true"`, status(t, cs, tab))

	// A script that asks waits for the answer: the call says so at once,
	// and the script runs on once it is answered.
	err = fails(t, cs, "javascript_tool", map[string]any{"code": `window.goOn = confirm("Go on?")`, "tabId": tab}, protocol.CodeConflict)
	assert.Contains(t, err.Message, `the script opened a JavaScript dialog, confirm "Go on?"`)
	assert.Contains(t, err.Hint, "accept_dialog")
	interact(t, cs, map[string]any{"action": "accept_dialog", "tabId": tab})
	assert.Equal(t, "true", ok(t, cs, "javascript_tool", map[string]any{"code": "window.goOn", "tabId": tab}))

	interact(t, cs, map[string]any{"query": "Prompt", "action": "click", "tabId": tab})
	interact(t, cs, map[string]any{"action": "accept_dialog", "text": "Ada", "tabId": tab})
	assert.Equal(t, `"prompt: Ada"`, status(t, cs, tab))
	fails(t, cs, "interact", map[string]any{"action": "accept_dialog", "tabId": tab}, protocol.CodeBadRequest)

	// A page that asks before it is left: navigate says so at once, and
	// the answer decides whether the tab leaves.
	interact(t, cs, map[string]any{"query": "Unsaved changes", "action": "click", "tabId": tab})
	next := site.URL + "/list.html"
	// A link raises it; a navigate while it is open says so at once, not
	// at its timeout.
	a = interact(t, cs, map[string]any{"query": "Leave for the list", "action": "click", "tabId": tab})
	assert.Contains(t, a.Dialog, "beforeunload")
	err = fails(t, cs, "navigate", map[string]any{"url": next, "tabId": tab, "timeoutMs": 10000}, protocol.CodeConflict)
	assert.Contains(t, err.Message, "asks before it is left")
	interact(t, cs, map[string]any{"action": "dismiss_dialog", "tabId": tab})
	assert.Equal(t, `"unsaved"`, status(t, cs, tab), "it stayed")
	err = fails(t, cs, "navigate", map[string]any{"url": next, "tabId": tab}, protocol.CodeConflict)
	assert.Contains(t, err.Message, "beforeunload")
	assert.Contains(t, err.Hint, "accept_dialog")
	interact(t, cs, map[string]any{"action": "dismiss_dialog", "tabId": tab})
	assert.Equal(t, `"unsaved"`, status(t, cs, tab), "it stayed")
	fails(t, cs, "navigate", map[string]any{"url": next, "tabId": tab}, protocol.CodeConflict)
	a = interact(t, cs, map[string]any{"action": "accept_dialog", "tabId": tab})
	require.NotNil(t, a.Change)
	assert.Equal(t, "navigation", a.Change.Type, "the answer let the tab leave: %+v", a)
	ok(t, cs, "wait_for", map[string]any{"url": next, "tabId": tab})

	// A page that alerts as it loads: the navigation says which dialog holds it.
	err = fails(t, cs, "navigate", map[string]any{"url": site.URL + "/dialogs.html?greet=1", "tabId": tab}, protocol.CodeConflict)
	assert.Contains(t, err.Message, `alert "Welcome back"`)
	interact(t, cs, map[string]any{"action": "accept_dialog", "tabId": tab})
	ok(t, cs, "wait_for", map[string]any{"text": "Unsaved changes", "tabId": tab})

	// Closing it asks the same: at once, and the answer decides.
	interact(t, cs, map[string]any{"query": "Unsaved changes", "action": "click", "tabId": tab})
	err = fails(t, cs, "tabs_close", map[string]any{"tabId": tab}, protocol.CodeConflict)
	assert.Contains(t, err.Message, "the tab is still open")
	interact(t, cs, map[string]any{"action": "dismiss_dialog", "tabId": tab})
	assert.Equal(t, `"unsaved"`, status(t, cs, tab), "it stayed open")
	fails(t, cs, "tabs_close", map[string]any{"tabId": tab}, protocol.CodeConflict)
	a = interact(t, cs, map[string]any{"action": "accept_dialog", "tabId": tab})
	require.NotNil(t, a.Change)
	assert.Equal(t, "tab_closed", a.Change.Type, "%+v", a)
	assert.NotContains(t, ok(t, cs, "tabs_context", map[string]any{}), strconv.Itoa(tab))
}

func TestActingInFramesShadowRootsAndMenus(t *testing.T) {
	e := sharedEnv(t)
	a, b := fixtureSites(t)
	cs := e.client("e2e")

	t.Run("same-origin and cross-site frames", func(t *testing.T) {
		cross := siteOnLocalhost(b, "/frame-inner.html")
		tab := openTab(t, cs, a.URL+"/frames.html?cross="+cross)
		tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
		fields := regexp.MustCompile(`textbox "Inner field" (e\d+)`).FindAllStringSubmatch(tree, -1)
		buttons := regexp.MustCompile(`button "Inner button" (e\d+)`).FindAllStringSubmatch(tree, -1)
		require.Len(t, fields, 2, tree)
		require.Len(t, buttons, 2, tree)
		for i, where := range []string{"same", "cross"} {
			interact(t, cs, map[string]any{"ref": fields[i][1], "action": "fill", "text": where + " typed", "tabId": tab})
			c := interact(t, cs, map[string]any{"ref": buttons[i][1], "action": "click", "tabId": tab})
			assert.Equal(t, "pointer", c.Strategy, where)
		}
		tree = ok(t, cs, "read_page", map[string]any{"tabId": tab})
		assert.Contains(t, tree, `value="same typed"`)
		assert.Contains(t, tree, `value="cross typed"`)
		assert.Equal(t, 2, strings.Count(tree, `status "inner clicked"`), tree)
	})

	t.Run("a cross-site frame's form, by label and by query, with no read first", func(t *testing.T) {
		tab := openTab(t, cs, a.URL+"/frames.html?cross="+siteOnLocalhost(b, "/login.html"))
		ok(t, cs, "wait_for", map[string]any{"tabId": tab, "predicate": "window.crossLoaded === true"})
		r := call(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{
			{"label": "Username", "value": "tomsmith"},
			{"label": "Password", "value": "SuperSecretPassword!"},
		}})
		require.False(t, r.IsError, textOf(r))
		assert.Contains(t, ok(t, cs, "find", map[string]any{"tabId": tab, "query": "Login"}), `button "Login"`)
		interact(t, cs, map[string]any{"query": "button Login", "action": "click", "tabId": tab})
		// The frame went on to secure.html: its heading is in the tab's tree.
		ok(t, cs, "wait_for", map[string]any{"tabId": tab, "text": "Secure Area"})
	})

	t.Run("a cross-site frame inside a same-origin frame", func(t *testing.T) {
		// A checkout page's own frame around a payment provider's form.
		tab := openTab(t, cs, a.URL+"/frame-wrap.html?cross="+siteOnLocalhost(b, "/login.html"))
		ok(t, cs, "wait_for", map[string]any{"tabId": tab, "predicate": "document.querySelector('#wrap').contentWindow.crossLoaded === true"})
		tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
		assert.Contains(t, tree, `textbox "Username"`)
		assert.Contains(t, tree, `button "Inner button"`, "the same-origin frames.html's own")
		r := call(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{
			{"label": "Username", "value": "tomsmith"},
			{"label": "Password", "value": "SuperSecretPassword!"},
		}})
		require.False(t, r.IsError, textOf(r))
		c := interact(t, cs, map[string]any{"query": "button Login", "action": "click", "tabId": tab})
		assert.Equal(t, "pointer", c.Strategy)
		ok(t, cs, "wait_for", map[string]any{"tabId": tab, "text": "Secure Area"})
	})

	t.Run("a sandboxed srcdoc frame beside a same-origin one", func(t *testing.T) {
		// Both frames are at about:srcdoc; the sandboxed one shows its own
		// words, not a second copy of the other's.
		tab := openTab(t, cs, a.URL+"/srcdoc.html")
		tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
		assert.Equal(t, 1, strings.Count(tree, `textbox "Coupon code"`), tree)
		assert.Contains(t, tree, "Terms of sale")
		agree := refOf(t, tree, `checkbox "I agree"`)
		c := interact(t, cs, map[string]any{"ref": agree, "action": "check", "tabId": tab})
		assert.Equal(t, "pointer", c.Strategy)
		assert.Contains(t, ok(t, cs, "read_page", map[string]any{"tabId": tab}), `status "agreed"`)
	})

	t.Run("shadow roots, open and closed", func(t *testing.T) {
		tab := openTab(t, cs, a.URL+"/shadow.html")
		interact(t, cs, map[string]any{"query": "Shadow button", "action": "click", "tabId": tab})
		assert.Equal(t, `"shadow clicked"`, status(t, cs, tab))
		f := interact(t, cs, map[string]any{"query": "Shadow input", "action": "fill", "text": "deep", "tabId": tab})
		assert.Equal(t, "deep", f.Value)
		c := interact(t, cs, map[string]any{"query": "Hidden in closed shadow", "action": "click", "tabId": tab})
		assert.Equal(t, "pointer", c.Strategy, "the hit test sees into the closed root: %+v", c)
		assert.Equal(t, `"closed clicked"`, status(t, cs, tab))

		// What a click changed in a component's shadow root is said.
		add := interact(t, cs, map[string]any{"query": "Add to basket", "action": "click", "tabId": tab})
		require.NotNil(t, add.Change, "%+v", add)
		assert.Equal(t, "dom", add.Change.Type)
		assert.True(t, strings.HasPrefix(add.Change.Summary, `it says status "Added to your basket"`), add.Change.Summary)
	})

	t.Run("a popover says whether it is shown, and its items are clicked", func(t *testing.T) {
		tab := openTab(t, cs, a.URL+"/menu.html")
		assert.Regexp(t, `button "Share" e\d+ collapsed`, ok(t, cs, "read_page", map[string]any{"tabId": tab}))
		interact(t, cs, map[string]any{"query": "Share", "action": "click", "tabId": tab})
		assert.Regexp(t, `button "Share" e\d+ expanded`, ok(t, cs, "read_page", map[string]any{"tabId": tab}))
		interact(t, cs, map[string]any{"query": "Copy link", "action": "click", "tabId": tab})
		assert.Equal(t, `"copied"`, status(t, cs, tab))
	})

	t.Run("a hover menu opens on a real hover", func(t *testing.T) {
		tab := openTab(t, cs, a.URL+"/menu.html")
		// Not shown yet: the error says where it is and what to hover.
		err := fails(t, cs, "interact", map[string]any{"query": "menuitem Laptops", "action": "click", "tabId": tab}, protocol.CodeNotFound)
		where := regexp.MustCompile(`menuitem "Laptops" is there but hidden, inside (.+) (e\d+)$`).FindStringSubmatch(err.Message)
		require.NotNil(t, where, err.Message)
		assert.Equal(t, "hover or click "+where[2]+" to show it, then act again", err.Hint)
		// The hover offers what it showed, with refs: the next click.
		h := interact(t, cs, map[string]any{"ref": where[2], "action": "hover", "tabId": tab})
		var laptops string
		for _, o := range h.Offers {
			if o.Name == `menuitem "Laptops"` {
				laptops = o.Ref
			}
		}
		require.NotEmpty(t, laptops, "%+v", h.Offers)
		interact(t, cs, map[string]any{"ref": laptops, "action": "click", "tabId": tab})
		assert.Equal(t, `"chose: Laptops"`, status(t, cs, tab))

		tab = openTab(t, cs, a.URL+"/menu.html")
		ok(t, cs, "read_page", map[string]any{"tabId": tab})
		h = interact(t, cs, map[string]any{"query": "Products", "action": "hover", "snapshot": "diff", "tabId": tab})
		assert.Contains(t, h.Snapshot, `+ menuitem "Laptops"`, "the diff shows what opened")
		assert.Contains(t, h.Snapshot, `button "Products"`)
		interact(t, cs, map[string]any{"query": "menuitem Laptops", "action": "click", "tabId": tab})
		assert.Equal(t, `"chose: Laptops"`, status(t, cs, tab))

		// The menu the pointer holds open covers what lies under it: the
		// pointer moves off it, as a person's does, and the click lands
		// there once, not on the menu.
		held := openTab(t, cs, a.URL+"/menu.html")
		interact(t, cs, map[string]any{"query": "Products", "action": "hover", "tabId": held})
		covered := ok(t, cs, "javascript_tool", map[string]any{"tabId": held, "code": `(() => { const r = document.getElementById('compare').getBoundingClientRect(); return [[0.1, 0.1], [0.5, 0.5], [0.9, 0.9]].every(([fx, fy]) => document.elementFromPoint(r.x + r.width * fx, r.y + r.height * fy).closest('#products-list') !== null); })()`})
		require.Equal(t, "true", covered, "the open menu lies over Compare")
		interact(t, cs, map[string]any{"query": "Compare", "action": "click", "tabId": held})
		assert.Equal(t, "1", ok(t, cs, "javascript_tool", map[string]any{"tabId": held, "code": "window.compares"}))
		assert.Equal(t, `""`, status(t, cs, held), "no menu item was chosen")

		// A list of options elsewhere in the page is shown by the combobox
		// that says it controls it.
		err = fails(t, cs, "interact", map[string]any{"query": "Newest", "action": "click", "tabId": tab}, protocol.CodeNotFound)
		where = regexp.MustCompile(`option "Newest" is there but hidden, inside combobox "Sort by" (e\d+)$`).FindStringSubmatch(err.Message)
		require.NotNil(t, where, err.Message)
		assert.Equal(t, fmt.Sprintf(`interact select with ref %s and values ["Newest"] opens its list and picks it`, where[1]), err.Hint)
		// select opens its list and clicks the option, once each.
		picked := interact(t, cs, map[string]any{"ref": where[1], "action": "select", "values": []string{"Newest"}, "tabId": tab})
		assert.Equal(t, `"sorted: Newest"`, status(t, cs, tab))
		require.NotNil(t, picked.Picked, "%+v", picked)
		assert.Equal(t, `option "Newest"`, picked.Picked.Name)
		require.NotNil(t, picked.Change)
		assert.Contains(t, picked.Change.Summary, `picked option "Newest"`)
		assert.Equal(t, "1", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.sortClicks"}),
			"the combobox was clicked once")

		// An option the list does not have: the list stays open, nothing is
		// picked, and the answer names what it offers.
		r := call(t, cs, "interact", map[string]any{"ref": where[1], "action": "select", "values": []string{"Oldest"}, "tabId": tab})
		require.True(t, r.IsError, textOf(r))
		none := actedOf(t, r)
		assert.True(t, none.Delivered, "the click that opened the list was delivered")
		require.NotNil(t, none.Error)
		assert.Equal(t, "not_found", none.Error.Code)
		assert.Contains(t, none.Error.Message, `no option named "Oldest"`)
		require.Len(t, none.Offers, 2, textOf(r))
		assert.Equal(t, `option "Relevance"`, none.Offers[0].Name)
		assert.Equal(t, `"sorted: Newest"`, status(t, cs, tab))
	})
}

// TestAClickSaysWhatItOpenedAndTurned clicks as an agent does on controls
// whose effect is their own state or a list: the answer says the state the
// element is now in (a checkbox checked, a combobox expanded), and a click
// that opens a list or menu names its items with refs, so the next click
// needs no read. Each handler runs once, as the page counts.
func TestAClickSaysWhatItOpenedAndTurned(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")

	tab := openTab(t, cs, site.URL+"/form.html")
	c := interact(t, cs, map[string]any{"query": "checkbox Subscribe", "action": "click", "tabId": tab})
	require.NotNil(t, c.Change, "%+v", c)
	assert.Equal(t, "now checked", c.Change.Summary)
	c = interact(t, cs, map[string]any{"query": "checkbox Subscribe", "action": "click", "tabId": tab})
	assert.Equal(t, "now unchecked", c.Change.Summary)

	tab = openTab(t, cs, site.URL+"/menu.html")
	sort := interact(t, cs, map[string]any{"query": "combobox Sort by", "action": "click", "tabId": tab})
	require.NotNil(t, sort.Change, "%+v", sort)
	assert.True(t, strings.HasPrefix(sort.Change.Summary, "now expanded"), sort.Change.Summary)
	require.Len(t, sort.Offers, 2, "%+v", sort)
	assert.Equal(t, `option "Relevance"`, sort.Offers[0].Name)
	assert.Equal(t, `option "Newest"`, sort.Offers[1].Name)
	interact(t, cs, map[string]any{"ref": sort.Offers[1].Ref, "action": "click", "tabId": tab})
	assert.Equal(t, `"sorted: Newest"`, status(t, cs, tab))
	assert.Equal(t, "1", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.sortClicks"}))

	// A Listbox as Headless UI draws it: a button its label and its own
	// words name, shown, and picked from by its label.
	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	assert.Contains(t, tree, `button "Assignee Wade Cooper" `+refOf(t, tree, `button "Assignee Wade Cooper"`)+" collapsed")
	filled := ok(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{{"label": "Assignee", "value": "Devon Webb"}}})
	assert.Contains(t, filled, `picked option \"Devon Webb\"`)
	assert.Equal(t, `"assigned: Devon Webb"`, status(t, cs, tab))
	assert.Equal(t, "1", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.assigns"}))

	// A menu button whose menu shows as the pointer comes over it.
	menu := interact(t, cs, map[string]any{"query": "button Products", "action": "click", "tabId": tab})
	require.Len(t, menu.Offers, 3, "%+v", menu)
	assert.Equal(t, `menuitem "Phones"`, menu.Offers[1].Name)
	interact(t, cs, map[string]any{"ref": menu.Offers[1].Ref, "action": "click", "tabId": tab})
	assert.Equal(t, `"chose: Phones"`, status(t, cs, tab))

	// An element no role marks, whose menu opens once the pointer has
	// rested on it: it has a ref to point at, and the hover's answer waits
	// for the menu and offers its button.
	tree = ok(t, cs, "read_page", map[string]any{"tabId": tab})
	account := refOf(t, tree, `generic "Account"`)
	assert.Contains(t, tree, `generic "Account" `+account+" clickable")
	hovered := interact(t, cs, map[string]any{"ref": account, "action": "hover", "tabId": tab})
	require.NotNil(t, hovered.Change, "%+v", hovered)
	assert.Contains(t, hovered.Change.Summary, `"Sign out"`)
	require.Len(t, hovered.Offers, 1, "%+v", hovered)
	assert.Equal(t, `button "Sign out"`, hovered.Offers[0].Name)
	interact(t, cs, map[string]any{"ref": hovered.Offers[0].Ref, "action": "click", "tabId": tab})
	assert.Equal(t, `"signed out"`, status(t, cs, tab))

	// The page's own context menu, which nothing says the item opens: a
	// right click offers what it shows, with refs.
	ctx := interact(t, cs, map[string]any{"query": "report.pdf", "action": "right_click", "tabId": tab})
	require.Len(t, ctx.Offers, 2, "%+v", ctx)
	assert.Equal(t, `menuitem "Rename"`, ctx.Offers[0].Name)
	interact(t, cs, map[string]any{"ref": ctx.Offers[0].Ref, "action": "click", "tabId": tab})
	assert.Equal(t, `"renamed report.pdf"`, status(t, cs, tab))

	// A button that opens nothing offers nothing.
	tab = openTab(t, cs, site.URL+"/form.html")
	show := interact(t, cs, map[string]any{"query": "Show nickname", "action": "click", "tabId": tab})
	assert.Empty(t, show.Offers)
}

// TestAnAppsRouteIsReadOnceDrawn: a click that changes an app's route in
// place answers once the app drew it (its data fetched, then drawn), so the
// answer and the next read are of the route the agent went to.
func TestAnAppsRouteIsReadOnceDrawn(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/app.html")

	a := interact(t, cs, map[string]any{"query": "Inbox", "action": "click", "tabId": tab})
	assert.Equal(t, "Inbox · App", a.Title)
	assert.Equal(t, site.URL+"/app.html?view=inbox", a.URL)
	require.NotNil(t, a.Change, "%+v", a)
	assert.Contains(t, a.Change.Summary, `"3 unread messages"`)
	assert.Contains(t, ok(t, cs, "read_page", map[string]any{"tabId": tab}), "3 unread messages")

	back := ok(t, cs, "navigate", map[string]any{"tabId": tab, "url": "back"})
	assert.Contains(t, back, `"title":"Home · App"`)
	assert.Contains(t, ok(t, cs, "read_page", map[string]any{"tabId": tab}), "Pick a folder.")

	// The computer tool's click at the link's point, as a person's.
	var at struct{ X, Y float64 }
	require.NoError(t, json.Unmarshal([]byte(ok(t, cs, "javascript_tool", map[string]any{"tabId": tab,
		"code": `(() => { const r = document.querySelector('a[href$="archive"]').getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()`})), &at))
	clicked := ok(t, cs, "computer", map[string]any{"tabId": tab, "action": "left_click", "coordinate": []int{int(at.X), int(at.Y)}})
	assert.Contains(t, clicked, "12 archived messages")
	assert.Contains(t, clicked, "Archive · App")
	assert.Equal(t, "3", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.routes"}), "each route drawn once")
}

// TestPickingFromAListThePageDraws fills an autocomplete as a person does:
// types the country, waits for the list (it comes 300 ms later, as from a
// server) and clicks the option, which alone sets the form's value. Each
// input is sent once; a name the list lacks picks nothing and says what it
// offers.
func TestPickingFromAListThePageDraws(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/autocomplete.html")
	value := func() string {
		return ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `document.querySelector("#country-value").value + "|" + window.picks`})
	}

	var out struct {
		Fields []struct {
			Field string `json:"field"`
			OK    bool   `json:"ok"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		} `json:"fields"`
	}
	okJSON(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{
		{"label": "the Name field", "value": "Ada"}, {"label": "Country dropdown", "value": "sweden"},
	}}, &out)
	require.Len(t, out.Fields, 2)
	assert.True(t, out.Fields[1].OK, "%+v", out.Fields[1])
	assert.Equal(t, `"Sweden|1"`, value(), "the option was clicked once; the form has its value")

	a := interact(t, cs, map[string]any{"tabId": tab, "query": "Country", "action": "select", "values": []string{"Norway"}})
	require.NotNil(t, a.Picked, "%+v", a)
	assert.Equal(t, `option "Norway"`, a.Picked.Name)
	assert.Equal(t, "Norway", a.Value)
	assert.Equal(t, `"Norway|2"`, value())
	require.NotNil(t, a.Change)
	assert.Equal(t, `picked option "Norway"`, a.Change.Summary, "the list it closed is the pick's own doing")

	// Typed into, it says what its list shows, with refs to click next.
	a = interact(t, cs, map[string]any{"tabId": tab, "query": "Country", "action": "fill", "text": "Fi"})
	require.Len(t, a.Offers, 1, "%+v", a)
	assert.Equal(t, `option "Finland"`, a.Offers[0].Name)
	require.NotNil(t, a.Change)
	assert.Equal(t, "dom", a.Change.Type, "the list drew itself 300 ms after the text: %+v", a.Change)
	interact(t, cs, map[string]any{"tabId": tab, "ref": a.Offers[0].Ref, "action": "click"})
	assert.Equal(t, `"Finland|3"`, value())

	r := call(t, cs, "interact", map[string]any{"tabId": tab, "query": "Country", "action": "select", "values": []string{"Sw"}})
	require.True(t, r.IsError, textOf(r))
	none := actedOf(t, r)
	require.NotNil(t, none.Error)
	assert.Contains(t, none.Error.Message, `no option named "Sw"`)
	var offered []string
	for _, o := range none.Offers {
		offered = append(offered, o.Name)
	}
	assert.Equal(t, []string{`option "Sweden"`, `option "Swaziland"`}, offered)
	assert.Equal(t, `"|3"`, value(), "typing cleared the value, and nothing was picked")

	// A button that opens no list is not clicked.
	err := fails(t, cs, "interact", map[string]any{"tabId": tab, "query": "Save", "action": "select", "values": []string{"Norway"}}, protocol.CodeBadRequest)
	assert.Contains(t, err.Message, "not a select")
	assert.Equal(t, `""`, status(t, cs, tab), "the form was not sent")

	r = call(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{{"label": "Country", "value": "Atlantis"}}})
	require.True(t, r.IsError, textOf(r))
	require.NoError(t, json.Unmarshal([]byte(textOf(r)), &out))
	require.Len(t, out.Fields, 1)
	assert.False(t, out.Fields[0].OK)
	require.NotNil(t, out.Fields[0].Error)
	assert.Contains(t, out.Fields[0].Error.Message, `"Atlantis"`)

	// By ref, as by label: the option is picked, once.
	country := refOf(t, ok(t, cs, "read_page", map[string]any{"tabId": tab}), `combobox "Country"`)
	okJSON(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{{"ref": country, "value": "Norway"}}}, &out)
	require.Len(t, out.Fields, 1)
	assert.True(t, out.Fields[0].OK, "%+v", out.Fields[0])
	assert.Equal(t, `"Norway|4"`, value())

	// An <input list> is a combobox whose list the browser draws: what is
	// typed is its value.
	carrier := refOf(t, ok(t, cs, "read_page", map[string]any{"tabId": tab}), `combobox "Carrier"`)
	okJSON(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{{"ref": carrier, "value": "Posti"}}}, &out)
	require.Len(t, out.Fields, 1)
	assert.True(t, out.Fields[0].OK, "%+v", out.Fields[0])
	assert.Equal(t, `"Posti"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `document.querySelector("#carrier").value`}))
}

// TestAFormThePageChecksSaysWhichFieldsAreInvalid: a form its own script
// checks marks the fields it refuses (aria-invalid); the click's answer
// names each with the words that say why, and read_page shows them invalid
// until they are fixed. Nothing is sent twice.
func TestAFormThePageChecksSaysWhichFieldsAreInvalid(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/signup.html")
	ok(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{
		{"label": "Email", "value": "ada"}, {"label": "Password", "value": "short"},
	}})
	a := interact(t, cs, map[string]any{"tabId": tab, "query": "Create account", "action": "click"})
	require.NotNil(t, a.Change, "%+v", a)
	assert.Equal(t, `now invalid: textbox "Email" ("Enter an email address like name@example.com"), `+
		`textbox "Password" ("At least 8 characters"), it says alert "Please fix 2 fields"`, a.Change.Summary)
	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	assert.Contains(t, tree, `textbox "Email" `+refOf(t, tree, `textbox "Email"`)+` invalid value="ada"`)
	assert.Contains(t, tree, `textbox "Password" `+refOf(t, tree, `textbox "Password"`)+` invalid password`)

	ok(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{
		{"label": "Email", "value": "ada@example.com"}, {"label": "Password", "value": "analytical-engine"},
	}})
	a = interact(t, cs, map[string]any{"tabId": tab, "query": "Create account", "action": "click"})
	assert.NotContains(t, a.Change.Summary, "invalid", "%+v", a.Change)
	assert.NotContains(t, ok(t, cs, "read_page", map[string]any{"tabId": tab}), "invalid")
	assert.Equal(t, "1", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.runs.created"}))
}

func TestFormInput(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/form.html")

	r := call(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{
		{"label": "Full name", "value": "Ada Lovelace"},
		{"label": "Email", "value": "ada@example.com"},
		{"label": "Country", "value": "Norway"},
		{"label": "Languages", "value": []string{"Go", "Python"}}, // the options a multi-select keeps
		{"label": "Shirt size", "value": "M"},                     // a list the page draws
		{"label": "Subscribe", "value": true},                     // a JSON boolean, as agents send it
		{"label": "Plan", "value": "Pro"},
		{"label": "Toppings", "value": []string{"Ham", "Olives"}}, // these boxes of the group, and only these
		{"label": "Reminders", "value": []string{"By text"}},      // switches the page draws
		{"label": "Start date", "value": "2026-12-01"},
		{"label": "Volume", "value": "8"},
		{"label": "Seats", "value": 3},
		{"label": "Notes", "value": "line one"},
		{"label": "Bio", "value": "Mathematician"},
		{"label": "Nickname", "value": "Countess"},
		{"label": "Attachment", "value": "/etc/passwd"},
		{"label": "Phone", "value": "5551234567"},
		{"label": "Code", "value": "123456"},
	}})
	var out formFilled
	require.NoError(t, json.Unmarshal([]byte(textOf(r)), &out), textOf(r))
	assert.True(t, r.IsError, "two fields failed")
	assert.Equal(t, 16, out.Filled)
	assert.Equal(t, 2, out.Failed)
	// What filling did beyond the values: Volume's output says the level.
	assert.Equal(t, "dom", out.Change.Type, "%+v", out.Change)
	assert.Contains(t, out.Change.Summary, `Volume: it says status "8"`)
	assert.NotContains(t, out.Change.Summary, "Full name", "a field that only took its value says nothing")
	assert.NotContains(t, out.Change.Summary, "Subscribe", "a checkbox's own state is its value")
	assert.NotContains(t, out.Change.Summary, "Bio", "what is typed into an editor is its value")
	assert.NotContains(t, out.Change.Summary, "Code", "a field that failed says why in its error")
	for _, f := range out.Fields {
		switch f.Field {
		case "Attachment":
			assert.False(t, f.OK)
			assert.Contains(t, f.Error.Message, "file", "file choosers are refused")
		case "Code":
			assert.False(t, f.OK)
			assert.Equal(t, "the control did not keep the value: it keeps at most 4 characters", f.Error.Message)
		case "Languages":
			assert.True(t, f.OK, "%+v", f.Error)
			assert.Equal(t, "Go, Python", f.Value)
		case "Toppings":
			assert.True(t, f.OK, "%+v", f.Error)
			assert.Equal(t, "Ham, Olives", f.Value)
		case "Phone":
			assert.True(t, f.OK, "the page's own format of the same digits: %+v", f)
			assert.True(t, f.Formatted)
			assert.Equal(t, "(555) 123-4567", f.Value)
		default:
			assert.True(t, f.OK, "%s: %+v", f.Field, f.Error)
			assert.False(t, f.Formatted, f.Field)
		}
	}
	// A value the browser would drop is refused before anything is written:
	// the date and the seats filled above stay.
	r = call(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{
		{"label": "Start date", "value": "12/01/2026"},
		{"label": "Seats", "value": "three"},
	}})
	out = formFilled{}
	require.NoError(t, json.Unmarshal([]byte(textOf(r)), &out), textOf(r))
	require.Len(t, out.Fields, 2)
	assert.Equal(t, 0, out.Filled)
	assert.Empty(t, out.Change.Type, "nothing was written: nothing to say of the page")
	for i, hint := range []string{"YYYY-MM-DD", "a number"} {
		f := out.Fields[i]
		require.NotNil(t, f.Error, "%+v", f)
		assert.Equal(t, protocol.CodeBadRequest, f.Error.Code)
		assert.Contains(t, f.Error.Message, "nothing was written")
		assert.Contains(t, f.Error.Hint, hint)
	}
	// The React-style Nickname took the value into its state, not just its DOM.
	interact(t, cs, map[string]any{"query": "Show nickname", "action": "click", "tabId": tab})
	assert.Equal(t, `"nickname: Countess"`, status(t, cs, tab))

	interact(t, cs, map[string]any{"query": "Save", "action": "click", "tabId": tab})
	var saved map[string]any
	raw := status(t, cs, tab)
	var s string
	require.NoError(t, json.Unmarshal([]byte(raw), &s))
	require.NoError(t, json.Unmarshal([]byte(s), &saved), s)
	assert.Equal(t, map[string]any{
		"fullName": "Ada Lovelace", "email": "ada@example.com", "country": "no",
		"languages": []any{"go", "python"}, "shirtSize": "M", "subscribe": true, "plan": "pro",
		"toppings": []any{"ham", "olives"}, "reminders": []any{"text"}, "startDate": "2026-12-01",
		"volume": "8", "seats": "3", "notes": "line one", "bio": "Mathematician", "nickname": "Countess",
	}, saved)

	// A list goes to a multi-select; a checkbox says what it takes instead.
	r = call(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{{"label": "Subscribe", "value": []string{"yes"}}}})
	out = formFilled{}
	require.NoError(t, json.Unmarshal([]byte(textOf(r)), &out), textOf(r))
	require.Len(t, out.Fields, 1)
	require.NotNil(t, out.Fields[0].Error, textOf(r))
	assert.Equal(t, protocol.CodeBadRequest, out.Fields[0].Error.Code)
	assert.Contains(t, out.Fields[0].Error.Hint, "true or false")

	// A group given a box it does not have changes none of its boxes, and
	// says which it has; a group already as listed is left alone (an
	// unchecked switch is not clicked to uncheck it).
	r = call(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{
		{"label": "Toppings", "value": []string{"Cheese", "Anchovies"}},
		{"label": "Reminders", "value": []string{"By text"}},
	}})
	out = formFilled{}
	require.NoError(t, json.Unmarshal([]byte(textOf(r)), &out), textOf(r))
	require.Len(t, out.Fields, 2)
	require.NotNil(t, out.Fields[0].Error, textOf(r))
	assert.Equal(t, protocol.CodeNotFound, out.Fields[0].Error.Code)
	assert.Contains(t, out.Fields[0].Error.Message, `"Anchovies"`)
	assert.Equal(t, "its boxes: Cheese, Ham, Olives", out.Fields[0].Error.Hint)
	assert.True(t, out.Fields[1].OK, "%+v", out.Fields[1].Error)
	savedNow := func() map[string]any {
		t.Helper()
		interact(t, cs, map[string]any{"query": "Save", "action": "click", "tabId": tab})
		var s string
		require.NoError(t, json.Unmarshal([]byte(status(t, cs, tab)), &s))
		var saved map[string]any
		require.NoError(t, json.Unmarshal([]byte(s), &saved), s)
		return saved
	}
	saved = savedNow()
	assert.Equal(t, []any{"ham", "olives"}, saved["toppings"])
	assert.Equal(t, []any{"text"}, saved["reminders"])
	// A switch the group's label and its name pick is turned on.
	r = call(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{{"label": "Reminders", "value": "By post"}}})
	out = formFilled{}
	require.NoError(t, json.Unmarshal([]byte(textOf(r)), &out), textOf(r))
	require.Len(t, out.Fields, 1)
	require.NotNil(t, out.Fields[0].Checked, textOf(r))
	assert.True(t, *out.Fields[0].Checked)
	assert.Equal(t, []any{"text", "post"}, savedNow()["reminders"])

	// A checkbox given text that is neither yes nor no (a value meant for
	// another field) is left as it is, and says what it takes.
	before := ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "JSON.stringify([...document.querySelectorAll('input[type=checkbox]')].map((b) => b.checked))"})
	r = call(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{{"label": "Subscribe", "value": "ada@example.com"}}})
	out = formFilled{}
	require.NoError(t, json.Unmarshal([]byte(textOf(r)), &out), textOf(r))
	require.Len(t, out.Fields, 1)
	require.NotNil(t, out.Fields[0].Error, textOf(r))
	assert.Equal(t, protocol.CodeBadRequest, out.Fields[0].Error.Code)
	assert.Contains(t, out.Fields[0].Error.Message, `it takes true or false, not "ada@example.com"`)
	assert.Equal(t, before, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "JSON.stringify([...document.querySelectorAll('input[type=checkbox]')].map((b) => b.checked))"}))

	// A radio named by ref takes its form value, as an agent that read the
	// form's HTML knows it, even a word that reads as no.
	ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "document.getElementById('plan-team').value = 'no'"})
	team := refOf(t, ok(t, cs, "read_page", map[string]any{"tabId": tab}), `radio "Team"`)
	r = call(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{{"ref": team, "value": "no"}}})
	require.False(t, r.IsError, textOf(r))
	assert.Equal(t, "true", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "document.getElementById('plan-team').checked"}))

	fails(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{{"value": "x"}}}, protocol.CodeBadRequest)
	fails(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{}}, protocol.CodeBadRequest)
}

func TestActRunsStepsAndStopsAtAFailure(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/login.html")

	var out struct {
		Steps []acted `json:"steps"`
	}
	// Named as agents name them: the control's name, then its kind.
	okJSON(t, cs, "act", map[string]any{"tabId": tab, "steps": []map[string]any{
		{"query": "the Username field", "action": "fill", "text": "tomsmith"},
		{"query": "Password input", "action": "fill", "text": "SuperSecretPassword!"},
		{"query": "Login button", "action": "click"},
	}}, &out)
	require.Len(t, out.Steps, 3)
	assert.True(t, out.Steps[2].Navigated)
	assert.Equal(t, "Secure Area", out.Steps[2].Title)

	// A sign-in that says "Signing in…" and is sent on 400 ms later: the
	// click's answer is where it went, not the button's new words.
	tab = openTab(t, cs, site.URL+"/login.html?slow")
	okJSON(t, cs, "act", map[string]any{"tabId": tab, "steps": []map[string]any{
		{"query": "Username", "action": "fill", "text": "tomsmith"},
		{"query": "Password", "action": "fill", "text": "SuperSecretPassword!"},
		{"query": "Login", "action": "click"},
	}}, &out)
	require.Len(t, out.Steps, 3)
	assert.True(t, out.Steps[2].Navigated, "%+v", out.Steps[2])
	assert.Equal(t, "Secure Area", out.Steps[2].Title)

	tab = openTab(t, cs, site.URL+"/login.html")
	r := call(t, cs, "act", map[string]any{"tabId": tab, "steps": []map[string]any{
		{"query": "Username", "action": "fill", "text": "tomsmith"},
		{"ref": "e99999", "action": "click"},
		{"query": "Login", "action": "click"},
	}})
	require.True(t, r.IsError)
	assert.Contains(t, textOf(r), "act stopped at step 2 of 3")
	assert.NotContains(t, textOf(r), `"hitl"`, "no hand-over is suggested for a ref that never was")
	assert.Equal(t, `"Login Page"`, ok(t, cs, "javascript_tool", map[string]any{"code": "document.title", "tabId": tab}), "step 3 did not run")

	err := fails(t, cs, "act", map[string]any{"tabId": tab, "steps": []map[string]any{{"action": "click"}}}, protocol.CodeBadRequest)
	assert.Contains(t, err.Message, "step 1")
}

// TestAKeyPressSaysWhatItDid: Enter in a login form, pressed in the field
// (by ref) or at whatever has focus (no ref), is delivered once and says
// where it went, with the read that comes next.
func TestAKeyPressSaysWhatItDid(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	for _, byRef := range []bool{true, false} {
		t.Run(fmt.Sprintf("by ref %v", byRef), func(t *testing.T) {
			tab := openTab(t, cs, site.URL+"/login.html")
			interact(t, cs, map[string]any{"query": "Username", "action": "fill", "text": "tomsmith", "tabId": tab})
			pw := interact(t, cs, map[string]any{"query": "Password", "action": "fill", "text": "SuperSecretPassword!", "tabId": tab})
			args := map[string]any{"action": "press", "key": "Enter", "tabId": tab}
			if byRef {
				args["ref"] = pw.Ref
			}
			a := interact(t, cs, args)
			assert.True(t, a.Delivered)
			require.NotNil(t, a.Change, "%+v", a)
			assert.Equal(t, "navigation", a.Change.Type)
			require.NotEmpty(t, a.NextActions)
			assert.Equal(t, "read_page", a.NextActions[0].Tool)
			assert.Equal(t, `"Secure Area"`, ok(t, cs, "javascript_tool", map[string]any{"code": "document.title", "tabId": tab}))
		})
	}
}

// TestTypedTextFollowsWhatAFieldHolds types into fields whose text comes
// from the page's HTML, where a script's focus leaves the caret before it:
// the text goes after it, as after a person's click beside the words; in a
// field the caret was put in first, it goes there.
func TestTypedTextFollowsWhatAFieldHolds(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/keys.html")
	for _, f := range []struct{ label, text, want, js string }{
		{"Subject", " (2)", "Re: Plans (2)", `document.querySelector("#subject").value`},
		{"Reply to", ".org", "ann@example.test.org", `document.querySelector("#reply-to").value`},
		{"Draft", " see you", "Dear Ann, see you", `document.querySelector("#draft").value`},
		{"Signature", "!", "Best, Bo!", `document.querySelector("#signature").textContent`},
	} {
		interact(t, cs, map[string]any{"query": f.label, "action": "type", "text": f.text, "tabId": tab})
		assert.Equal(t, strconv.Quote(f.want), ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": f.js}), f.label)
	}
	// A field the page focused itself (autofocus) has the caret before its
	// text: typed text goes after it all the same.
	edit := openTab(t, cs, site.URL+"/edit.html")
	require.Equal(t, `"title 0"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": edit,
		"code": `document.activeElement.id + " " + document.activeElement.selectionStart`}))
	interact(t, cs, map[string]any{"query": "Title", "action": "type", "text": " (edited)", "tabId": edit})
	assert.Equal(t, `"Old title (edited)"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": edit, "code": `document.querySelector("#title").value`}))
	interact(t, cs, map[string]any{"query": "Title", "action": "type", "text": "!", "tabId": edit})
	assert.Equal(t, `"Old title (edited)!"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": edit, "code": `document.querySelector("#title").value`}),
		"typed on from where the last typing left the caret")

	// A field drawn anew on each key: the first key is its last; the rest
	// would have gone to the page itself, and is not sent.
	summary := func() string {
		return ok(t, cs, "javascript_tool", map[string]any{"tabId": edit, "code": `document.querySelector("#sum").value + "|" + window.stray`})
	}
	a := interact(t, cs, map[string]any{"query": "Summary", "action": "type", "text": "Hello", "tabId": edit})
	assert.True(t, strings.HasPrefix(a.Typed, "1 of 5 characters: then nothing on the page had the focus"), "%+v", a)
	assert.Equal(t, `"H|0"`, summary(), "no key reached the page outside a field")
	a = interact(t, cs, map[string]any{"query": "Summary", "action": "fill", "text": "Hello", "tabId": edit})
	assert.Empty(t, a.Typed)
	assert.Equal(t, `"Hello|0"`, summary(), "fill sets it in one input")

	interact(t, cs, map[string]any{"query": "Draft", "action": "press", "key": "Home", "tabId": tab})
	interact(t, cs, map[string]any{"query": "Draft", "action": "type", "text": "> ", "tabId": tab})
	assert.Equal(t, `"> Dear Ann, see you"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `document.querySelector("#draft").value`}),
		"the caret the agent put in the field stays where it is")
}

// TestAKeyThatChangesAFieldSaysWhatItHolds: Enter in a tag box adds the
// tag and empties the box, and Backspace takes a character off: each
// answer says what the field holds now. A password field's never.
func TestAKeyThatChangesAFieldSaysWhatItHolds(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/keys.html")
	tags := interact(t, cs, map[string]any{"query": "Tags", "action": "type", "text": "red", "tabId": tab})
	a := interact(t, cs, map[string]any{"ref": tags.Ref, "action": "press", "key": "Enter", "tabId": tab})
	require.NotNil(t, a.Change, "%+v", a)
	assert.Equal(t, "dom", a.Change.Type)
	assert.Contains(t, a.Change.Summary, "it was emptied")
	assert.Contains(t, a.Change.Summary, `1 element added: "red"`)
	interact(t, cs, map[string]any{"ref": tags.Ref, "action": "type", "text": "blue", "tabId": tab})
	a = interact(t, cs, map[string]any{"ref": tags.Ref, "action": "press", "key": "Backspace", "tabId": tab})
	require.NotNil(t, a.Change, "%+v", a)
	assert.Equal(t, `its value is now "blu"`, a.Change.Summary)
	// At the focus, with no ref, as the computer tool's keys: the same.
	a = interact(t, cs, map[string]any{"action": "press", "key": "Backspace", "tabId": tab})
	require.NotNil(t, a.Change, "%+v", a)
	assert.Equal(t, `its value is now "bl"`, a.Change.Summary)

	// A list that keeps the focus: the arrows say the option they make
	// active, Enter what the field took.
	a = interact(t, cs, map[string]any{"query": "Fruit", "action": "press", "key": "ArrowDown", "tabId": tab})
	require.NotNil(t, a.Change, "%+v", a)
	assert.Equal(t, `option "Apple" active`, a.Change.Summary)
	a = interact(t, cs, map[string]any{"action": "press", "key": "ArrowDown", "tabId": tab})
	require.NotNil(t, a.Change, "%+v", a)
	assert.Equal(t, `option "Banana" active`, a.Change.Summary)
	assert.Contains(t, ok(t, cs, "computer", map[string]any{"action": "key", "text": "Return", "tabId": tab}), `its value is now \"Banana\"`)

	// What the person copied is theirs: a chord that pastes it is refused,
	// by ref, at the focus and by computer, and the field stays as it was.
	for _, chord := range []map[string]any{
		{"tool": "interact", "ref": tags.Ref, "action": "press", "key": "ctrl+v"},
		{"tool": "interact", "action": "press", "key": "shift+Insert"},
		{"tool": "computer", "action": "key", "text": "ctrl+shift+v"},
	} {
		tool := chord["tool"].(string)
		delete(chord, "tool")
		chord["tabId"] = tab
		err := fails(t, cs, tool, chord, protocol.CodeUnauthorized)
		assert.Contains(t, err.Message, "would paste what the person last copied")
	}
	assert.Equal(t, `"bl"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `document.querySelector("#tags").value`}))

	// The browser's own keys reach the page, not the browser: the answer
	// says what a person's would have done, and the call that does it.
	a = interact(t, cs, map[string]any{"action": "press", "key": "F5", "tabId": tab})
	require.NotNil(t, a.Change, "%+v", a)
	assert.Contains(t, a.Change.Summary, "F5 reloads the page in a browser, which keys sent to the page do not do")
	require.Len(t, a.NextActions, 1)
	assert.Equal(t, "navigate", a.NextActions[0].Tool)
	assert.Equal(t, "reload", a.NextActions[0].Args["url"])
	assert.Contains(t, ok(t, cs, "computer", map[string]any{"action": "key", "text": "ctrl+w", "tabId": tab}),
		"ctrl+w closes the tab in a browser")
	var tc tabsContext
	okJSON(t, cs, "tabs_context", map[string]any{}, &tc)
	assert.Len(t, tc.Tabs, 1, "the tab is still open")

	tab = openTab(t, cs, site.URL+"/login.html")
	pw := interact(t, cs, map[string]any{"query": "Password", "action": "fill", "text": "SuperSecretPassword!", "tabId": tab})
	r := call(t, cs, "interact", map[string]any{"ref": pw.Ref, "action": "press", "key": "Backspace", "tabId": tab})
	require.False(t, r.IsError, textOf(r))
	assert.NotContains(t, textOf(r), "SuperSecret", "a secret field's value is never said")
}

// TestTabSaysWhereTheFocusWent: Tab in a field, and Tab at whatever has
// the focus, say where the keys go next, with its ref.
func TestTabSaysWhereTheFocusWent(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/login.html")
	user := interact(t, cs, map[string]any{"query": "Username", "action": "fill", "text": "tomsmith", "tabId": tab})
	a := interact(t, cs, map[string]any{"ref": user.Ref, "action": "press", "key": "Tab", "tabId": tab})
	require.NotNil(t, a.Focused, "%+v", a)
	assert.Equal(t, `textbox "Password"`, a.Focused.Name)
	require.NotNil(t, a.Change)
	assert.Equal(t, `input delivered; the focus moved to textbox "Password" `+a.Focused.Ref, a.Change.Summary)

	a = interact(t, cs, map[string]any{"action": "press", "key": "Tab", "tabId": tab})
	require.NotNil(t, a.Focused, "%+v", a)
	assert.Equal(t, `button "Login"`, a.Focused.Name)
	// The ref is the button's: it acts on it.
	interact(t, cs, map[string]any{"ref": a.Focused.Ref, "action": "focus", "tabId": tab})
	a = interact(t, cs, map[string]any{"action": "press", "key": "Shift+Tab", "tabId": tab})
	require.NotNil(t, a.Focused, "%+v", a)
	assert.Equal(t, `textbox "Password"`, a.Focused.Name)

	// A key that moves nothing says nothing of the focus.
	a = interact(t, cs, map[string]any{"action": "press", "key": "Shift", "tabId": tab})
	assert.Nil(t, a.Focused)
}

// TestAKeyAtTheFocusSaysWhatItDid: Escape sent to whatever has the focus
// closes a modal dialog, and the answer says so, as a click's does.
func TestAKeyAtTheFocusSaysWhatItDid(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/banners.html?kind=modal")
	a := interact(t, cs, map[string]any{"action": "press", "key": "Escape", "tabId": tab})
	require.NotNil(t, a.Change, "%+v", a)
	assert.Equal(t, "dom", a.Change.Type)
	assert.Contains(t, a.Change.Summary, `dialog closed: dialog "Your privacy"`)
}

// TestScrollingThePage scrolls a long page with interact and no element, as
// a person turns the wheel over it: the answer says where the view is.
func TestScrollingThePage(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/list.html")

	down := interact(t, cs, map[string]any{"action": "scroll", "tabId": tab})
	require.NotNil(t, down.Change, "%+v", down)
	assert.Equal(t, "dom", down.Change.Type)
	assert.Regexp(t, `scrolled the page to y \d+ of \d+ px$`, down.Change.Summary)
	assert.NotEqual(t, "0", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "scrollY"}))

	interact(t, cs, map[string]any{"action": "scroll", "direction": "up", "amount": 100000, "tabId": tab})
	assert.Equal(t, "0", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "scrollY"}))
	top := interact(t, cs, map[string]any{"action": "scroll", "direction": "up", "tabId": tab})
	assert.Equal(t, "none", top.Change.Type, "at the top already: %s", top.Change.Summary)
	assert.Contains(t, top.Change.Summary, "the page did not move")
}

// TestARowsHiddenControlIsShownByHoveringTheRow asks for a Delete that
// shows only while the pointer is over its row, by the row it is in: the
// answer names that row to hover, and once hovered the Delete is clicked
// once, in that row.
func TestARowsHiddenControlIsShownByHoveringTheRow(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/rows.html")

	err := fails(t, cs, "interact", map[string]any{"query": "Delete near Invoice 1002", "action": "click", "tabId": tab}, protocol.CodeNotFound)
	assert.Contains(t, err.Message, `button "Delete" is there but hidden, inside row "Invoice 1002`)
	row := regexp.MustCompile(`hover or click (e\d+)`).FindStringSubmatch(err.Hint)
	require.Len(t, row, 2, err.Hint)
	shown := interact(t, cs, map[string]any{"ref": row[1], "action": "hover", "tabId": tab})
	require.NotNil(t, shown.Change)
	assert.Contains(t, shown.Change.Summary, `1 element shown: "Delete"`)
	interact(t, cs, map[string]any{"query": "Delete", "action": "click", "tabId": tab})
	assert.Equal(t, `["Invoice 1002"]`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.deleted"}))

	// Rows drawn with plain boxes say where a control is as well.
	a := interact(t, cs, map[string]any{"query": "Archive for Invoice 2002", "action": "click", "tabId": tab})
	assert.Contains(t, a.Found, `in div "Invoice 2002 Archive"`)
	assert.Equal(t, `["Invoice 2002"]`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.archived"}))
}

// TestACodeSplitAcrossBoxes fills a one-time code into boxes of one
// character each: fill keeps what the first box takes and says how to go
// on; clear and type then fill every box, each key heard once.
func TestACodeSplitAcrossBoxes(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/code.html")
	eval := func(code string) string {
		return ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": code})
	}
	first := refOf(t, ok(t, cs, "read_page", map[string]any{"tabId": tab}), `textbox "Digit 1"`)

	var filled struct {
		acted
		Unkept string `json:"unkept"`
	}
	okJSON(t, cs, "interact", map[string]any{"ref": first, "action": "fill", "text": "482913", "tabId": tab}, &filled)
	assert.Equal(t, "4", filled.Value)
	require.NotNil(t, filled.Verified)
	assert.False(t, *filled.Verified)
	assert.Contains(t, filled.Unkept, "it keeps at most 1 character (a box of a code split across boxes? clear it, then type the code")

	interact(t, cs, map[string]any{"ref": first, "action": "clear", "tabId": tab})
	before := eval("window.keys")
	typed := interact(t, cs, map[string]any{"ref": first, "action": "type", "text": "482913", "tabId": tab})
	assert.True(t, typed.Delivered)
	assert.Equal(t, `"482913"`, eval("document.getElementById('code').textContent"), "each key went to the box the page moved to")
	n, err := strconv.Atoi(before)
	require.NoError(t, err)
	assert.Equal(t, strconv.Itoa(n+6), eval("window.keys"), "six keys, each heard once")
}

// TestAScrollToTheEndOfAFeedSaysItGrew: a feed that loads more a moment
// after the view reaches its end (a timer here, a request on a real site):
// the scroll's answer says the page grew, so the agent scrolls on, and
// says when it stops growing.
func TestAScrollToTheEndOfAFeedSaysItGrew(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/more.html")
	scroll := func() string {
		a := interact(t, cs, map[string]any{"action": "scroll", "direction": "down", "amount": 5000, "tabId": tab})
		require.NotNil(t, a.Change, "%+v", a)
		return a.Change.Summary
	}
	for i := 1; i <= 3; i++ {
		assert.Regexp(t, `^scrolled the page to y \d+ of \d+ px, it grew 1220 px$`, scroll(), "load %d: 20 posts of 61 px", i)
		assert.Equal(t, strconv.Itoa(i), ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.loads"}))
	}
	assert.Regexp(t, `^scrolled the page to y \d+ of 4969 px$`, scroll(), "to its end, where nothing more comes")
	assert.Contains(t, scroll(), "no visible change: the page did not move (it is at its end")
}

// TestAPaneScrollsByItsRef reads a pane that scrolls and draws only the
// rows in its view: read_page gives it a ref and says it scrolls, a scroll
// by that ref says where the pane is, and brings a row that was not drawn
// into the tree to be clicked once.
func TestAPaneScrollsByItsRef(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/feed.html")

	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	pane := refOf(t, tree, `generic "Messages"`)
	assert.Contains(t, tree, `generic "Messages" `+pane+" scrollable\n button \"Message 1\"", tree)
	assert.NotContains(t, tree, "Message 150")
	assert.NotContains(t, tree, `"Pinned"`, "a pane with nothing more to show is not one to scroll")
	assert.Equal(t, 2, strings.Count(tree, "scrollable"), "the pane and the frame, not the page, which scrolls too: %s", tree)
	frame := refOf(t, tree, `iframe "Terms"`)
	assert.Contains(t, tree, `iframe "Terms" `+frame+" scrollable")

	down := interact(t, cs, map[string]any{"ref": pane, "action": "scroll", "amount": 4470, "tabId": tab})
	require.NotNil(t, down.Change, "%+v", down)
	assert.Equal(t, "dom", down.Change.Type)
	assert.Regexp(t, `^scrolled div "Messages" to y 4470 of 6000 px, `, down.Change.Summary)
	tree = ok(t, cs, "read_page", map[string]any{"tabId": tab})
	interact(t, cs, map[string]any{"ref": refOf(t, tree, `button "Message 150"`), "action": "click", "tabId": tab})
	assert.Equal(t, `{"150":1}`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.opened"}))

	interact(t, cs, map[string]any{"ref": pane, "action": "scroll", "amount": 100000, "tabId": tab})
	end := interact(t, cs, map[string]any{"ref": pane, "action": "scroll", "tabId": tab})
	assert.Equal(t, "none", end.Change.Type, end.Change.Summary)
	assert.Contains(t, end.Change.Summary, `div "Messages" did not move (it is at its end)`)
	assert.False(t, end.Delivered, "a pane at its end would pass the wheel on to the page: nothing is sent")
	assert.Equal(t, "0", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "scrollY"}), "the page did not move")

	// A frame's document scrolls in the frame.
	framed := interact(t, cs, map[string]any{"ref": frame, "action": "scroll", "amount": 300, "tabId": tab})
	require.NotNil(t, framed.Change, "%+v", framed)
	assert.Regexp(t, `^scrolled iframe "Terms" to y 300 of \d+ px$`, framed.Change.Summary)
	assert.Equal(t, "300", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "document.getElementById('terms').contentWindow.scrollY"}))

	// So does a cross-site frame's, which only its own page script reads.
	// Its line says it scrolls, as its page script reads its document.
	tab = openTab(t, cs, site.URL+"/frames.html?cross="+siteOnLocalhost(site, "/list.html"))
	tree = ok(t, cs, "read_page", map[string]any{"tabId": tab})
	crossRef := refOf(t, tree, `iframe "Cross origin frame"`)
	assert.Regexp(t, `iframe "Cross origin frame" `+crossRef+` scrollable -> `, tree)
	assert.NotContains(t, tree, `iframe "Same origin frame" `+refOf(t, tree, `iframe "Same origin frame"`)+" scrollable", "its document fits")
	cross := interact(t, cs, map[string]any{"ref": crossRef, "action": "scroll", "amount": 200, "tabId": tab})
	require.NotNil(t, cross.Change, "%+v", cross)
	assert.Regexp(t, `^scrolled iframe "Cross origin frame" to y 200 of \d+ px`, cross.Change.Summary)
}

func TestComputer(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/keys.html")
	js := func(code string) string {
		return ok(t, cs, "javascript_tool", map[string]any{"code": code, "tabId": tab})
	}
	point := func(sel string, dx, dy int) []int {
		var xy []float64
		require.NoError(t, json.Unmarshal([]byte(js(fmt.Sprintf(
			`(r => [r.x, r.y])(document.querySelector(%q).getBoundingClientRect())`, sel))), &xy))
		return []int{int(xy[0]) + dx, int(xy[1]) + dy}
	}

	// Give #status its first line, so the drag below does not shift the page.
	ok(t, cs, "computer", map[string]any{"action": "left_click", "coordinate": point("#drawing-area", 50, 50), "tabId": tab})
	assert.Equal(t, `"Drags: 1"`, js(`document.querySelector("#drag-count").textContent`), "a click is a drag of nothing")
	from, to := point("#drawing-area", 10, 20), point("#drawing-area", 200, 150)
	var dragged struct {
		Changes string `json:"changes"`
		Change  struct{ Type, Summary string }
	}
	okJSON(t, cs, "computer", map[string]any{"action": "left_click_drag", "coordinate": from, "to": to, "tabId": tab}, &dragged)
	assert.Equal(t, `"Drags: 2"`, js(`document.querySelector("#drag-count").textContent`))
	// Raw input is watched on the whole page: it says what changed, once.
	assert.Equal(t, "dom", dragged.Change.Type, "%+v", dragged)
	assert.Contains(t, dragged.Change.Summary, `it says status "up 199,149"`)
	assert.Empty(t, dragged.Changes)
	assert.Regexp(t, `Last drag: 9,19 to 199,149`, js(`document.querySelector("#last-drag").textContent`))

	interact(t, cs, map[string]any{"query": "Keys", "action": "click", "tabId": tab})
	ok(t, cs, "computer", map[string]any{"action": "type", "text": "Hi!", "tabId": tab})
	assert.Equal(t, `"Hi!"`, js(`document.querySelector("#keys").value`))
	ok(t, cs, "computer", map[string]any{"action": "key", "key": "ctrl+a", "tabId": tab})
	assert.Equal(t, `"key:a ctrl:true shift:false"`, status(t, cs, tab))
	ok(t, cs, "computer", map[string]any{"action": "key", "key": "Backspace", "tabId": tab})
	assert.Equal(t, `""`, js(`document.querySelector("#keys").value`), "ctrl+a selected it all")

	wheeled := ok(t, cs, "computer", map[string]any{"action": "scroll", "coordinate": point("#scroll-box", 20, 20), "scroll": []int{0, 120}, "tabId": tab})
	assert.Equal(t, `"scrollTop: 120"`, status(t, cs, tab))
	assert.Contains(t, wheeled, `scrolled region \"Scroll box\" to y 120 of`, "the answer says what the wheel moved")

	r := call(t, cs, "computer", map[string]any{"action": "screenshot", "tabId": tab})
	require.False(t, r.IsError)
	_, isImage := r.Content[0].(*mcp.ImageContent)
	assert.True(t, isImage)

	err := fails(t, cs, "computer", map[string]any{"action": "left_click", "coordinate": []int{5000, 10}, "tabId": tab}, protocol.CodeBadRequest)
	assert.Contains(t, err.Hint, "screenshot")
	fails(t, cs, "computer", map[string]any{"action": "left_click", "tabId": tab}, protocol.CodeBadRequest)
	fails(t, cs, "computer", map[string]any{"action": "key", "key": "hyper+q", "tabId": tab}, protocol.CodeBadRequest)
}

func TestWaitFor(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/wait.html")
	type waited struct {
		Met      bool   `json:"met"`
		Seen     string `json:"seen"`
		URL      string `json:"url"`
		WaitedMs int    `json:"waitedMs"`
	}
	wait := func(args map[string]any) waited {
		t.Helper()
		args["tabId"] = tab
		var w waited
		okJSON(t, cs, "wait_for", args, &w)
		assert.True(t, w.Met)
		return w
	}

	interact(t, cs, map[string]any{"query": "Show later", "action": "click", "tabId": tab})
	w := wait(map[string]any{"text": "Appeared late"})
	// The page adds the text 1.5 s after the click; the click's answer
	// watches for what it starts on a timer for a while, less under load.
	assert.Greater(t, w.WaitedMs, 300, "it waited for the page")
	assert.Less(t, w.WaitedMs, 2500, "and returned as soon as the text showed")

	interact(t, cs, map[string]any{"query": "Hide later", "action": "click", "tabId": tab})
	wait(map[string]any{"textGone": "Going away"})

	interact(t, cs, map[string]any{"query": "Enable later", "action": "click", "tabId": tab})
	wait(map[string]any{"selector": "#ready", "state": "enabled"})

	wait(map[string]any{"predicate": "document.querySelectorAll('p').length > 0"})

	interact(t, cs, map[string]any{"query": "Navigate later", "action": "click", "tabId": tab})
	w = wait(map[string]any{"url": "*done=1"})
	assert.Contains(t, w.URL, "done=1")

	err := fails(t, cs, "wait_for", map[string]any{"text": "Never there", "timeoutMs": 300, "tabId": tab}, protocol.CodeTimeout)
	assert.Contains(t, err.Message, `last seen: no text "Never there"`)
	fails(t, cs, "wait_for", map[string]any{"tabId": tab}, protocol.CodeBadRequest)
	fails(t, cs, "wait_for", map[string]any{"text": "a", "url": "b", "tabId": tab}, protocol.CodeBadRequest)
	fails(t, cs, "wait_for", map[string]any{"text": "a", "state": "visible", "tabId": tab}, protocol.CodeBadRequest)
	fails(t, cs, "wait_for", map[string]any{"predicate": "throw new Error('nope')", "tabId": tab}, protocol.CodeBadRequest)

	// Words a web component shows in its shadow root, open or closed, as
	// an agent writes them: any case, any spacing.
	tab = openTab(t, cs, site.URL+"/shadow.html")
	wait(map[string]any{"text": "shadow  heading", "timeoutMs": 1000})
	wait(map[string]any{"text": "Hidden in closed shadow", "timeoutMs": 1000})
	err = fails(t, cs, "wait_for", map[string]any{"textGone": "closed tile", "timeoutMs": 300, "tabId": tab}, protocol.CodeTimeout)
	assert.Contains(t, err.Message, "still on the page")
}

// TestTheTypedPasswordNeverComesBack runs the login flow and checks that
// no output of any tool holds the password, whatever it read or did.
func TestTheTypedPasswordNeverComesBack(t *testing.T) {
	e := newEnv(t, "OPENCHROME_LOG=debug")
	site := fixtureSite(t)
	cs := e.client("e2e")
	const password = "SuperSecretPassword!"
	tab := openTab(t, cs, site.URL+"/login.html")
	var outputs []string
	record := func(tool string, args map[string]any) {
		args["tabId"] = tab
		r := call(t, cs, tool, args)
		b, _ := json.Marshal(r)
		outputs = append(outputs, string(b))
	}
	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	record("interact", map[string]any{"ref": refOf(t, tree, `textbox "Username"`), "action": "fill", "text": "tomsmith"})
	record("interact", map[string]any{"ref": refOf(t, tree, `textbox "Password"`), "action": "type", "text": "SuperSecret", "snapshot": "diff"})
	record("interact", map[string]any{"ref": refOf(t, tree, `textbox "Password"`), "action": "fill", "text": password, "snapshot": "full"})
	record("read_page", map[string]any{})
	record("read_page", map[string]any{"mode": "text"})
	record("find", map[string]any{"query": "Password"})
	record("form_input", map[string]any{"fields": []map[string]any{{"label": "Password", "value": password}}})
	record("interact", map[string]any{"ref": refOf(t, tree, `button "Login"`), "action": "click", "snapshot": "full"})
	assert.Contains(t, outputs[len(outputs)-1], "Secure Area", "the login went through")
	// Once typed into a password field, the engine knows the password: a
	// script that returns it, a memo that repeats it, come back masked.
	record("javascript_tool", map[string]any{"code": `"it was " + "SuperSecret" + "Password!"`})
	assert.Contains(t, outputs[len(outputs)-1], "it was [redacted]")
	memo := call(t, cs, "oc_session_snapshot", map[string]any{"objective": "log in", "notes": "used " + password})
	b, _ := json.Marshal(memo)
	outputs = append(outputs, string(b))
	for _, o := range outputs {
		assert.NotContains(t, o, password)
		assert.NotContains(t, o, "SuperSecret")
	}
	secretsOnDisk(t, string(e.home), password)
}

// TestAClosedSelectSaysWhatItOffers: a closed select's list is the
// browser's own, drawn outside the page, which no read or click reaches. The
// tree lists its options, a click on it says how to pick one, and a click on
// an option's text picks it, once.
func TestAClosedSelectSaysWhatItOffers(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/form.html")
	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	country := refOf(t, tree, `combobox "Country"`)
	assert.Contains(t, tree, country+` value="Sweden" options="Norway|Sweden|Denmark"`)

	a := interact(t, cs, map[string]any{"ref": country, "action": "click", "tabId": tab})
	require.NotNil(t, a.Change)
	assert.Contains(t, a.Change.Summary, "pick with interact select, from Norway, Sweden, Denmark")
	require.Len(t, a.NextActions, 1)
	assert.Equal(t, map[string]any{"action": "select", "ref": country, "values": []any{"Norway"}, "tabId": float64(tab)}, a.NextActions[0].Args)

	a = interact(t, cs, map[string]any{"query": "Denmark", "action": "click", "tabId": tab})
	assert.Equal(t, "select", a.Action)
	assert.Equal(t, country, a.Ref)
	assert.Contains(t, a.Found, `option "Denmark"`)
	assert.Equal(t, "Denmark", a.Value)
	require.NotNil(t, a.Change)
	assert.Equal(t, "input delivered; the value is set, nothing else changed", a.Change.Summary)
	assert.Empty(t, a.Changes, "said once, in the summary")
	assert.Equal(t, map[string]any{"country": float64(1)}, pageRuns(t, cs, tab), "one change event")

	assert.Contains(t, ok(t, cs, "find", map[string]any{"query": "Norway", "tabId": tab}), country+` (option "Norway")`)
	err := fails(t, cs, "interact", map[string]any{"query": "Country", "action": "select", "tabId": tab}, protocol.CodeBadRequest)
	assert.Contains(t, err.Message, "not one of its options")
}

// TestTypingPressesTheKeysAPersonWould types a tab and a line break: Tab
// moves to the next field, as it does under a person's hands.
func TestTypingPressesTheKeysAPersonWould(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/form.html")
	interact(t, cs, map[string]any{"query": "Full name", "action": "type", "text": "Ada Lovelace\tada@example.com", "tabId": tab})
	assert.Equal(t, `["Ada Lovelace","ada@example.com"]`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab,
		"code": `["#full-name", "#email"].map((s) => document.querySelector(s).value)`}))
}

// TestASubmitTheBrowserStopsSaysWhy clicks Save on a form whose email the
// browser's own validation refuses: the answer says the form was not sent,
// and why, as the bubble a person sees does.
func TestASubmitTheBrowserStopsSaysWhy(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/form.html")
	interact(t, cs, map[string]any{"query": "Email", "action": "fill", "text": "ada", "tabId": tab})
	a := interact(t, cs, map[string]any{"query": "Save", "action": "click", "tabId": tab})
	assert.True(t, a.Delivered)
	assert.Contains(t, a.Change.Summary, `the form was not sent: textbox "Email": `)
	assert.Equal(t, `""`, status(t, cs, tab), "not submitted")

	interact(t, cs, map[string]any{"query": "Email", "action": "fill", "text": "ada@example.com", "tabId": tab})
	a = interact(t, cs, map[string]any{"query": "Save", "action": "click", "tabId": tab})
	assert.NotContains(t, a.Change.Summary, "not sent")
	assert.Contains(t, status(t, cs, tab), "ada@example.com")
}

// TestACodeEditorIsFilledWhole fills a code editor built as Ace and Monaco
// are: its textarea holds none of the code, so fill selects all of it with
// the editor's own key, and the text replaces it.
func TestACodeEditorIsFilledWhole(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/code-editor.html")
	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	code := refOf(t, tree, `textbox "Code"`)
	assert.NotContains(t, tree, code+` value=`, "the textarea's own text is not the code")
	assert.Contains(t, tree, `println!("Hello");`, "the code is read where the editor draws it")

	a := interact(t, cs, map[string]any{"ref": code, "action": "fill", "text": "fn main() {\n    println!(\"Hi\");\n}", "tabId": tab})
	assert.True(t, a.Delivered)
	assert.Nil(t, a.Verified, "the textarea's text cannot say whether the editor kept it")
	assert.Equal(t, `"fn main() {\n    println!(\"Hi\");\n}"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.code()"}),
		"the code was replaced, not added to")

	// CodeMirror 5 keeps its textarea in a box of no height: still the
	// editor's textbox, found by its name.
	config := refOf(t, tree, `textbox "Config"`)
	a = interact(t, cs, map[string]any{"query": "Config", "action": "fill", "text": "debug = true", "tabId": tab})
	assert.Equal(t, config, a.Ref)
	a = interact(t, cs, map[string]any{"ref": config, "action": "type", "text": "\nverbose = true", "tabId": tab})
	assert.True(t, a.Delivered)
	assert.Equal(t, `"debug = true\nverbose = true"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "window.config()"}),
		"filled whole, then typed after")
}

// TestARichTextEditorIsOneTextbox reads an editor drawn as a frame whose
// body is editable: one textbox, its text the value, filled by ref.
func TestARichTextEditorIsOneTextbox(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/editor.html")
	ok(t, cs, "wait_for", map[string]any{"tabId": tab, "predicate": "window.editorLoaded === true"})
	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	body := refOf(t, tree, `textbox "Message body"`)
	assert.Contains(t, tree, body+` value="Draft"`)
	interact(t, cs, map[string]any{"ref": body, "action": "fill", "text": "Hello from the agent", "tabId": tab})
	assert.Contains(t, ok(t, cs, "read_page", map[string]any{"tabId": tab}), body+` value="Hello from the agent"`)
}

func TestATabLeavingTheGroupIsReleased(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/form.html")
	interact(t, cs, map[string]any{"query": "Full name", "action": "fill", "text": "x", "tabId": tab})

	attached := func() int {
		var h struct {
			Browsers []struct {
				AttachedTabs int `json:"attachedTabs"`
			} `json:"browsers"`
		}
		okJSON(t, cs, "oc_connection_health", map[string]any{}, &h)
		require.Len(t, h.Browsers, 1)
		return h.Browsers[0].AttachedTabs
	}
	require.Equal(t, 1, attached())

	// The user drags the tab out of the group.
	require.NoError(t, e.devtools().evalExtension(fmt.Sprintf(`chrome.tabs.ungroup(%d).then(() => true)`, tab), nil))
	require.Eventually(t, func() bool { return attached() == 0 }, 5*time.Second, 100*time.Millisecond,
		"its debugger (and the infobar) goes")
	fails(t, cs, "read_page", map[string]any{"tabId": tab}, protocol.CodeTabNotAllowed)
}

// TestALongTextIsKeptWhole fills a text area with more than an answer
// quotes: the field keeps it all, the answer says so, and quotes only its
// start.
func TestALongTextIsKeptWhole(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/form.html")
	text := strings.Repeat("A line of the letter, long enough to matter.\n", 30)
	a := interact(t, cs, map[string]any{"query": "Notes", "action": "fill", "text": text, "tabId": tab})
	require.NotNil(t, a.Verified, "%+v", a)
	assert.True(t, *a.Verified, "the field holds all of it")
	require.NotNil(t, a.Change)
	assert.Equal(t, "input delivered; the value is set, nothing else changed", a.Change.Summary)
	quoted, _ := a.Value.(string)
	assert.Less(t, len(quoted), 300, "the answer quotes its start only")
	assert.Equal(t, strconv.Itoa(len(text)), ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `document.querySelector("#notes").value.length`}))
}

// TestAnAgentTabBehindThePersonsOwn acts in an agent tab while its window
// shows the person's own tab, which stays shown: Chrome draws no frame of
// the agent's, and a mouse move or a wheel waits for one. A click still
// lands at once, once; a scroll moves the page; a drag, which needs the
// page to answer each move, is refused with nothing dragged.
func TestAnAgentTabBehindThePersonsOwn(t *testing.T) {
	e := newEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/menu.html")
	e.personOpens(site.URL + "/index.html?who=person")
	require.Equal(t, map[int]bool{tab: false}, activeOf(t, cs, tab))

	start := time.Now()
	a := interact(t, cs, map[string]any{"query": "Products", "action": "click", "tabId": tab})
	assert.Less(t, time.Since(start), 4*time.Second, "not the seconds Chrome takes to answer a hidden tab's move")
	require.NotNil(t, a.Change)
	assert.Contains(t, a.Change.Summary, "now expanded")
	interact(t, cs, map[string]any{"ref": a.Offers[0].Ref, "action": "click", "tabId": tab})
	assert.Equal(t, `"chose: Laptops"`, status(t, cs, tab))

	tab = openTab(t, cs, site.URL+"/list.html")
	e.personOpens(site.URL + "/index.html?who=person")
	a = interact(t, cs, map[string]any{"action": "scroll", "direction": "down", "amount": 400, "tabId": tab})
	require.NotNil(t, a.Change)
	assert.Contains(t, a.Change.Summary, "scrolled the page to y 400")
	assert.Equal(t, "400", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "Math.round(scrollY)"}))

	tab = openTab(t, cs, site.URL+"/drag.html")
	e.personOpens(site.URL + "/index.html?who=person")
	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	err := fails(t, cs, "interact", map[string]any{"ref": refOf(t, tree, `listitem "Gamma"`), "action": "drag",
		"target": refOf(t, tree, `listitem "Alpha"`), "tabId": tab}, protocol.CodeConflict)
	assert.Contains(t, err.Message, "nothing was dragged: the tab is hidden")
	assert.Equal(t, `"Alpha,Beta,Gamma"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "document.getElementById('order').textContent"}))
	assert.Equal(t, map[int]bool{tab: false}, activeOf(t, cs, tab), "the person's tab stays shown")

	// Files dropped on a drop zone: the drag events carry their point.
	uploads, _ := uploadSite(t)
	photo := writeFile(t, filepath.Join(e.home.Path("uploads"), "photo.png"), "png")
	tab = openTab(t, cs, uploads+"/upload.html")
	e.personOpens(site.URL + "/index.html?who=person")
	zone := regexp.MustCompile(`e\d+`).FindString(ok(t, cs, "find", map[string]any{"tabId": tab, "query": "Drop photos here"}))
	start = time.Now()
	assert.Contains(t, ok(t, cs, "upload_file", map[string]any{"tabId": tab, "ref": zone, "paths": []string{photo}}), "dropped 1 file(s) on")
	assert.Less(t, time.Since(start), 4*time.Second, "not the seconds Chrome takes to answer a hidden page's move")

	// The agent's tab is shown, but its window is minimized: the person
	// works in another app. Its page is as hidden.
	tab = openTab(t, cs, site.URL+"/menu.html?minimized")
	e.minimizeWindowOf(site.URL + "/menu.html?minimized")
	require.Eventually(t, func() bool {
		return ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "document.visibilityState"}) == `"hidden"`
	}, 5*time.Second, 100*time.Millisecond)
	start = time.Now()
	a = interact(t, cs, map[string]any{"query": "Products", "action": "click", "tabId": tab})
	assert.Less(t, time.Since(start), 4*time.Second, "not the seconds Chrome takes to answer a hidden page's move")
	require.NotNil(t, a.Change)
	assert.Contains(t, a.Change.Summary, "now expanded")
}

// TestAPageThatStopsAnsweringIsSaidSo: a click whose handler never gives
// the page back holds every input and read on it. The click runs once; its
// answer says the page stopped answering, and how to get out, within the
// call rather than at its minute; the next call on the page says so sooner;
// a navigation to another URL goes past it (Chrome gives it a new process;
// it does not past a page stuck while it loads, which tabs_close ends).
func TestAPageThatStopsAnsweringIsSaidSo(t *testing.T) {
	var ran atomic.Int32
	site := siteWith(t, map[string]http.HandlerFunc{"/api/ran": func(w http.ResponseWriter, r *http.Request) {
		ran.Add(1)
	}})
	e := sharedEnv(t)
	cs := e.client("e2e")
	var p page
	okJSON(t, cs, "navigate", map[string]any{"url": site.URL + "/freeze.html"}, &p)

	start := time.Now()
	err := fails(t, cs, "interact", map[string]any{"query": "Build the report", "action": "click"}, protocol.CodeTimeout)
	assert.Less(t, time.Since(start), 45*time.Second, "not the action's minute")
	assert.Contains(t, err.Message, "the page has not answered for 16 s: a script of its own keeps it busy")
	assert.Contains(t, err.Hint, "tabs_close ends it (a navigation to another URL may get past it")
	assert.EqualValues(t, 1, ran.Load(), "the click ran once")

	start = time.Now()
	err = fails(t, cs, "read_page", map[string]any{}, protocol.CodeTimeout)
	assert.Less(t, time.Since(start), 12*time.Second, "a page found stuck is told sooner")
	assert.Contains(t, err.Message, "has not answered")
	start = time.Now()
	err = fails(t, cs, "javascript_tool", map[string]any{"code": "1", "timeoutMs": 60000}, protocol.CodeTimeout)
	assert.Less(t, time.Since(start), 12*time.Second, "a script that could never start is said so, not at its timeout")
	assert.Contains(t, err.Message, "has not answered")

	var next page
	okJSON(t, cs, "navigate", map[string]any{"url": site.URL + "/index.html"}, &next)
	assert.Equal(t, p.TabID, next.TabID)
	assert.Contains(t, ok(t, cs, "read_page", map[string]any{}), "Fixture Site")
	assert.EqualValues(t, 1, ran.Load())
}

// TestTextForScreenReadersIsClickedOnce: a skip link and a button clipped
// to nothing, as sites hide them from sight but not from assistive
// technology, are clicked by the DOM, once, as no pointer can reach them:
// not refused as covered by the words under them. A checkbox hidden so is
// clicked on its label, as a person clicks it.
func TestTextForScreenReadersIsClickedOnce(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/hidden-text.html")

	for _, q := range []string{"Skip to content", "Read the summary aloud"} {
		a := interact(t, cs, map[string]any{"query": q, "action": "click", "tabId": tab})
		assert.True(t, a.Delivered, q)
		assert.Equal(t, "dom", a.Strategy, "%s: no pointer reaches it", q)
	}
	assert.Equal(t, map[string]any{"announce": 1.0, "skip": 1.0}, pageRuns(t, cs, tab))
	assert.Equal(t, `"#main"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "location.hash"}), "the skip link was followed")

	a := interact(t, cs, map[string]any{"query": "Email notifications", "action": "click", "tabId": tab})
	assert.Equal(t, "pointer", a.Strategy)
	assert.Equal(t, "true", ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "document.getElementById('notify').checked"}))
}
