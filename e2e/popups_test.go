package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPopupsBecomeTheAgents covers the tabs an agent tab opens: a popup
// window's tab joins the group (window.opener still works), a
// target=_blank tab too, each named by the click that opened it and made
// current; a person's tab opening a popup leaves it to them.
func TestPopupsBecomeTheAgents(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/popups.html")

	a := interact(t, cs, map[string]any{"query": "Open popup", "action": "click", "tabId": tab})
	require.Len(t, a.Opened, 1, "the click names the popup it opened: %+v", a)
	popup := a.Opened[0]
	assert.Equal(t, "pointer", a.Strategy)
	require.NotNil(t, a.Change)
	assert.Equal(t, "new_tab", a.Change.Type)

	var ctx tabsContext
	okJSON(t, cs, "tabs_context", map[string]any{}, &ctx)
	assert.Equal(t, popup, ctx.Current, "the popup is where the agent goes on")
	opener := map[int]int{}
	for _, tb := range ctx.Tabs {
		opener[tb.TabID] = tb.OpenerTabID
	}
	require.Contains(t, opener, popup, "the popup is in the agent's group: %+v", ctx.Tabs)
	assert.Equal(t, tab, opener[popup])
	assert.Equal(t, 1, strings.Count(ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": `"x"`}), "x"),
		"the opener is still the agent's")

	// Without a tabId, read_page reads the popup; its button talks to the
	// opener through window.opener and closes the popup.
	tree := ok(t, cs, "read_page", map[string]any{})
	assert.Contains(t, tree, "Sign in popup")
	a = interact(t, cs, map[string]any{"query": "Sign in", "action": "click", "tabId": popup})
	assert.True(t, a.Closed, "the popup closed itself: %+v", a)
	assert.Equal(t, "tab_closed", a.Change.Type)
	require.NotEmpty(t, a.NextActions)
	assert.Equal(t, "read_page", a.NextActions[0].Tool, "the tab that opened it is read next")
	assert.EqualValues(t, tab, a.NextActions[0].Args["tabId"])
	okJSON(t, cs, "tabs_context", map[string]any{}, &ctx)
	assert.Equal(t, tab, ctx.Current, "the agent goes on where the popup came from")
	ok(t, cs, "wait_for", map[string]any{"text": "The popup said: signed in"})

	// A target=_blank link: a tab in the same window, opened by this one,
	// shown in front of it. Clicking in the opener again shows the opener:
	// Chrome delivers input to a hidden tab late or not at all.
	a = interact(t, cs, map[string]any{"query": "New tab link", "action": "click", "tabId": tab})
	require.Len(t, a.Opened, 1, "%+v", a)
	assert.Contains(t, ok(t, cs, "read_page", map[string]any{"tabId": a.Opened[0]}), "Sign in popup")
	assert.Equal(t, map[int]bool{tab: false, a.Opened[0]: true}, activeOf(t, cs, tab, a.Opened[0]))

	// noopener: the page gives the new tab no opener, but the agent's tab
	// opened it all the same.
	a = interact(t, cs, map[string]any{"query": "Open without opener", "action": "click", "tabId": tab})
	require.Len(t, a.Opened, 1, "%+v", a)
	assert.Equal(t, map[int]bool{tab: false, a.Opened[0]: true}, activeOf(t, cs, tab, a.Opened[0]),
		"the opener was shown for the click, then the new tab")

	// A popup again, now that the group holds tabs after its opener: it
	// joins them all the same.
	a = interact(t, cs, map[string]any{"query": "Open popup", "action": "click", "tabId": tab})
	require.Len(t, a.Opened, 1, "%+v", a)
	assert.Contains(t, ok(t, cs, "read_page", map[string]any{"tabId": a.Opened[0]}), "Sign in popup")

	// A person's tab opening a popup: neither the tab nor its popup is ours.
	p := e.personOpens(site.URL + "/popups.html?who=person")
	p.waitFor(`document.querySelector("button")`)
	p.click("button")
	e.personOn(site.URL + "/popup-child.html?who=person")
	assert.Never(t, func() bool {
		okJSON(t, cs, "tabs_context", map[string]any{}, &ctx)
		for _, tb := range ctx.Tabs {
			if strings.Contains(tb.URL, "who=person") {
				return true
			}
		}
		return false
	}, time.Second, 100*time.Millisecond, "the person's tab and popup stay theirs")

	// The person's tab is in front, in the window of the agent's tabs: the
	// agent's input goes to its hidden tab, and the person keeps what they
	// see.
	var sameWindow bool
	require.NoError(t, e.devtools().evalExtension(fmt.Sprintf(`(async () => {
		const [mine, theirs] = await Promise.all([chrome.tabs.get(%d), chrome.tabs.query({ url: %q })]);
		return theirs.length === 1 && theirs[0].windowId === mine.windowId && theirs[0].active;
	})()`, tab, site.URL+"/popups.html?who=person"), &sameWindow))
	require.True(t, sameWindow, "the person's tab is shown in the agent's window")
	interact(t, cs, map[string]any{"query": "Open popup", "action": "hover", "tabId": tab})
	assert.True(t, p.sees(`document.visibilityState === "visible"`), "the agent did not hide the person's tab")
}

// activeOf says which of tabs are shown in their window.
func activeOf(t *testing.T, cs *mcp.ClientSession, tabs ...int) map[int]bool {
	t.Helper()
	var ctx struct {
		Tabs []struct {
			TabID  int  `json:"tabId"`
			Active bool `json:"active"`
		} `json:"tabs"`
	}
	okJSON(t, cs, "tabs_context", map[string]any{}, &ctx)
	out := map[int]bool{}
	for _, tb := range ctx.Tabs {
		for _, id := range tabs {
			if tb.TabID == id {
				out[id] = tb.Active
			}
		}
	}
	return out
}
