package engine

import (
	"encoding/base64"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/pagetree"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// onePixel is a 1x1 PNG.
const onePixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="

// pageBrowser answers every action an agent's everyday calls send, for a
// tab 7 showing a login page.
func pageBrowser(cmd protocol.Command) (any, *protocol.Error) {
	page := browser.Page{TabID: 7, URL: "http://127.0.0.1/login", Title: "Login", Status: 200}
	switch cmd.Action {
	case "tab.navigate", "tab.create":
		var p struct {
			URL string `json:"url"`
		}
		_ = json.Unmarshal(cmd.Params, &p)
		if p.URL != "" {
			page.URL = p.URL
		}
		return page, nil
	case "page.snapshot":
		return browser.Tree{URL: page.URL, Title: "Login", Tree: []pagetree.Node{{Role: "button", Name: "Login", Ref: 3}}}, nil
	case "element.find":
		return browser.Found{Candidates: []browser.Candidate{{Ref: 3, Role: "button", Name: "Login", Why: "name"}}, Total: 1}, nil
	case "element.act":
		nav, url, title := false, page.URL, "Login"
		return browser.Acted{Action: "click", Ref: "e3", Target: `button "Login"`, Navigated: &nav, URL: &url, Title: &title, Changes: "no visible change"}, nil
	case "page.evaluate":
		return map[string]any{"type": "string", "value": "Login"}, nil
	case "page.screenshot":
		b, _ := base64.StdEncoding.DecodeString(onePixel)
		return browser.Image{Data: b, MimeType: "image/png"}, nil
	case "page.wait":
		return browser.Waited{Met: true, Seen: "Login", URL: page.URL, Title: "Login"}, nil
	}
	return map[string]any{}, nil
}

func envelopeEngine(t *testing.T) (*Engine, *fakeBrowser) {
	t.Helper()
	store, err := ledger.Open(t.TempDir(), ledger.TaskLifecycle(), ledger.Options{})
	require.NoError(t, err)
	return newEngineWith(t, Options{Tasks: store}, protocol.Version,
		tabs([]browser.Tab{{TabID: 7, URL: "http://127.0.0.1/login", Active: true}}, pageBrowser))
}

func openEnvelopeFor(t *testing.T, e *Engine, policy string) string {
	t.Helper()
	var out struct {
		TaskID string `json:"task_id"`
		Status string `json:"status"`
	}
	args := `{"objective":"log in"` + policy + `}`
	require.NoError(t, json.Unmarshal([]byte(textOf(t, run(t, e, "oc_task_start", args))), &out))
	require.Equal(t, "RUNNING", out.Status)
	return out.TaskID
}

// everyday are calls an agent makes all day, without taskId.
var everyday = []struct{ tool, args string }{
	{"tabs_context", `{}`},
	{"navigate", `{"url":"http://127.0.0.1/login"}`},
	{"read_page", `{}`},
	{"find", `{"query":"Login"}`},
	{"interact", `{"ref":"e3","action":"click"}`},
	{"javascript_tool", `{"code":"document.title"}`},
	{"page_screenshot", `{}`},
	{"computer", `{"action":"screenshot"}`},
	{"wait_for", `{"text":"Login"}`},
}

// snapshotID matches what differs between two runs of the same calls: the
// snapshot's number, and how long a wait took (in the text, whose quotes
// are escaped, as in structuredContent).
var snapshotID = regexp.MustCompile(`snapshot=s\d+|\\?"snapshot\\?":\\?"s\d+|\\?"waitedMs\\?":\d+`)

func TestWithoutTaskIDNothingChanges(t *testing.T) {
	e, _ := envelopeEngine(t)
	outputs := func() []string {
		var out []string
		for _, c := range everyday {
			r := run(t, e, c.tool, c.args)
			b, err := json.Marshal(r)
			require.NoError(t, err)
			out = append(out, snapshotID.ReplaceAllString(string(b), "…"))
		}
		return out
	}
	before := outputs()
	openEnvelopeFor(t, e, "")
	openEnvelopeFor(t, e, `,"policy":{"maxToolCalls":1}`)
	assert.Equal(t, before, outputs(), "open envelopes change nothing for calls that do not name one")
}

func TestACallWithTaskIDGainsOneLine(t *testing.T) {
	e, _ := envelopeEngine(t)
	id := openEnvelopeFor(t, e, `,"policy":{"maxToolCalls":20}`)
	for _, c := range everyday {
		t.Run(c.tool, func(t *testing.T) {
			plain := run(t, e, c.tool, c.args)
			args := strings.Replace(c.args, "{", `{"taskId":"`+id+`",`, 1)
			args = strings.Replace(args, ",}", "}", 1)
			r := run(t, e, c.tool, args)
			require.False(t, r.IsError, textOf(t, r))
			require.Len(t, r.Content, len(plain.Content)+1, "one block more")
			line := r.Content[len(r.Content)-1].Text
			assert.Regexp(t, `^task `+id+`: budget (ok|near|exceeded), \d+ of 20 calls`, line)
			var s struct {
				Envelope struct {
					TaskID string `json:"task_id"`
					Status string `json:"budget_status"`
				} `json:"envelope"`
			}
			require.NoError(t, json.Unmarshal(r.StructuredContent, &s))
			assert.Equal(t, id, s.Envelope.TaskID)
		})
	}
}

func TestAWanderingAgentIsToldSo(t *testing.T) {
	e, _ := envelopeEngine(t)
	id := openEnvelopeFor(t, e, "")
	var line string
	for range 7 {
		r := run(t, e, "read_page", `{"taskId":"`+id+`"}`)
		line = r.Content[len(r.Content)-1].Text
	}
	assert.Contains(t, line, "budget exceeded")
	assert.Contains(t, line, "next: change_strategy_or_verify")

	var v struct {
		Counters struct {
			Calls             int `json:"calls"`
			ObservationStreak int `json:"observation_streak"`
		} `json:"counters"`
		Status string `json:"budget_status"`
		Next   string `json:"recommended_next"`
		Warns  []struct {
			Kind string `json:"kind"`
		} `json:"warnings"`
	}
	require.NoError(t, json.Unmarshal([]byte(textOf(t, run(t, e, "oc_task_get", `{"task_id":"`+id+`"}`))), &v))
	assert.Equal(t, 7, v.Counters.Calls)
	assert.Equal(t, 7, v.Counters.ObservationStreak)
	assert.Equal(t, "exceeded", v.Status)
	assert.Equal(t, "change_strategy_or_verify", v.Next)
	require.NotEmpty(t, v.Warns)
}

func TestBudgetsRefuseWithoutTouchingThePage(t *testing.T) {
	e, fb := envelopeEngine(t)
	id := openEnvelopeFor(t, e, `,"policy":{"maxToolCalls":2,"allowedDomains":["127.0.0.1"]}`)

	before := len(fb.actions())
	err := wantError(t, run(t, e, "navigate", `{"url":"http://localhost:8080/","taskId":"`+id+`"}`), protocol.CodeDomainBlocked)
	assert.Contains(t, err.Message, "localhost")
	assert.Len(t, fb.actions(), before, "a refused navigation sends nothing")

	run(t, e, "read_page", `{"taskId":"`+id+`"}`)
	run(t, e, "interact", `{"ref":"e3","action":"click","taskId":"`+id+`"}`)
	before = len(fb.actions())
	err = wantError(t, run(t, e, "interact", `{"ref":"e3","action":"click","taskId":"`+id+`"}`), protocol.CodeBudgetExceeded)
	assert.Contains(t, err.Hint, "oc_task_finish")
	assert.Len(t, fb.actions(), before, "a call past the budget sends nothing")
	assert.False(t, run(t, e, "interact", `{"ref":"e3","action":"click"}`).IsError, "calls without taskId go on")
}

func TestEndingAnEnvelope(t *testing.T) {
	e, fb := envelopeEngine(t)
	id := openEnvelopeFor(t, e, "")
	var v struct {
		Phase  string `json:"phase"`
		Status string `json:"status"`
		Notes  []struct {
			Text string `json:"text"`
		} `json:"notes"`
		EndedBy string `json:"ended_by"`
	}
	require.NoError(t, json.Unmarshal([]byte(textOf(t, run(t, e, "oc_task_update", `{"task_id":"`+id+`","phase":"act","note":"found the form"}`))), &v))
	assert.Equal(t, "act", v.Phase)
	require.Len(t, v.Notes, 1)
	wantError(t, run(t, e, "oc_task_update", `{"task_id":"`+id+`"}`), protocol.CodeBadRequest)

	// The person ends it in the side panel; the agent's next call says so.
	e.BrowserEvent(fb.link.Info().ID, &protocol.Event{Name: "task.cancel", Data: json.RawMessage(`{"taskId":"` + id + `"}`)})
	require.Eventually(t, func() bool {
		err := protocol.ResultError(run(t, e, "read_page", `{"taskId":"`+id+`"}`))
		return err != nil && err.Code == protocol.CodeCancelled
	}, 5e9, 1e7)
	require.NoError(t, json.Unmarshal([]byte(textOf(t, run(t, e, "oc_task_get", `{"task_id":"`+id+`"}`))), &v))
	assert.Equal(t, "CANCELLED", v.Status)
	assert.Equal(t, "person", v.EndedBy)

	other := openEnvelopeFor(t, e, "")
	require.NoError(t, json.Unmarshal([]byte(textOf(t, run(t, e, "oc_task_finish", `{"task_id":"`+other+`","outcome":"completed","note":"done"}`))), &v))
	assert.Equal(t, "COMPLETED", v.Status)
	assert.Equal(t, "done", v.Phase)
	wantError(t, run(t, e, "read_page", `{"taskId":"`+other+`"}`), protocol.CodeConflict)
	wantError(t, run(t, e, "oc_task_finish", `{"task_id":"`+other+`","outcome":"failed"}`), protocol.CodeConflict)

	third := openEnvelopeFor(t, e, "")
	run(t, e, "oc_task_cancel", `{"task_id":"`+third+`"}`)
	wantError(t, run(t, e, "read_page", `{"taskId":"`+third+`"}`), protocol.CodeConflict)
}

func TestTaskStartRefusesBadInput(t *testing.T) {
	e, _ := envelopeEngine(t)
	tests := []struct{ args, want string }{
		{`{}`, "pass kind"},
		{`{"objective":"x","phase":"wander"}`, "phase"},
		{`{"objective":"x","policy":{"allowedDomains":["https://a.test/"]}}`, "allowedDomains"},
		{`{"objective":"x","policy":{"maxToolCalls":"ten"}}`, "maxToolCalls"},
	}
	for _, tt := range tests {
		err := wantError(t, run(t, e, "oc_task_start", tt.args), protocol.CodeBadRequest)
		assert.Contains(t, err.Message, tt.want, tt.args)
	}
	wantError(t, run(t, e, "read_page", `{"taskId":"0000000000000001"}`), protocol.CodeNotFound)
}
