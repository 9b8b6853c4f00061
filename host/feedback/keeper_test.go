package feedback

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

// A call asks the person at its agent's client.
var _ Asker = (*bridge.Call)(nil)

// extension is a fake browser: each feedback.request it gets goes to
// answer, with the command's context (which the keeper cancels to withdraw
// it) and the number of the request (1 for the first).
type extension struct {
	answer func(ctx context.Context, n int, ask browser.FeedbackAsk) (browser.Feedback, error)

	mu   sync.Mutex
	asks []browser.FeedbackAsk
}

func (x *extension) Do(ctx context.Context, cmd protocol.Command) (json.RawMessage, error) {
	var ask browser.FeedbackAsk
	if err := json.Unmarshal(cmd.Params, &ask); err != nil || cmd.Action != "feedback.request" {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "unexpected %s", cmd.Action)
	}
	x.mu.Lock()
	x.asks = append(x.asks, ask)
	n := len(x.asks)
	x.mu.Unlock()
	fb, err := x.answer(ctx, n, ask)
	if err != nil {
		return nil, err
	}
	return json.Marshal(fb)
}

func (x *extension) sent() []browser.FeedbackAsk {
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]browser.FeedbackAsk(nil), x.asks...)
}

// waitsForWithdrawal is an extension whose person never answers: it
// reports the withdrawal on withdrawn.
func waitsForWithdrawal(withdrawn chan<- struct{}) func(context.Context, int, browser.FeedbackAsk) (browser.Feedback, error) {
	return func(ctx context.Context, _ int, _ browser.FeedbackAsk) (browser.Feedback, error) {
		<-ctx.Done()
		close(withdrawn)
		return browser.Feedback{}, protocol.Errorf(protocol.CodeCancelled, "command cancelled")
	}
}

// client is a fake agent's MCP client.
type client struct {
	can    bool
	answer func(ctx context.Context, q protocol.Ask) (protocol.Answer, error)
}

func (c client) CanAsk() bool { return c.can }
func (c client) Ask(ctx context.Context, q protocol.Ask) (protocol.Answer, error) {
	return c.answer(ctx, q)
}

func f(v float64) *float64 { return &v }

var choosePlan = Request{TabID: 4, Mode: ModeChoose, Prompt: "Which plan?", Wait: time.Minute,
	Options: []browser.FeedbackOption{{Label: "Pro", Value: "pro"}, {Label: "Free", Value: "free"}}}

func TestTheBrowsersAnswerIsTheResult(t *testing.T) {
	tests := []struct {
		name string
		fb   browser.Feedback
		want Result
	}{
		{"an element, with read_page's refs",
			browser.Feedback{Responded: true, Via: ViaOverlay, Annotations: []browser.Annotation{
				{Kind: "element", Ref: 12, Role: "button", Name: "Save", Selector: "#save", Text: "Save"}}},
			Result{Responded: true, Via: ViaOverlay, Annotations: []Annotation{
				{Kind: "element", Ref: "e12", Role: "button", Name: "Save", Selector: "#save", Text: "Save"}}}},
		{"a region and every element in it",
			browser.Feedback{Responded: true, Via: ViaOverlay, Annotations: []browser.Annotation{
				{Kind: "region", Rect: &browser.Rect{X: 1, Y: 2, Width: 30, Height: 40}, Refs: []int{3, 5}}}},
			Result{Responded: true, Via: ViaOverlay, Annotations: []Annotation{
				{Kind: "region", Rect: &browser.Rect{X: 1, Y: 2, Width: 30, Height: 40}, Refs: []string{"e3", "e5"}}}}},
		{"a comment, its note redacted",
			browser.Feedback{Responded: true, Via: ViaOverlay, Annotations: []browser.Annotation{
				{Kind: "comment", X: f(10), Y: f(0), Ref: 7, Text: "use this one, api_key=sk_live_0123456789abcdef"}}},
			Result{Responded: true, Via: ViaOverlay, Annotations: []Annotation{
				{Kind: "comment", X: f(10), Y: f(0), Ref: "e7", Text: "use this one, api_key=[redacted]"}}}},
		{"a point on the panel's screenshot has no ref",
			browser.Feedback{Responded: true, Via: ViaPanel, Annotations: []browser.Annotation{{Kind: "point", X: f(5), Y: f(6)}}},
			Result{Responded: true, Via: ViaPanel, Annotations: []Annotation{{Kind: "point", X: f(5), Y: f(6)}}}},
		{"dismissed", browser.Feedback{Dismissed: true, Via: ViaOverlay},
			Result{Dismissed: true, Via: ViaOverlay, Annotations: []Annotation{}}},
		{"timed out", browser.Feedback{TimedOut: true}, Result{TimedOut: true, Annotations: []Annotation{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := New(Options{})
			x := &extension{answer: func(context.Context, int, browser.FeedbackAsk) (browser.Feedback, error) { return tt.fb, nil }}
			got, err := k.Ask(context.Background(), x, nil, Request{TabID: 4, Mode: ModeElement, Prompt: "Which?", Wait: time.Minute})
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestAQuestionHoldsItsTabUntilAnswered(t *testing.T) {
	changed := make(chan struct{}, 10)
	k := New(Options{Changed: func() { changed <- struct{}{} }})
	asked := make(chan browser.FeedbackAsk, 1)
	answer := make(chan struct{})
	x := &extension{answer: func(_ context.Context, _ int, ask browser.FeedbackAsk) (browser.Feedback, error) {
		asked <- ask
		<-answer
		return browser.Feedback{Responded: true, Via: ViaPanel, Annotations: []browser.Annotation{{Kind: "choice", Value: "pro", Label: "Pro"}}}, nil
	}}
	done := make(chan Result, 1)
	go func() {
		r, err := k.Ask(context.Background(), x, nil, choosePlan)
		assert.NoError(t, err)
		done <- r
	}()
	ask := <-asked
	<-changed // the panel hears of it
	assert.Regexp(t, `^[0-9a-f]{16}$`, ask.RequestID)
	assert.Equal(t, ask.RequestID, k.Holding(4))
	assert.Empty(t, k.Holding(5))
	assert.Equal(t, "choose", ask.Mode)
	assert.Equal(t, choosePlan.Options, ask.Options)
	assert.InDelta(t, time.Minute.Milliseconds(), ask.TimeoutMs, 1000)
	shown := k.Shown()
	require.Len(t, shown, 1)
	assert.Equal(t, Shown{ID: ask.RequestID, TabID: 4, Mode: "choose", Deadline: shown[0].Deadline}, shown[0])

	_, err := k.Ask(context.Background(), x, nil, choosePlan)
	assert.ErrorIs(t, err, protocol.ErrConflict, "one question per tab")

	close(answer)
	r := <-done
	assert.Equal(t, Result{Responded: true, Via: ViaPanel, Annotations: []Annotation{{Kind: "choice", Value: "pro", Label: "Pro"}}}, r)
	assert.Empty(t, k.Holding(4))
	assert.Empty(t, k.Shown())
}

func TestTheFirstAnswerWinsAndTheOtherPlaceIsWithdrawn(t *testing.T) {
	t.Run("the client first", func(t *testing.T) {
		k := New(Options{})
		withdrawn := make(chan struct{})
		x := &extension{answer: waitsForWithdrawal(withdrawn)}
		var q protocol.Ask
		c := client{can: true, answer: func(_ context.Context, got protocol.Ask) (protocol.Answer, error) {
			q = got
			return protocol.Answer{Action: protocol.AnswerAccept, Value: "free"}, nil
		}}
		r, err := k.Ask(context.Background(), x, c, choosePlan)
		require.NoError(t, err)
		assert.Equal(t, Result{Responded: true, Via: ViaClient, Annotations: []Annotation{{Kind: "choice", Value: "free", Label: "Free"}}}, r)
		assert.Contains(t, q.Message, "Which plan?")
		assert.Equal(t, []protocol.Choice{{Value: "pro", Label: "Pro"}, {Value: "free", Label: "Free"}}, q.Choices)
		<-withdrawn // the overlay and the panel entry go (the command is cancelled) before Ask returns
	})
	t.Run("the browser first", func(t *testing.T) {
		k := New(Options{})
		asked := make(chan struct{})
		withdrawn := make(chan struct{})
		x := &extension{answer: func(context.Context, int, browser.FeedbackAsk) (browser.Feedback, error) {
			<-asked // the client has its prompt up
			return browser.Feedback{Responded: true, Via: ViaOverlay, Annotations: []browser.Annotation{{Kind: "confirm", Value: true}}}, nil
		}}
		c := client{can: true, answer: func(ctx context.Context, _ protocol.Ask) (protocol.Answer, error) {
			close(asked)
			<-ctx.Done()
			close(withdrawn)
			return protocol.Answer{}, ctx.Err()
		}}
		r, err := k.Ask(context.Background(), x, c, Request{TabID: 4, Mode: ModeConfirm, Prompt: "Deploy?", Wait: time.Minute})
		require.NoError(t, err)
		assert.Equal(t, Result{Responded: true, Via: ViaOverlay, Annotations: []Annotation{{Kind: "confirm", Value: true}}}, r)
		<-withdrawn
	})
}

func TestWhatTheClientSays(t *testing.T) {
	tests := []struct {
		name   string
		req    Request
		answer protocol.Answer
		want   Result
	}{
		{"confirmed", Request{TabID: 4, Mode: ModeConfirm, Prompt: "Deploy?", Wait: time.Minute},
			protocol.Answer{Action: protocol.AnswerAccept},
			Result{Responded: true, Via: ViaClient, Annotations: []Annotation{{Kind: "confirm", Value: true}}}},
		{"declined is dismissed", choosePlan, protocol.Answer{Action: protocol.AnswerDecline},
			Result{Dismissed: true, Via: ViaClient, Annotations: []Annotation{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := New(Options{})
			x := &extension{answer: waitsForWithdrawal(make(chan struct{}))}
			c := client{can: true, answer: func(context.Context, protocol.Ask) (protocol.Answer, error) { return tt.answer, nil }}
			r, err := k.Ask(context.Background(), x, c, tt.req)
			require.NoError(t, err)
			assert.Equal(t, tt.want, r)
		})
	}
}

func TestAClientPromptClosedLeavesTheBrowserToAnswer(t *testing.T) {
	for _, answer := range []protocol.Answer{{Action: protocol.AnswerCancel}, {Action: protocol.AnswerAccept, Value: "gold"}} {
		k := New(Options{})
		closed := make(chan struct{})
		x := &extension{answer: func(context.Context, int, browser.FeedbackAsk) (browser.Feedback, error) {
			<-closed
			return browser.Feedback{Dismissed: true, Via: ViaOverlay}, nil
		}}
		c := client{can: true, answer: func(context.Context, protocol.Ask) (protocol.Answer, error) {
			defer close(closed)
			return answer, nil
		}}
		r, err := k.Ask(context.Background(), x, c, choosePlan)
		require.NoError(t, err)
		assert.Equal(t, Result{Dismissed: true, Via: ViaOverlay, Annotations: []Annotation{}}, r, "%+v is no answer", answer)
	}
}

func TestOnlyConfirmAndChooseAreAskedAtTheClient(t *testing.T) {
	asked := func(mode string, can bool) bool {
		k := New(Options{})
		var was bool
		x := &extension{answer: func(context.Context, int, browser.FeedbackAsk) (browser.Feedback, error) {
			return browser.Feedback{TimedOut: true}, nil
		}}
		c := client{can: can, answer: func(ctx context.Context, _ protocol.Ask) (protocol.Answer, error) {
			was = true
			<-ctx.Done()
			return protocol.Answer{}, ctx.Err()
		}}
		_, err := k.Ask(context.Background(), x, c, Request{TabID: 1, Mode: mode, Prompt: "?", Wait: time.Minute,
			Options: choosePlan.Options})
		require.NoError(t, err)
		return was
	}
	for _, mode := range Modes() {
		assert.Equal(t, mode == ModeConfirm || mode == ModeChoose, asked(mode, true), mode)
		assert.False(t, asked(mode, false), "%s: a client that cannot ask is not asked", mode)
	}
}

func TestCancellingTheCallWithdrawsEveryPlace(t *testing.T) {
	k := New(Options{})
	ctx, cancel := context.WithCancel(context.Background())
	withdrawn := make(chan struct{})
	x := &extension{answer: func(ctx context.Context, n int, ask browser.FeedbackAsk) (browser.Feedback, error) {
		cancel() // the agent cancels while the overlay is up
		return waitsForWithdrawal(withdrawn)(ctx, n, ask)
	}}
	_, err := k.Ask(ctx, x, nil, Request{TabID: 4, Mode: ModePoint, Prompt: "Where?", Wait: time.Minute})
	assert.ErrorIs(t, err, protocol.ErrCancelled)
	<-withdrawn
	assert.Empty(t, k.Holding(4))
}

func TestAQuestionOutlivesItsBrowserLink(t *testing.T) {
	// The extension's worker stops mid-question: the command fails with
	// browser_not_connected; once a browser is back the keeper asks again
	// for the same request, and gets the answer the extension kept.
	k := New(Options{})
	gone := protocol.Errorf(protocol.CodeBrowserNotConnected, "the browser disconnected")
	x := &extension{answer: func(_ context.Context, n int, _ browser.FeedbackAsk) (browser.Feedback, error) {
		if n == 1 {
			go k.BrowserConnected() // the worker is back
			return browser.Feedback{}, gone
		}
		return browser.Feedback{Responded: true, Via: ViaOverlay, Annotations: []browser.Annotation{{Kind: "confirm", Value: true}}}, nil
	}}
	r, err := k.Ask(context.Background(), x, nil, Request{TabID: 4, Mode: ModeConfirm, Prompt: "Deploy?", Wait: time.Minute})
	require.NoError(t, err)
	assert.True(t, r.Responded)
	sent := x.sent()
	require.Len(t, sent, 2)
	assert.Equal(t, sent[0].RequestID, sent[1].RequestID, "the same request, asked again")
	assert.LessOrEqual(t, sent[1].TimeoutMs, sent[0].TimeoutMs, "with what is left of the countdown")
}

func TestAQuestionWithNoBrowserTimesOutAtItsDeadline(t *testing.T) {
	k := New(Options{})
	gone := protocol.Errorf(protocol.CodeBrowserNotConnected, "no browser is connected")
	x := &extension{answer: func(context.Context, int, browser.FeedbackAsk) (browser.Feedback, error) {
		return browser.Feedback{}, gone
	}}
	start := time.Now()
	r, err := k.Ask(context.Background(), x, nil, Request{TabID: 4, Mode: ModeConfirm, Prompt: "?", Wait: 50 * time.Millisecond})
	require.NoError(t, err)
	assert.Equal(t, timedOut(), r)
	assert.Less(t, time.Since(start), relinkPoll, "it ends at the countdown, not at the next look")
}

func TestAnErrorOfTheBrowserIsTheCallsError(t *testing.T) {
	k := New(Options{})
	refused := protocol.Errorf(protocol.CodeTabNotAllowed, "this page can be neither scripted nor captured")
	x := &extension{answer: func(context.Context, int, browser.FeedbackAsk) (browser.Feedback, error) {
		return browser.Feedback{}, refused
	}}
	_, err := k.Ask(context.Background(), x, nil, Request{TabID: 4, Mode: ModeRegion, Prompt: "?", Wait: time.Minute})
	assert.ErrorIs(t, err, protocol.ErrTabNotAllowed)
	assert.Empty(t, k.Holding(4))
}
