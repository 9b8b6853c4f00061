package engine

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/handoff"
	"github.com/openchrome/openchrome/host/task"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// handoffRig is an engine with a task and a handoff ledger, a fake browser
// whose page changes when the test says the person logged in, and a clock
// the test moves.
type handoffRig struct {
	e        *Engine
	fb       *fakeBrowser
	tasks    *ledger.Store
	handoffs *ledger.Store
	loggedIn atomic.Bool

	mu  sync.Mutex
	now time.Time
}

func newHandoffRig(t *testing.T) *handoffRig {
	t.Helper()
	r := &handoffRig{now: time.Now()}
	var err error
	r.tasks, err = ledger.Open(t.TempDir(), ledger.TaskLifecycle(), ledger.Options{Now: r.clock})
	require.NoError(t, err)
	r.handoffs, err = ledger.Open(t.TempDir(), ledger.HandoffLifecycle(), ledger.Options{Now: r.clock})
	require.NoError(t, err)
	r.e, r.fb = newEngineWith(t, Options{Tasks: r.tasks, Handoffs: r.handoffs, Now: r.clock}, protocol.Version,
		tabs([]browser.Tab{{TabID: 4, Active: true}}, func(cmd protocol.Command) (any, *protocol.Error) {
			switch cmd.Action {
			case "handoff.state":
				if r.loggedIn.Load() {
					return map[string]any{"url": "http://127.0.0.1/secure", "title": "Secure Area", "origin": "http://127.0.0.1",
						"cookieCount": 2, "storageKeys": []string{"canary", "session"}, "domFingerprint": "fnv1a64:bbbb"}, nil
				}
				return map[string]any{"url": "http://127.0.0.1/login?next=%2F&token=abc123", "title": "Login", "origin": "http://127.0.0.1",
					"cookieCount": 1, "storageKeys": []string{"canary"}, "domFingerprint": "fnv1a64:aaaa"}, nil
			case "browser.stop":
				return map[string]any{"cancelled": 1, "banners": 1, "detached": 1}, nil
			case "element.act":
				return map[string]any{"action": "click"}, nil
			}
			return map[string]any{}, nil
		}))
	return r
}

func (r *handoffRig) clock() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.now
}

func (r *handoffRig) advance(d time.Duration) {
	r.mu.Lock()
	r.now = r.now.Add(d)
	r.mu.Unlock()
}

func (r *handoffRig) start(t *testing.T, args string) handoff.View {
	t.Helper()
	var v handoff.View
	require.NoError(t, json.Unmarshal([]byte(textOf(t, run(t, r.e, "oc_handoff_start", args))), &v), args)
	return v
}

func view(t *testing.T, res *protocol.ToolResult) handoff.View {
	t.Helper()
	require.False(t, res.IsError, textOf(t, res))
	var v handoff.View
	require.NoError(t, json.Unmarshal([]byte(textOf(t, res)), &v))
	return v
}

func TestAHandoffTheAgentFinishes(t *testing.T) {
	r := newHandoffRig(t)
	v := r.start(t, `{"reason":"login","instruction":"log in as the demo user"}`)
	assert.Regexp(t, `^[0-9a-f]{16}$`, v.HandoffID)
	assert.Equal(t, ledger.StatusRunning, v.Status)
	assert.Equal(t, 4, v.TabID, "the agent's tab")
	assert.Equal(t, "http://127.0.0.1/login?next=%2F&token=[redacted]", v.Before.URL, "the snapshot's URL is redacted")
	assert.Equal(t, []string{"canary"}, v.Before.LocalStorageKeys)
	assert.Contains(t, v.InstructionLine, "Handoff (login): please log in in tab 4 (log in as the demo user)")
	assert.Contains(t, v.InstructionLine, v.Deadline.Format(time.RFC3339))
	assert.WithinDuration(t, r.clock().Add(10*time.Minute), v.Deadline, time.Second, "the default timeout")

	// The person has the tab: acting on it is refused, starting a second
	// handoff on it too.
	err := wantError(t, run(t, r.e, "interact", `{"ref":"e1","action":"click"}`), protocol.CodeConflict)
	assert.Contains(t, err.Message, v.HandoffID)
	assert.Contains(t, err.Hint, "oc_handoff_status")
	wantError(t, run(t, r.e, "navigate", `{"url":"http://127.0.0.1/"}`), protocol.CodeConflict)
	wantError(t, run(t, r.e, "oc_handoff_start", `{"reason":"other"}`), protocol.CodeConflict)

	r.loggedIn.Store(true)
	f := view(t, run(t, r.e, "oc_handoff_finish", `{"handoff_id":"`+v.HandoffID+`"}`))
	assert.Equal(t, ledger.StatusFinished, f.Status)
	assert.Equal(t, "agent", f.EndedBy)
	require.NotNil(t, f.Delta)
	assert.Equal(t, handoff.Delta{URL: true, Title: true, CookieCount: true, StorageKeys: true, DOMFingerprint: true}, *f.Delta)
	assert.Contains(t, f.ResumeHint, "do not log in again")
	assert.Equal(t, "Secure Area", f.After.Title)

	// Ended: the tab is free again, the handoff cannot change.
	assert.False(t, run(t, r.e, "interact", `{"ref":"e1","action":"click"}`).IsError)
	wantError(t, run(t, r.e, "oc_handoff_finish", `{"handoff_id":"`+v.HandoffID+`"}`), protocol.CodeConflict)
	wantError(t, run(t, r.e, "oc_handoff_cancel", `{"handoff_id":"`+v.HandoffID+`"}`), protocol.CodeConflict)
	s := view(t, run(t, r.e, "oc_handoff_status", `{"handoff_id":"`+v.HandoffID+`"}`))
	assert.Equal(t, f.DeltaSummary, s.DeltaSummary)
}

func TestThePersonFinishesWhileTheAgentWaits(t *testing.T) {
	r := newHandoffRig(t)
	run := func(tool, args string) *protocol.ToolResult { return run(t, r.e, tool, args) }
	taskM, err := r.tasks.Create("crawl", "{}", nil)
	require.NoError(t, err)
	_, err = r.tasks.Transition(context.Background(), taskM.ID, ledger.StatusRunning, nil)
	require.NoError(t, err)

	v := r.start(t, `{"reason":"2fa","run_id":"`+taskM.ID+`"}`)
	waited := make(chan *protocol.ToolResult)
	go func() { waited <- run("oc_handoff_status", `{"handoff_id":"`+v.HandoffID+`","wait_ms":30000}`) }()
	for r.handoffs.WaitersForTest(v.HandoffID) == 0 {
		runtime.Gosched() // until the agent is waiting
	}
	r.loggedIn.Store(true)
	r.e.BrowserEvent(r.fb.link.Info().ID, &protocol.Event{Name: "handoff.finish", Data: json.RawMessage(`{"handoffId":"` + v.HandoffID + `"}`)})

	select {
	case res := <-waited:
		f := view(t, res)
		assert.Equal(t, ledger.StatusFinished, f.Status)
		assert.Equal(t, "person", f.EndedBy)
		assert.Equal(t, "attached", f.RunEvidence)
	case <-time.After(10 * time.Second):
		t.Fatal("oc_handoff_status did not return when the person finished")
	}

	// Exactly one pointer on the task, in its meta and its events; a second
	// Finish (the agent's, late) adds none.
	wantError(t, run("oc_handoff_finish", `{"handoff_id":"`+v.HandoffID+`"}`), protocol.CodeConflict)
	m, err := r.tasks.Get(taskM.ID)
	require.NoError(t, err)
	require.Len(t, m.Evidence, 1)
	assert.Equal(t, ledger.Evidence{Kind: "handoff", Ref: v.HandoffID, At: m.Evidence[0].At}, m.Evidence[0])
	events, err := r.tasks.Events(taskM.ID)
	require.NoError(t, err)
	n := 0
	for _, ev := range events {
		if ev.Kind == "evidence" {
			n++
			assert.Contains(t, string(ev.Data), v.HandoffID)
		}
	}
	assert.Equal(t, 1, n)

	// The person's Finish shows in the activity.
	require.Eventually(t, func() bool {
		var st panelState
		if !r.fb.lastState(&st) {
			return false
		}
		for _, a := range st.Activity {
			if a.Agent == "you" && a.Tool == "handoff.finish" && a.OK {
				return true
			}
		}
		return false
	}, 5*time.Second, 20*time.Millisecond)
}

func TestAHandoffTimesOut(t *testing.T) {
	r := newHandoffRig(t)
	v := r.start(t, `{"reason":"captcha","timeout_ms":1000}`)
	r.advance(2 * time.Second)
	s := view(t, run(t, r.e, "oc_handoff_status", `{"handoff_id":"`+v.HandoffID+`"}`))
	assert.Equal(t, ledger.StatusTimedOut, s.Status)
	assert.Equal(t, "timeout", s.Error.Code)
	err := wantError(t, run(t, r.e, "oc_handoff_finish", `{"handoff_id":"`+v.HandoffID+`"}`), protocol.CodeConflict)
	assert.Contains(t, err.Message, "timed out")
	assert.False(t, run(t, r.e, "interact", `{"ref":"e1","action":"click"}`).IsError, "the tab is free again")
}

func TestACancelledHandoffHasNoCheckpoint(t *testing.T) {
	r := newHandoffRig(t)
	v := r.start(t, `{"reason":"permission"}`)
	c := view(t, run(t, r.e, "oc_handoff_cancel", `{"handoff_id":"`+v.HandoffID+`"}`))
	assert.Equal(t, ledger.StatusCancelled, c.Status)
	assert.Nil(t, c.After)
	assert.Nil(t, c.Delta)
	assert.Empty(t, c.ResumeHint)
	assert.Empty(t, c.DeltaSummary)
}

func TestHandoffToolsRefuseBadInput(t *testing.T) {
	r := newHandoffRig(t)
	tests := []struct {
		tool, args string
		code       protocol.Code
		want       string
	}{
		{"oc_handoff_start", `{"reason":"bored"}`, protocol.CodeBadRequest, "reason: must be one of"},
		{"oc_handoff_start", `{}`, protocol.CodeBadRequest, "reason"},
		{"oc_handoff_start", `{"reason":"login","instruction":"` + strings.Repeat("x", 1025) + `"}`, protocol.CodeBadRequest, "at most 1024"},
		{"oc_handoff_start", `{"reason":"login","timeout_ms":3600001}`, protocol.CodeBadRequest, "timeout_ms: must be at most 3600000"},
		{"oc_handoff_start", `{"reason":"login","timeout_ms":10}`, protocol.CodeBadRequest, "timeout_ms: must be at least 1000"},
		{"oc_handoff_start", `{"reason":"login","run_id":"0000000000000001"}`, protocol.CodeNotFound, "run_id"},
		{"oc_handoff_status", `{"handoff_id":"0000000000000001"}`, protocol.CodeNotFound, "not found"},
		{"oc_handoff_status", `{"handoff_id":"../../etc"}`, protocol.CodeBadRequest, ""},
		{"oc_handoff_finish", `{"handoff_id":"0000000000000001"}`, protocol.CodeNotFound, ""},
		{"oc_handoff_cancel", `{}`, protocol.CodeBadRequest, "handoff_id"},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.args[:min(len(tt.args), 40)], func(t *testing.T) {
			err := wantError(t, run(t, r.e, tt.tool, tt.args), tt.code)
			assert.Contains(t, err.Message, tt.want)
		})
	}
	list, err := r.handoffs.List(ledger.Filter{})
	require.NoError(t, err)
	assert.Empty(t, list, "bad input leaves nothing behind")
}

func TestStopCancelsCallsTasksAndHandoffs(t *testing.T) {
	r := newHandoffRig(t)
	v := r.start(t, `{"reason":"login"}`)

	// A call that blocks until it is cancelled.
	block := make(chan struct{})
	defer close(block)
	r.e.tools["slow"] = define("slow", GroupCore, "blocks", func(ctx context.Context, c *call, _ struct{}) (*protocol.ToolResult, error) {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-block:
			return protocol.TextResult("done"), nil
		}
	})
	slow := make(chan *protocol.ToolResult)
	go func() { slow <- r.e.Call(context.Background(), bridge.NewCall("a2", "slow", nil, nil)) }()
	require.Eventually(t, func() bool {
		r.e.inflight.mu.Lock()
		defer r.e.inflight.mu.Unlock()
		return len(r.e.inflight.calls) == 1
	}, 5*time.Second, 10*time.Millisecond)

	var rep stopReport
	require.NoError(t, json.Unmarshal([]byte(textOf(t, run(t, r.e, "oc_stop", `{}`))), &rep))
	assert.Equal(t, 1, rep.Calls, "the slow call, not oc_stop itself")
	assert.Equal(t, 1, rep.Handoffs)
	require.Len(t, rep.Browser, 1)
	assert.Contains(t, r.fb.actions(), "browser.stop")

	err := wantError(t, <-slow, protocol.CodeCancelled)
	assert.Contains(t, err.Message, "the person pressed Stop")
	s := view(t, run(t, r.e, "oc_handoff_status", `{"handoff_id":"`+v.HandoffID+`"}`))
	assert.Equal(t, ledger.StatusCancelled, s.Status)
	assert.Equal(t, "stop", s.EndedBy)
}

func TestTheSidePanelStateHasNoArguments(t *testing.T) {
	r := newHandoffRig(t)
	run(t, r.e, "interact", `{"ref":"e1","action":"fill","text":"hunter2-typed-text"}`)
	v := r.start(t, `{"reason":"login","instruction":"use password=hunter2"}`)
	var st panelState
	require.Eventually(t, func() bool {
		return r.fb.lastState(&st) && len(st.Handoffs) == 1 && len(st.Activity) >= 2
	}, 5*time.Second, 20*time.Millisecond)
	assert.Equal(t, "oc_handoff_start", st.Activity[0].Tool)
	assert.Equal(t, "interact", st.Activity[1].Tool)
	assert.Equal(t, 4, st.Activity[1].TabID)
	assert.Equal(t, v.HandoffID, st.Handoffs[0].ID)
	assert.Equal(t, "use password=[redacted]", st.Handoffs[0].Instruction)
	b, _ := json.Marshal(st)
	assert.NotContains(t, string(b), "hunter2")
}

func TestANewDaemonAdoptsRunningHandoffs(t *testing.T) {
	root := t.TempDir()
	dead, err := ledger.Open(root, ledger.HandoffLifecycle(), ledger.Options{PID: 1 << 30})
	require.NoError(t, err)
	d := handoff.Detail{Reason: "login", TabID: 9, Deadline: time.Now().Add(time.Hour), Before: handoff.Snapshot{LocalStorageKeys: []string{}}}
	m, err := dead.Create("login", "", d)
	require.NoError(t, err)

	store, err := ledger.Open(root, ledger.HandoffLifecycle(), ledger.Options{})
	require.NoError(t, err)
	e, _ := newEngineWith(t, Options{Handoffs: store}, protocol.Version, tabs([]browser.Tab{{TabID: 9}}, nil))
	got, err := store.Get(m.ID)
	require.NoError(t, err)
	assert.Equal(t, ledger.StatusRunning, got.Status, "still the person's")
	assert.Equal(t, os.Getpid(), got.PID, "adopted")
	wantError(t, run(t, e, "interact", `{"ref":"e1","action":"click","tabId":9}`), protocol.CodeConflict)
}

// onTabArgs are valid arguments, without tabId, for every tool on a tab; a
// tool on a tab without a row here fails TestEveryToolOnATabRefusesAHeldTab.
var onTabArgs = map[string]string{
	"navigate":                 `{"url":"http://127.0.0.1/"}`,
	"read_page":                `{}`,
	"find":                     `{"query":"Login"}`,
	"interact":                 `{"ref":"e1","action":"click"}`,
	"act":                      `{"steps":[{"ref":"e1","action":"click"}]}`,
	"form_input":               `{"fields":[{"ref":"e1","value":"x"}]}`,
	"computer":                 `{"action":"screenshot"}`,
	"wait_for":                 `{"text":"x"}`,
	"page_screenshot":          `{}`,
	"javascript_tool":          `{"code":"document.title"}`,
	"tabs_close":               `{}`,
	"recording":                `{"durationMs":1000}`,
	"oc_evidence_bundle":       `{}`,
	"oc_handoff_start":         `{"reason":"other"}`,
	"console_messages":         `{}`,
	"network_requests":         `{}`,
	"network_request":          `{"id":1}`,
	"page_pdf":                 `{}`,
	"upload_file":              `{"paths":["/tmp/a.txt"]}`,
	"browser_request_feedback": `{"mode":"confirm","prompt":"Deploy?"}`,
}

func TestEveryToolOnATabRefusesAHeldTab(t *testing.T) {
	r := newHandoffRig(t)
	v := r.start(t, `{"reason":"login"}`)
	for _, tool := range Catalog() {
		if !tool.OnTab {
			continue
		}
		args, ok := onTabArgs[tool.Name]
		require.True(t, ok, "%s is a tool on a tab: give it a row in onTabArgs", tool.Name)
		for _, how := range []string{"given", "guessed"} {
			if how == "guessed" && slices.Contains(tool.InputSchema.Required, "tabId") {
				continue // tabs_close never guesses
			}
			t.Run(tool.Name+" "+how, func(t *testing.T) {
				a := args
				if how == "given" {
					a = strings.Replace(args, "{", `{"tabId":4,`, 1)
					a = strings.Replace(a, ",}", "}", 1)
				}
				before := len(r.fb.actions())
				err := wantError(t, run(t, r.e, tool.Name, a), protocol.CodeConflict)
				assert.Contains(t, err.Message, v.HandoffID)
				assert.Contains(t, err.Hint, "oc_handoff_status")
				for _, action := range r.fb.actions()[before:] {
					assert.Contains(t, []string{"tab.list", "tab.get"}, action, "nothing but the gate's look reached the browser")
				}
			})
		}
	}
}

// TestThePersonsStopEndsEverythingBeforeTheNextFrame: the results of the
// commands a Stop in the browser aborted are the next frames its read loop
// reads; a task must already be cancelled when they come, or it takes the
// abort for its page's error and sends the browser its next command.
func TestThePersonsStopEndsEverythingBeforeTheNextFrame(t *testing.T) {
	r := newHandoffRig(t)
	v := r.start(t, `{"reason":"login"}`)
	running := make(chan context.Context, 1)
	_, err := r.e.tasks.Start("crawl", "", nil, func(ctx context.Context, _ *task.Sink) (any, error) {
		running <- ctx
		<-ctx.Done()
		return nil, ctx.Err()
	})
	require.NoError(t, err)
	job := <-running

	r.e.BrowserEvent(r.fb.link.Info().ID, &protocol.Event{Name: "agent.stop"})
	assert.ErrorIs(t, job.Err(), context.Canceled, "the task is cancelled when BrowserEvent returns")
	s := view(t, run(t, r.e, "oc_handoff_status", `{"handoff_id":"`+v.HandoffID+`"}`))
	assert.Equal(t, ledger.StatusCancelled, s.Status)
	assert.Equal(t, "stop", s.EndedBy)
	assert.NotContains(t, r.fb.actions(), "browser.stop", "the person's extension stopped itself")
}
