package bridge

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

// asking is a handler that puts one question to the agent and answers the
// call with what came back: the action and value, or the error's code.
var asking = handlerFunc(func(ctx context.Context, c *Call) *protocol.ToolResult {
	if !c.CanAsk() {
		return protocol.TextResult("cannot ask")
	}
	ans, err := c.Ask(ctx, protocol.Ask{Message: "Which plan?", Choices: []protocol.Choice{{Value: "pro", Label: "Pro"}}})
	if err != nil {
		return protocol.ErrorResult(err)
	}
	return protocol.TextResult(ans.Action + " " + ans.Value)
})

func TestAnAgentThatCanAskIsAsked(t *testing.T) {
	_, d := startServer(t, asking)
	cl := dialAgent(t, d)

	var got protocol.Ask
	r, err := cl.Call(context.Background(), "browser_request_feedback", nil, CallOptions{
		Ask: func(_ context.Context, q protocol.Ask) protocol.Answer {
			got = q
			return protocol.Answer{Action: protocol.AnswerAccept, Value: "pro"}
		},
	})
	require.NoError(t, err)
	assert.Equal(t, "accept pro", text(t, r))
	assert.Equal(t, "Which plan?", got.Message)
	assert.Equal(t, []protocol.Choice{{Value: "pro", Label: "Pro"}}, got.Choices)
	assert.NotEmpty(t, got.ID)
	assert.NotEmpty(t, got.Call)

	r, err = cl.Call(context.Background(), "browser_request_feedback", nil, CallOptions{})
	require.NoError(t, err)
	assert.Equal(t, "cannot ask", text(t, r), "a call without Ask says it cannot")
}

func TestAQuestionNoLongerNeededIsWithdrawn(t *testing.T) {
	// The handler stops waiting for the agent (another answer came first):
	// the agent's prompt must go away at once.
	asked := make(chan struct{})
	h := handlerFunc(func(ctx context.Context, c *Call) *protocol.ToolResult {
		ctx, stop := context.WithCancel(ctx)
		go func() { <-asked; stop() }()
		_, err := c.Ask(ctx, protocol.Ask{Message: "Deploy?"})
		return protocol.ErrorResult(err)
	})
	_, d := startServer(t, h)
	cl := dialAgent(t, d)

	withdrawn := make(chan struct{})
	r, err := cl.Call(context.Background(), "t", nil, CallOptions{
		Ask: func(ctx context.Context, _ protocol.Ask) protocol.Answer {
			close(asked)
			<-ctx.Done() // the person has not answered; the broker withdraws
			close(withdrawn)
			return protocol.Answer{Action: protocol.AnswerCancel}
		},
	})
	require.NoError(t, err)
	assert.Equal(t, protocol.CodeCancelled, protocol.ResultError(r).Code)
	select {
	case <-withdrawn:
	case <-time.After(5 * time.Second):
		t.Fatal("the question was not withdrawn")
	}
}

func TestCancellingTheCallWithdrawsItsQuestion(t *testing.T) {
	_, d := startServer(t, asking)
	cl := dialAgent(t, d)

	ctx, cancel := context.WithCancel(context.Background())
	withdrawn := make(chan struct{})
	go func() {
		_, _ = cl.Call(ctx, "t", nil, CallOptions{Ask: func(actx context.Context, _ protocol.Ask) protocol.Answer {
			cancel() // the agent gives up on the call while its person is asked
			<-actx.Done()
			close(withdrawn)
			return protocol.Answer{Action: protocol.AnswerCancel}
		}})
	}()
	select {
	case <-withdrawn:
	case <-time.After(5 * time.Second):
		t.Fatal("cancelling the call left its question open")
	}
}

func TestAskWithoutAnAskerIsRefused(t *testing.T) {
	c := NewCall("a1", "t", nil, nil)
	assert.False(t, c.CanAsk())
	_, err := c.Ask(context.Background(), protocol.Ask{Message: "?"})
	assert.ErrorIs(t, err, protocol.ErrBadRequest)

	c.WithAsk(func(context.Context, protocol.Ask) (protocol.Answer, error) {
		return protocol.Answer{Action: protocol.AnswerDecline}, nil
	})
	require.True(t, c.CanAsk())
	ans, err := c.Ask(context.Background(), protocol.Ask{Message: "?"})
	require.NoError(t, err)
	assert.Equal(t, protocol.AnswerDecline, ans.Action)
}
