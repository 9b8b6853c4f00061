package e2e

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openchrome/openchrome/bridge"
)

// BenchmarkToolsContextThroughTheChain measures one tool call's round trip
// through everything a user runs: the go-sdk client, `openchrome mcp`, the
// broker, the daemon's engine, native messaging, the extension and Chrome's
// tabs API, and back.
func BenchmarkToolsContextThroughTheChain(b *testing.B) {
	e := newEnv(b)
	cs := e.client("bench")
	ok(b, cs, "tabs_create", map[string]any{})
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: "tabs_context", Arguments: map[string]any{}}
	for b.Loop() {
		r, err := cs.CallTool(ctx, params)
		if err != nil || r.IsError {
			b.Fatal(err, textOf(r))
		}
	}
}

// BenchmarkToolsContextFromTheBroker is the same call without the MCP
// front-end: an agent on the broker's WebSocket, as `openchrome call` is.
func BenchmarkToolsContextFromTheBroker(b *testing.B) {
	e := newEnv(b)
	ok(b, e.client("bench"), "tabs_create", map[string]any{})
	d, err := bridge.ReadDiscovery(e.home.BridgeFile())
	if err != nil {
		b.Fatal(err)
	}
	cl, err := bridge.Dial(context.Background(), d, "bench")
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	ctx := context.Background()
	for b.Loop() {
		r, err := cl.Call(ctx, "tabs_context", nil, bridge.CallOptions{})
		if err != nil || r.IsError {
			b.Fatal(err)
		}
	}
}
