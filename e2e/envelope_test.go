package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/protocol"
)

// envelope is an envelope as oc_task_get returns it.
type envelope struct {
	ID        string `json:"id"`
	Status    string `json:"status"`
	Objective string `json:"objective"`
	Phase     string `json:"phase"`
	Counters  struct {
		Calls             int            `json:"calls"`
		Actions           int            `json:"actions"`
		Observations      int            `json:"observations"`
		ObservationStreak int            `json:"observation_streak"`
		Navigations       map[string]int `json:"navigations"`
	} `json:"counters"`
	Budget   string `json:"budget_status"`
	Next     string `json:"recommended_next"`
	Warnings []struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	} `json:"warnings"`
	EndedBy string `json:"ended_by"`
}

func openEnvelope(t *testing.T, cs *mcp.ClientSession, policy map[string]any) string {
	t.Helper()
	var out struct {
		TaskID string `json:"task_id"`
	}
	args := map[string]any{"objective": "log in and read the secure area"}
	if policy != nil {
		args["policy"] = policy
	}
	okJSON(t, cs, "oc_task_start", args, &out)
	require.NotEmpty(t, out.TaskID)
	return out.TaskID
}

func getEnvelope(t *testing.T, cs *mcp.ClientSession, id string) envelope {
	t.Helper()
	var v envelope
	okJSON(t, cs, "oc_task_get", map[string]any{"task_id": id}, &v)
	return v
}

// lastLine is the envelope's line a result ends with.
func lastLine(r *mcp.CallToolResult) string {
	if len(r.Content) == 0 {
		return ""
	}
	if tc, ok := r.Content[len(r.Content)-1].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

func TestAnEnvelopeSeesAnAgentWander(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/login.html")
	id := openEnvelope(t, cs, nil)

	// The same read_page seven times: exceeded, with the way out.
	var r *mcp.CallToolResult
	for range 7 {
		r = call(t, cs, "read_page", map[string]any{"tabId": tab, "taskId": id})
		require.False(t, r.IsError, textOf(r))
	}
	assert.Contains(t, lastLine(r), "task "+id+": budget exceeded")
	assert.Contains(t, lastLine(r), "next: change_strategy_or_verify")
	v := getEnvelope(t, cs, id)
	assert.Equal(t, 7, v.Counters.Observations)
	assert.Equal(t, "exceeded", v.Budget)
	assert.Equal(t, "change_strategy_or_verify", v.Next)

	// A fourth navigation to one URL warns.
	url := site.URL + "/secure.html"
	for range 4 {
		ok(t, cs, "navigate", map[string]any{"url": url, "tabId": tab, "taskId": id})
	}
	v = getEnvelope(t, cs, id)
	assert.Equal(t, 4, v.Counters.Navigations[url])
	kinds := []string{}
	for _, w := range v.Warnings {
		kinds = append(kinds, w.Kind)
	}
	assert.Contains(t, kinds, "same_url_navigations")
	assert.Equal(t, "stop_revisiting_the_url", v.Next)

	// Without taskId nothing of the envelope shows.
	plain := call(t, cs, "tabs_context", map[string]any{})
	assert.NotContains(t, textOf(plain), "budget")
	assert.Equal(t, 11, getEnvelope(t, cs, id).Counters.Calls, "and nothing is counted")
}

func TestAnEnvelopesHardBudgetsAndDomains(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/index.html")
	id := openEnvelope(t, cs, map[string]any{"maxToolCalls": 3, "allowedDomains": []string{"127.0.0.1"}})

	// A second loopback origin, by name: outside the envelope's domains.
	other := siteOnLocalhost(site, "/login.html")
	err := fails(t, cs, "navigate", map[string]any{"url": other, "tabId": tab, "taskId": id}, protocol.CodeDomainBlocked)
	assert.Contains(t, err.Message, "localhost")
	assert.Equal(t, `"`+site.URL+`/"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "location.href"}),
		"the tab never left")

	for range 3 {
		ok(t, cs, "find", map[string]any{"query": "Login", "tabId": tab, "taskId": id})
	}
	before := ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "document.title"})
	err = fails(t, cs, "navigate", map[string]any{"url": site.URL + "/login.html", "tabId": tab, "taskId": id}, protocol.CodeBudgetExceeded)
	assert.Contains(t, err.Hint, "oc_task_finish")
	assert.Equal(t, before, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "document.title"}),
		"the refused call did not touch the page")
	assert.Equal(t, 3, getEnvelope(t, cs, id).Counters.Calls)

	var done envelope
	okJSON(t, cs, "oc_task_finish", map[string]any{"task_id": id, "outcome": "completed", "note": "enough"}, &done)
	assert.Equal(t, "COMPLETED", done.Status)
	fails(t, cs, "find", map[string]any{"query": "Login", "tabId": tab, "taskId": id}, protocol.CodeConflict)
}

func TestThePersonEndsAnEnvelopeFromTheSidePanel(t *testing.T) {
	e := newEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/login.html")
	id := openEnvelope(t, cs, map[string]any{"maxToolCalls": 50})
	for range 7 {
		ok(t, cs, "read_page", map[string]any{"tabId": tab, "taskId": id})
	}

	panel := e.personOpens(panelURL)
	item := fmt.Sprintf(`[data-task-id=%q]`, id)
	panel.waitFor(`document.querySelector('` + item + `')`)
	panel.waitFor(`document.querySelector('` + item + `').textContent.includes("7 of 50 calls")`)
	var shown string
	require.NoError(t, panel.eval(`document.querySelector('`+item+`').textContent`, &shown))
	assert.Contains(t, shown, "log in and read the secure area")
	assert.Contains(t, shown, "Over budget")
	panel.click(item + ` [data-action="cancel-task"]`)

	require.Eventually(t, func() bool {
		r := call(t, cs, "read_page", map[string]any{"tabId": tab, "taskId": id})
		return r.IsError && strings.Contains(textOf(r), "the person ended")
	}, 10e9, 50e6)
	v := getEnvelope(t, cs, id)
	assert.Equal(t, "CANCELLED", v.Status)
	assert.Equal(t, "person", v.EndedBy)
	panel.waitFor(`!document.querySelector('` + item + `')`)
}

func TestAnEnvelopeOutlivesTheDaemon(t *testing.T) {
	e := newEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/login.html")
	id := openEnvelope(t, cs, map[string]any{"maxToolCalls": 5})
	for range 3 {
		ok(t, cs, "find", map[string]any{"query": "Login", "tabId": tab, "taskId": id})
	}
	old, err := bridge.ReadDiscovery(e.home.BridgeFile())
	require.NoError(t, err)
	require.NoError(t, syscall.Kill(old.PID, syscall.SIGKILL))
	e.waitDaemon(old.PID)

	v := getEnvelope(t, cs, id)
	assert.Equal(t, "RUNNING", v.Status, "an envelope is not the daemon's work: it is not reaped")
	assert.Equal(t, 3, v.Counters.Calls)
	for range 2 {
		ok(t, cs, "find", map[string]any{"query": "Login", "tabId": tab, "taskId": id})
	}
	fails(t, cs, "find", map[string]any{"query": "Login", "tabId": tab, "taskId": id}, protocol.CodeBudgetExceeded)
	b, _ := json.Marshal(getEnvelope(t, cs, id))
	assert.Contains(t, string(b), `"calls":5`)
}
