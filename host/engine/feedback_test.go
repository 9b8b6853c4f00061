package engine

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/feedback"
	"github.com/openchrome/openchrome/protocol"
)

// feedbackRig is an engine whose browser holds tab 4 and answers each
// feedback.request with what the test sends on answers (an error when nil),
// after telling the test it is asked.
type feedbackRig struct {
	e       *Engine
	fb      *fakeBrowser
	asked   chan browser.FeedbackAsk
	answers chan *browser.Feedback
}

func newFeedbackRig(t *testing.T) *feedbackRig {
	t.Helper()
	return newFeedbackRigWith(t, Options{})
}

// newFeedbackRigWith is newFeedbackRig with engine options (a clock).
func newFeedbackRigWith(t *testing.T, opts Options) *feedbackRig {
	t.Helper()
	r := &feedbackRig{asked: make(chan browser.FeedbackAsk, 4), answers: make(chan *browser.Feedback, 4)}
	r.e, r.fb = newEngineWith(t, opts, protocol.Version, tabs([]browser.Tab{{TabID: 4, Active: true}}, func(cmd protocol.Command) (any, *protocol.Error) {
		if cmd.Action != "feedback.request" {
			return map[string]any{}, nil
		}
		var ask browser.FeedbackAsk
		_ = json.Unmarshal(cmd.Params, &ask)
		r.asked <- ask
		if fb := <-r.answers; fb != nil {
			return fb, nil
		}
		return nil, protocol.Errorf(protocol.CodeCancelled, "command cancelled")
	}))
	return r
}

func TestBadQuestionsSendNothing(t *testing.T) {
	tests := []struct {
		name, args, want string
	}{
		{"no prompt", `{"mode":"confirm","prompt":"  "}`, "prompt is empty"},
		{"an unknown mode", `{"mode":"guess","prompt":"?"}`, "mode: must be one of"},
		{"choose with one option", `{"mode":"choose","prompt":"?","options":["A"]}`, "choose needs 2 to 12 options"},
		{"options elsewhere", `{"mode":"point","prompt":"?","options":["A","B"]}`, "options are for mode choose"},
		{"an option of the wrong shape", `{"mode":"choose","prompt":"?","options":["A",{"name":"B"}]}`, "each is a label"},
		{"two options of one value", `{"mode":"choose","prompt":"?","options":["A",{"label":"B","value":"A"}]}`, `two options have the value "A"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newFeedbackRig(t)
			err := wantError(t, run(t, r.e, "browser_request_feedback", tt.args), protocol.CodeBadRequest)
			assert.Contains(t, err.Message, tt.want)
			assert.Empty(t, r.fb.actions(), "nothing reached the browser")
		})
	}
}

func TestTheCountdownIsWithinTheCall(t *testing.T) {
	tests := []struct {
		timeoutMs string
		want      int64
	}{
		{"", 120_000},
		{`,"timeoutMs":1500`, 1500},
		{`,"timeoutMs":10`, 1000},
		{`,"timeoutMs":600000`, 590_000}, // its timedOut answer still comes back within the call's ten minutes
		{`,"timeoutMs":9999999`, 590_000},
	}
	for _, tt := range tests {
		t.Run(tt.timeoutMs, func(t *testing.T) {
			// A clock that stands still: the countdown the browser is
			// given is what is left of it when the question is sent.
			at := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
			r := newFeedbackRigWith(t, Options{Now: func() time.Time { return at }})
			r.answers <- &browser.Feedback{TimedOut: true}
			res := run(t, r.e, "browser_request_feedback", `{"mode":"confirm","prompt":"Deploy?"`+tt.timeoutMs+`}`)
			require.False(t, res.IsError, textOf(t, res))
			ask := <-r.asked
			assert.Equal(t, tt.want, ask.TimeoutMs)
			cmd := r.fb.last()
			assert.Greater(t, cmd.TimeoutMs, ask.TimeoutMs, "the command outlives the countdown")
			assert.LessOrEqual(t, cmd.TimeoutMs, protocol.MaxCommandTimeout.Milliseconds())
		})
	}
}

func TestAnAnswerFromThePage(t *testing.T) {
	r := newFeedbackRig(t)
	x, y := 120.0, 48.0
	r.answers <- &browser.Feedback{Responded: true, Via: "overlay", Annotations: []browser.Annotation{
		{Kind: "comment", X: &x, Y: &y, Ref: 9, Text: "this one. password: hunter22"}}}
	res := run(t, r.e, "browser_request_feedback",
		`{"mode":"comment","prompt":"What is wrong here?","tabId":4}`)
	require.False(t, res.IsError, textOf(t, res))
	assert.JSONEq(t, `{"responded":true,"timedOut":false,"dismissed":false,"via":"overlay",
		"annotations":[{"kind":"comment","x":120,"y":48,"ref":"e9","text":"this one. password: [redacted]"}]}`, textOf(t, res))
	assert.JSONEq(t, textOf(t, res), string(res.StructuredContent))
	ask := <-r.asked
	assert.Equal(t, browser.FeedbackAsk{TabID: 4, RequestID: ask.RequestID, Mode: "comment", Prompt: "What is wrong here?",
		TimeoutMs: ask.TimeoutMs}, ask)
}

func TestAQuestionHoldsItsTab(t *testing.T) {
	r := newFeedbackRig(t)
	done := make(chan *protocol.ToolResult, 1)
	go func() {
		done <- run(t, r.e, "browser_request_feedback", `{"mode":"choose","prompt":"Which plan?","options":["Pro","Free"]}`)
	}()
	ask := <-r.asked
	assert.Equal(t, []browser.FeedbackOption{{Label: "Pro", Value: "Pro"}, {Label: "Free", Value: "Free"}}, ask.Options)

	// Any tool on the tab is refused, naming the question.
	err := wantError(t, run(t, r.e, "read_page", `{}`), protocol.CodeConflict)
	assert.Contains(t, err.Message, ask.RequestID)
	assert.Contains(t, err.Hint, "browser_request_feedback")
	wantError(t, run(t, r.e, "browser_request_feedback", `{"mode":"confirm","prompt":"again?"}`), protocol.CodeConflict)
	wantError(t, run(t, r.e, "oc_handoff_start", `{"reason":"other"}`), protocol.CodeConflict)

	// The side panel's state lists it, for the extension to keep.
	require.Eventually(t, func() bool {
		var s struct {
			Feedback []feedback.Shown `json:"feedback"`
		}
		return r.fb.lastState(&s) && len(s.Feedback) == 1 && s.Feedback[0].ID == ask.RequestID && s.Feedback[0].TabID == 4
	}, 5*time.Second, 10*time.Millisecond)

	r.answers <- &browser.Feedback{Dismissed: true, Via: "panel"}
	res := <-done
	assert.JSONEq(t, `{"responded":false,"timedOut":false,"dismissed":true,"via":"panel","annotations":[]}`, textOf(t, res))
	assert.Empty(t, r.e.questions.Holding(4), "the tab is the agent's again")
}

func TestTheAgentsClientMayAnswerFirst(t *testing.T) {
	r := newFeedbackRig(t)
	var q protocol.Ask
	c := bridge.NewCall("a1", "browser_request_feedback", json.RawMessage(`{"mode":"confirm","prompt":"Deploy to production?"}`), nil).
		WithAsk(func(ctx context.Context, got protocol.Ask) (protocol.Answer, error) {
			q = got
			<-r.asked // the overlay is up too
			return protocol.Answer{Action: protocol.AnswerAccept}, nil
		})
	res := r.e.Call(context.Background(), c)
	assert.JSONEq(t, `{"responded":true,"timedOut":false,"dismissed":false,"via":"client",
		"annotations":[{"kind":"confirm","value":true}]}`, textOf(t, res))
	assert.Contains(t, q.Message, "Deploy to production?")
	assert.Empty(t, q.Choices)
	// The overlay is withdrawn: the extension's command was cancelled.
	assert.Equal(t, []string{r.fb.last().ID}, r.fb.cancelled())
	r.answers <- nil // the extension's late answer to the cancelled command
}
