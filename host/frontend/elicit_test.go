package frontend

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/engine"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// elicitingClient runs a front-end serving the interactive group on home
// and connects a client that speaks version and answers elicitations with
// answer (nil: it declares no elicitation).
func elicitingClient(t *testing.T, home ledger.Home, version string,
	answer func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)) *mcp.ClientSession {
	t.Helper()
	fe, err := New(Options{Home: home, Groups: []string{engine.GroupInteractive}, ReconnectGrace: 50 * time.Millisecond})
	require.NoError(t, err)
	st, ct := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = fe.run(ctx, st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"},
		&mcp.ClientOptions{ElicitationHandler: answer}).Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close(); cancel(); <-done })
	return cs
}

// askOnce is a daemon whose every call asks q once and answers with what
// came back ("accept pro", "decline ", ...), or "not asked".
func askOnce(q protocol.Ask) handlerFunc {
	return func(ctx context.Context, c *bridge.Call) *protocol.ToolResult {
		if !c.CanAsk() {
			return protocol.TextResult("not asked")
		}
		ans, err := c.Ask(ctx, q)
		if err != nil {
			return protocol.ErrorResult(err)
		}
		return protocol.TextResult(ans.Action + " " + ans.Value)
	}
}

var choosePlan = protocol.Ask{Message: "Which plan?", Choices: []protocol.Choice{{Value: "pro", Label: "Pro"}, {Value: "free", Label: "Free"}}}

func TestTheClientAnswersAQuestionOfTheDaemon(t *testing.T) {
	tests := []struct {
		name   string
		q      protocol.Ask
		answer *mcp.ElicitResult
		want   string
	}{
		{"a confirmation", protocol.Ask{Message: "Deploy?"}, &mcp.ElicitResult{Action: "accept"}, "accept "},
		{"a choice", choosePlan, &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "free"}}, "accept free"},
		{"a no", choosePlan, &mcp.ElicitResult{Action: "decline"}, "decline "},
		{"a prompt closed", choosePlan, &mcp.ElicitResult{Action: "cancel"}, "cancel "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := ledger.Home(t.TempDir())
			daemon(t, home, askOnce(tt.q), protocol.Version)
			var got *mcp.ElicitParams
			cs := elicitingClient(t, home, "2025-11-25", func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				got = r.Params
				return tt.answer, nil
			})
			r := callTool(t, cs, "browser_request_feedback", map[string]any{"mode": "confirm", "prompt": "x"})
			assert.Equal(t, tt.want, r.Content[0].(*mcp.TextContent).Text)
			require.NotNil(t, got)
			assert.Equal(t, tt.q.Message, got.Message)
			assert.Equal(t, "form", got.Mode)
		})
	}
}

func TestOnlyClientsThatCanBeAskedAre(t *testing.T) {
	yes := func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept"}, nil
	}
	tests := []struct {
		name    string
		version string
		answer  func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)
	}{
		{"no elicitation declared", "2025-11-25", nil},
		// Its multi round-trip requests cannot be withdrawn when the
		// person answers in the browser first.
		{"a version without requests during a call", multiRoundTrip, yes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := ledger.Home(t.TempDir())
			daemon(t, home, askOnce(protocol.Ask{Message: "Deploy?"}), protocol.Version)
			cs := elicitingClient(t, home, tt.version, tt.answer)
			r := callTool(t, cs, "browser_request_feedback", map[string]any{"mode": "confirm", "prompt": "x"})
			assert.Equal(t, "not asked", r.Content[0].(*mcp.TextContent).Text)
		})
	}
}

func TestAWithdrawnQuestionLeavesTheClient(t *testing.T) {
	// The person answered in the browser: the daemon withdraws the
	// question, and the client's prompt is cancelled.
	home := ledger.Home(t.TempDir())
	asked := make(chan struct{})
	daemon(t, home, handlerFunc(func(ctx context.Context, c *bridge.Call) *protocol.ToolResult {
		ctx, withdraw := context.WithCancel(ctx)
		go func() { <-asked; withdraw() }()
		_, err := c.Ask(ctx, protocol.Ask{Message: "Deploy?"})
		return protocol.ErrorResult(err)
	}), protocol.Version)
	withdrawn := make(chan struct{})
	cs := elicitingClient(t, home, "2025-11-25", func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		close(asked)
		<-ctx.Done()
		close(withdrawn)
		return nil, ctx.Err()
	})
	callTool(t, cs, "browser_request_feedback", map[string]any{"mode": "confirm", "prompt": "x"})
	select {
	case <-withdrawn:
	case <-time.After(5 * time.Second):
		t.Fatal("the client's prompt was not withdrawn")
	}
}

func TestAChoiceOutsideTheChoicesIsNoAnswer(t *testing.T) {
	q := formOf(choosePlan)
	assert.Equal(t, []string{"choice"}, q["required"])
	assert.Equal(t, map[string]any{"type": "object", "properties": map[string]any{}}, formOf(protocol.Ask{Message: "ok?"}))
}

func TestAFrontEndThatIsToldToGoEndsItsCalls(t *testing.T) {
	// SIGTERM from a client that exits: the calls in flight end at once,
	// whatever they wait for (the person's answer), not when they are done.
	home := ledger.Home(t.TempDir())
	started, ended := make(chan struct{}), make(chan struct{})
	daemon(t, home, handlerFunc(func(ctx context.Context, c *bridge.Call) *protocol.ToolResult {
		close(started)
		<-ctx.Done()
		close(ended)
		return protocol.ErrorResult(ctx.Err())
	}), protocol.Version)
	fe, err := New(Options{Home: home, Groups: []string{engine.GroupInteractive}})
	require.NoError(t, err)
	st, ct := mcp.NewInMemoryTransports()
	ctx, terminate := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = fe.run(ctx, st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	require.NoError(t, err)
	go func() {
		_, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "browser_request_feedback",
			Arguments: map[string]any{"mode": "confirm", "prompt": "x"}})
	}()
	<-started
	terminate()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the call in flight outlived its front-end")
	}
	<-done
	cs.Close()
}
