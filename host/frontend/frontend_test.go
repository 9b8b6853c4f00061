package frontend

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"strings"
	"sync"
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

// connect runs a front-end on home and returns an MCP client session to it.
func connect(t *testing.T, home ledger.Home, opts ...func(*Options)) *mcp.ClientSession {
	t.Helper()
	o := Options{Home: home, ReconnectGrace: 50 * time.Millisecond}
	for _, f := range opts {
		f(&o)
	}
	fe, err := New(o)
	require.NoError(t, err)
	st, ct := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = fe.run(ctx, st) }()
	return clientOn(t, ct, func() { cancel(); <-done })
}

func clientOn(t *testing.T, ct mcp.Transport, stop func(), opts ...*mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	var o *mcp.ClientOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, o).Connect(context.Background(), ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close(); stop() })
	return cs
}

// daemon runs a broker for home with h as its handler, as the daemon would.
func daemon(t *testing.T, home ledger.Home, h bridge.Handler, version string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	token := bridge.NewToken()
	srv := bridge.NewServer(bridge.Options{Token: token, Handler: h, Version: version})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-done })
	require.NoError(t, bridge.WriteDiscovery(home.BridgeFile(), bridge.Discovery{
		Port: ln.Addr().(*net.TCPAddr).Port, Token: token, PID: os.Getpid(), Version: version,
	}))
}

type handlerFunc func(ctx context.Context, c *bridge.Call) *protocol.ToolResult

func (f handlerFunc) Call(ctx context.Context, c *bridge.Call) *protocol.ToolResult { return f(ctx, c) }

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	return r
}

func errorOf(t *testing.T, r *mcp.CallToolResult) *protocol.Error {
	t.Helper()
	require.True(t, r.IsError)
	b, err := json.Marshal(r.StructuredContent)
	require.NoError(t, err)
	var s struct {
		Error *protocol.Error `json:"error"`
	}
	require.NoError(t, json.Unmarshal(b, &s))
	require.NotNil(t, s.Error)
	return s.Error
}

func TestToolsListIsTheCatalog(t *testing.T) {
	cs := connect(t, ledger.Home(t.TempDir()))
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	want, err := engine.Select(nil)
	require.NoError(t, err)
	listed := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		listed[tool.Name] = tool
	}
	require.Len(t, listed, len(want))
	for _, w := range want {
		tool := listed[w.Name]
		require.NotNil(t, tool, w.Name)
		assert.Equal(t, w.Description, tool.Description)
	}

	core := connect(t, ledger.Home(t.TempDir()), func(o *Options) { o.Groups = []string{engine.GroupCore} })
	res, err = core.ListTools(context.Background(), nil)
	require.NoError(t, err)
	assert.NotEmpty(t, res.Tools)

	_, err = New(Options{Groups: []string{"nope"}})
	assert.Error(t, err)
}

// TestToolAnnotations is what each tool tells MCP clients deciding what to
// confirm with the person: r read-only, d destructive, i idempotent, o open
// world (a web page). MCP's defaults (destructive, open world) are left
// out of tools/list. The opt-in interactive group is served too.
func TestToolAnnotations(t *testing.T) {
	want := map[string]string{
		"oc_connection_health": "r", "tabs_context": "r", "tabs_create": "o", "tabs_close": "di",
		"navigate": "do", "read_page": "ro", "find": "ro", "interact": "do", "act": "do",
		"form_input": "dio", "computer": "do", "wait_for": "ro", "page_screenshot": "ro",
		"javascript_tool": "do", "console_messages": "ro", "network_requests": "ro", "network_request": "ro", "page_pdf": "o", "downloads": "r", "upload_file": "dio", "oc_stop": "di", "crawl": "o", "crawl_sitemap": "o", "recording": "o",
		"oc_evidence_bundle": "o", "oc_session_snapshot": "", "oc_session_resume": "o", "oc_task_start": "o",
		"oc_task_list": "r", "oc_task_get": "r", "oc_task_wait": "r", "oc_task_cancel": "di",
		"oc_task_update": "", "oc_task_finish": "",
		"oc_handoff_start": "", "oc_handoff_status": "r", "oc_handoff_finish": "", "oc_handoff_cancel": "di",
		"browser_request_feedback": "o",
	}
	cs := connect(t, ledger.Home(t.TempDir()), func(o *Options) {
		o.Groups = append(engine.DefaultGroups(), engine.GroupInteractive)
	})
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	require.Len(t, res.Tools, len(want), "a row for every tool of the catalog")
	for _, tool := range res.Tools {
		w, ok := want[tool.Name]
		require.True(t, ok, "no row for %s", tool.Name)
		a := tool.Annotations
		if a == nil {
			assert.Equal(t, "do", w, "%s: only a tool of MCP's default hints goes without annotations", tool.Name)
			continue
		}
		has := func(c string) bool { return strings.Contains(w, c) }
		assert.Equal(t, has("r"), a.ReadOnlyHint, "%s readOnlyHint", tool.Name)
		if has("r") {
			assert.Nil(t, a.DestructiveHint, "%s: destructiveHint means nothing for a read-only tool", tool.Name)
			assert.False(t, a.IdempotentHint, tool.Name)
		} else {
			assert.Equal(t, has("d"), a.DestructiveHint == nil || *a.DestructiveHint, "%s destructiveHint", tool.Name)
			assert.Equal(t, has("i"), a.IdempotentHint, "%s idempotentHint", tool.Name)
		}
		assert.Equal(t, has("o"), a.OpenWorldHint == nil || *a.OpenWorldHint, "%s openWorldHint", tool.Name)
		if a.DestructiveHint != nil {
			assert.False(t, *a.DestructiveHint, "%s: only the non-default value is published", tool.Name)
		}
		if a.OpenWorldHint != nil {
			assert.False(t, *a.OpenWorldHint, "%s: only the non-default value is published", tool.Name)
		}
	}
}

func TestNoDaemonIsBrowserNotConnectedAtOnce(t *testing.T) {
	cs := connect(t, ledger.Home(t.TempDir()), func(o *Options) { o.ReconnectGrace = time.Minute })
	start := time.Now()
	e := errorOf(t, callTool(t, cs, "navigate", map[string]any{"url": "http://127.0.0.1/"}))
	assert.Equal(t, protocol.CodeBrowserNotConnected, e.Code)
	assert.Contains(t, e.Hint, "openchrome doctor")
	assert.Less(t, time.Since(start), 5*time.Second, "with no bridge.json there is nothing to wait for")
}

func TestStaleDiscoveryIsBrowserNotConnected(t *testing.T) {
	home := ledger.Home(t.TempDir())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	require.NoError(t, bridge.WriteDiscovery(home.BridgeFile(), bridge.Discovery{Port: port, Token: "t", PID: 1}))
	cs := connect(t, home)
	e := errorOf(t, callTool(t, cs, "tabs_context", map[string]any{}))
	assert.Equal(t, protocol.CodeBrowserNotConnected, e.Code)
}

func TestCallsGoThroughTheDaemon(t *testing.T) {
	home := ledger.Home(t.TempDir())
	daemon(t, home, handlerFunc(func(_ context.Context, c *bridge.Call) *protocol.ToolResult {
		return protocol.TextResult(c.Tool + " " + string(c.Args))
	}), protocol.Version)
	cs := connect(t, home)
	r := callTool(t, cs, "navigate", map[string]any{"url": "http://127.0.0.1/"})
	require.False(t, r.IsError)
	assert.Equal(t, `navigate {"url":"http://127.0.0.1/"}`, r.Content[0].(*mcp.TextContent).Text)
}

func TestTheFrontEndReconnectsToANewDaemon(t *testing.T) {
	home := ledger.Home(t.TempDir())
	answer := func(name string) bridge.Handler {
		return handlerFunc(func(context.Context, *bridge.Call) *protocol.ToolResult { return protocol.TextResult(name) })
	}
	ctx1, stop1 := context.WithCancel(context.Background())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	token := bridge.NewToken()
	srv := bridge.NewServer(bridge.Options{Token: token, Handler: answer("first")})
	done1 := make(chan struct{})
	go func() { defer close(done1); _ = srv.Serve(ctx1, ln) }()
	require.NoError(t, bridge.WriteDiscovery(home.BridgeFile(), bridge.Discovery{Port: ln.Addr().(*net.TCPAddr).Port, Token: token, PID: 1}))

	cs := connect(t, home, func(o *Options) { o.ReconnectGrace = 5 * time.Second })
	assert.Equal(t, "first", callTool(t, cs, "tabs_context", map[string]any{}).Content[0].(*mcp.TextContent).Text)

	stop1() // the daemon dies; its bridge.json stays behind
	<-done1
	time.AfterFunc(200*time.Millisecond, func() { // Chrome starts the next one
		daemon(t, home, answer("second"), protocol.Version)
	})
	r := callTool(t, cs, "tabs_context", map[string]any{})
	require.False(t, r.IsError, "%+v", r.Content)
	assert.Equal(t, "second", r.Content[0].(*mcp.TextContent).Text)
}

func TestVersionMismatchIsAClearError(t *testing.T) {
	home := ledger.Home(t.TempDir())
	daemon(t, home, handlerFunc(func(context.Context, *bridge.Call) *protocol.ToolResult { return protocol.TextResult("x") }), "0.0.9")
	cs := connect(t, home)
	e := errorOf(t, callTool(t, cs, "tabs_context", map[string]any{}))
	assert.Equal(t, protocol.CodeConflict, e.Code)
	assert.Contains(t, e.Message, "0.0.9")
}

func TestImagesAndErrorsConvert(t *testing.T) {
	home := ledger.Home(t.TempDir())
	daemon(t, home, handlerFunc(func(_ context.Context, c *bridge.Call) *protocol.ToolResult {
		if c.Tool == "page_screenshot" {
			return &protocol.ToolResult{Content: []protocol.Content{
				{Type: "image", Data: []byte{0x89, 'P', 'N', 'G'}, MimeType: "image/png"},
				{Type: "text", Text: "4 bytes"},
			}}
		}
		return protocol.ErrorResult(protocol.Errorf(protocol.CodeTabNotFound, "no tab 9").WithHint("call tabs_context"))
	}), protocol.Version)
	cs := connect(t, home)

	r := callTool(t, cs, "page_screenshot", map[string]any{})
	require.Len(t, r.Content, 2)
	img := r.Content[0].(*mcp.ImageContent)
	assert.Equal(t, "image/png", img.MIMEType)
	assert.Equal(t, []byte{0x89, 'P', 'N', 'G'}, img.Data)

	e := errorOf(t, callTool(t, cs, "tabs_close", map[string]any{"tabId": 9}))
	assert.Equal(t, protocol.CodeTabNotFound, e.Code)
	assert.Equal(t, "tab_not_found: no tab 9\nhint: call tabs_context", r2text(callTool(t, cs, "tabs_close", map[string]any{"tabId": 9})))
}

func r2text(r *mcp.CallToolResult) string { return r.Content[0].(*mcp.TextContent).Text }

func TestMCPCancellationReachesTheDaemon(t *testing.T) {
	home := ledger.Home(t.TempDir())
	arrived, cancelled := make(chan struct{}), make(chan struct{})
	daemon(t, home, handlerFunc(func(ctx context.Context, c *bridge.Call) *protocol.ToolResult {
		if c.Tool != "javascript_tool" {
			return protocol.TextResult("ok")
		}
		close(arrived)
		<-ctx.Done()
		close(cancelled)
		return protocol.ErrorResult(bridge.ContextError(ctx, c.Tool))
	}), protocol.Version)
	cs := connect(t, home)

	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "javascript_tool", Arguments: map[string]any{"code": "await new Promise(() => {})"}})
		errc <- err
	}()
	<-arrived // the call reached the daemon
	cancel()
	require.Error(t, <-errc)
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the daemon's call was not cancelled")
	}
	// The session still works.
	assert.Equal(t, "ok", r2text(callTool(t, cs, "oc_connection_health", map[string]any{})))
}

func TestProgressReachesTheMCPClient(t *testing.T) {
	home := ledger.Home(t.TempDir())
	daemon(t, home, handlerFunc(func(_ context.Context, c *bridge.Call) *protocol.ToolResult {
		c.Progress(1, 2, "half")
		c.Progress(2, 2, "all")
		return protocol.TextResult("done")
	}), protocol.Version)

	fe, err := New(Options{Home: home})
	require.NoError(t, err)
	st, ct := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = fe.run(ctx, st) }()
	var mu sync.Mutex
	var got []string
	cs := clientOn(t, ct, func() { cancel(); <-done }, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			got = append(got, req.Params.Message)
			mu.Unlock()
		},
	})
	params := &mcp.CallToolParams{Name: "navigate", Arguments: map[string]any{"url": "http://127.0.0.1/"}}
	params.SetProgressToken("p1")
	r, err := cs.CallTool(context.Background(), params)
	require.NoError(t, err)
	assert.Equal(t, "done", r2text(r))
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(got) == 2 }, 5*time.Second, 10*time.Millisecond)
	assert.Equal(t, []string{"half", "all"}, got)
}

func TestClaudeCodeGetsTheContentAlone(t *testing.T) {
	home := ledger.Home(t.TempDir())
	daemon(t, home, handlerFunc(func(context.Context, *bridge.Call) *protocol.ToolResult {
		r := protocol.TextResult(`page "T" http://x/ tab=1 snapshot=s1` + "\nbutton \"Go\" e1")
		r.StructuredContent = json.RawMessage(`{"tabId":1,"snapshot":"s1"}`)
		return r
	}), protocol.Version)
	for client, structured := range map[string]bool{"test-client": true, "claude-code": false} {
		t.Run(client, func(t *testing.T) {
			fe, err := New(Options{Home: home, ReconnectGrace: 50 * time.Millisecond})
			require.NoError(t, err)
			st, ct := mcp.NewInMemoryTransports()
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); _ = fe.run(ctx, st) }()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: client, Version: "1"}, nil).Connect(context.Background(), ct, nil)
			require.NoError(t, err)
			t.Cleanup(func() { cs.Close(); cancel(); <-done })

			r := callTool(t, cs, "read_page", map[string]any{})
			assert.Contains(t, r2text(r), `button "Go" e1`, "the content is always there")
			assert.Equal(t, structured, r.StructuredContent != nil)
		})
	}
}
