package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

// handlerFunc adapts a function to Handler.
type handlerFunc func(ctx context.Context, c *Call) *protocol.ToolResult

func (f handlerFunc) Call(ctx context.Context, c *Call) *protocol.ToolResult { return f(ctx, c) }

// echo answers every call with who called what.
var echo = handlerFunc(func(_ context.Context, c *Call) *protocol.ToolResult {
	return protocol.TextResult(c.Agent + " " + c.Tool + " " + string(c.Args))
})

// startServer runs a broker on a loopback port until the test ends.
func startServer(t testing.TB, h Handler) (*Server, Discovery) {
	t.Helper()
	return startServerWith(t, Options{Handler: h})
}

// startServerWith starts a server with opts and a fresh token.
func startServerWith(t testing.TB, opts Options) (*Server, Discovery) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	token := NewToken()
	opts.Token = token
	srv := NewServer(opts)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err)
		case <-time.After(5 * time.Second):
			t.Error("Serve did not return after its context ended")
		}
	})
	return srv, Discovery{Port: ln.Addr().(*net.TCPAddr).Port, Token: token, PID: os.Getpid(), Version: protocol.Version}
}

func dialAgent(t testing.TB, d Discovery) *Client {
	t.Helper()
	cl, err := Dial(context.Background(), d, "test")
	require.NoError(t, err)
	t.Cleanup(func() { cl.Close() })
	return cl
}

func text(t testing.TB, r *protocol.ToolResult) string {
	t.Helper()
	require.NotNil(t, r)
	require.NotEmpty(t, r.Content)
	return r.Content[0].Text
}

func TestUpgradeAuthorization(t *testing.T) {
	_, d := startServer(t, echo)
	tests := []struct {
		name   string
		header http.Header
		url    string
		want   int
	}{
		{"no token", http.Header{}, d.URL(), http.StatusUnauthorized},
		{"wrong token", http.Header{"Authorization": {"Bearer " + NewToken()}}, d.URL(), http.StatusUnauthorized},
		{"token without the Bearer scheme", http.Header{"Authorization": {d.Token}}, d.URL(), http.StatusUnauthorized},
		{"a web page's Origin", http.Header{"Authorization": {"Bearer " + d.Token}, "Origin": {"https://evil.example"}}, d.URL(), http.StatusForbidden},
		{"a null Origin", http.Header{"Authorization": {"Bearer " + d.Token}, "Origin": {"null"}}, d.URL(), http.StatusForbidden},
		{"a rebound Host", http.Header{"Authorization": {"Bearer " + d.Token}, "Host": {"evil.example"}}, d.URL(), http.StatusForbidden},
		{"the right token", http.Header{"Authorization": {"Bearer " + d.Token}}, d.URL(), http.StatusSwitchingProtocols},
		{"localhost is loopback", http.Header{"Authorization": {"Bearer " + d.Token}}, fmt.Sprintf("ws://localhost:%d/", d.Port), http.StatusSwitchingProtocols},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, resp, err := websocket.DefaultDialer.Dial(tt.url, tt.header)
			require.NotNil(t, resp)
			assert.Equal(t, tt.want, resp.StatusCode)
			if err == nil {
				ws.Close()
			}
		})
	}
}

func TestDialMapsRefusals(t *testing.T) {
	_, d := startServer(t, echo)

	bad := d
	bad.Token = NewToken()
	_, err := Dial(context.Background(), bad, "test")
	assert.ErrorIs(t, err, protocol.ErrUnauthorized)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := Discovery{Port: ln.Addr().(*net.TCPAddr).Port, Token: d.Token}
	ln.Close()
	_, err = Dial(context.Background(), closed, "test")
	assert.ErrorIs(t, err, protocol.ErrBrowserNotConnected)
	assert.Contains(t, protocol.AsError(err).Hint, "openchrome doctor")
}

func TestVersionMismatchIsReportedClearly(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	token := NewToken()
	srv := NewServer(Options{Token: token, Handler: echo, Version: "9.9.9"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go srv.Serve(ctx, ln)

	_, err = Dial(context.Background(), Discovery{Port: ln.Addr().(*net.TCPAddr).Port, Token: token}, "test")
	require.ErrorIs(t, err, protocol.ErrConflict)
	e := protocol.AsError(err)
	assert.Contains(t, e.Message, protocol.Version)
	assert.Contains(t, e.Message, "9.9.9")
	assert.Contains(t, e.Hint, "openchrome doctor")
}

func TestManyAgentsEachGetTheirOwnResults(t *testing.T) {
	slow := handlerFunc(func(ctx context.Context, c *Call) *protocol.ToolResult {
		runtime.Gosched() // let calls interleave
		return echo(ctx, c)
	})
	_, d := startServer(t, slow)
	const agents, calls = 5, 20
	var wg sync.WaitGroup
	for range agents {
		cl := dialAgent(t, d)
		agent := cl.Ready().Agent
		require.NotEmpty(t, agent)
		for j := range calls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				args := json.RawMessage(fmt.Sprintf(`{"n":%d}`, j))
				r, err := cl.Call(context.Background(), "tool", args, CallOptions{})
				if assert.NoError(t, err) {
					assert.Equal(t, fmt.Sprintf(`%s tool {"n":%d}`, agent, j), text(t, r))
				}
			}()
		}
	}
	wg.Wait()
}

func TestReadyListsBrowsers(t *testing.T) {
	srv, d := startServer(t, echo)
	newFakeExtension(t, srv)
	cl := dialAgent(t, d)
	require.Len(t, cl.Ready().Browsers, 1)
	assert.Equal(t, protocol.BrowserInfo{ID: "b1", Browser: "Fake/1", ExtensionVersion: protocol.Version}, cl.Ready().Browsers[0])
}

func TestProgressReachesOnlyAgentsThatAsked(t *testing.T) {
	h := handlerFunc(func(_ context.Context, c *Call) *protocol.ToolResult {
		for i := 1; i <= 3; i++ {
			c.Progress(float64(i), 3, fmt.Sprintf("step %d", i))
		}
		return protocol.TextResult("done")
	})
	_, d := startServer(t, h)
	cl := dialAgent(t, d)

	var mu sync.Mutex
	var got []protocol.Progress
	r, err := cl.Call(context.Background(), "crawl", nil, CallOptions{Progress: func(p protocol.Progress) {
		mu.Lock()
		got = append(got, p)
		mu.Unlock()
	}})
	require.NoError(t, err)
	assert.Equal(t, "done", text(t, r))
	mu.Lock()
	require.Len(t, got, 3)
	assert.Equal(t, "step 3", got[2].Message)
	assert.EqualValues(t, 3, got[2].Total)
	mu.Unlock()

	r, err = cl.Call(context.Background(), "crawl", nil, CallOptions{})
	require.NoError(t, err)
	assert.Equal(t, "done", text(t, r))
}

// fakeExtension is an in-process browser link: it records what the broker
// sends and answers when told to.
type fakeExtension struct {
	link   *Link
	frames chan protocol.Frame
}

func newFakeExtension(t testing.TB, srv *Server) *fakeExtension {
	t.Helper()
	fe := &fakeExtension{frames: make(chan protocol.Frame, 64)}
	hello := &protocol.Hello{Role: protocol.RoleExtension, Version: protocol.Version, Browser: "Fake/1"}
	fe.link = srv.Registry().Add(hello, func(f protocol.Frame) error { fe.frames <- f; return nil })
	return fe
}

func (fe *fakeExtension) next(t testing.TB) protocol.Frame {
	t.Helper()
	select {
	case f := <-fe.frames:
		return f
	case <-time.After(5 * time.Second):
		t.Fatal("the extension got no frame")
		return nil
	}
}

func (fe *fakeExtension) reply(id, data string) {
	fe.link.Deliver(&protocol.CommandResult{ID: id, OK: true, Data: json.RawMessage(data)})
}

// toBrowser forwards each call to the default browser as a command whose
// action is the tool name and whose params are the args.
func toBrowser(srv **Server) Handler {
	return handlerFunc(func(ctx context.Context, c *Call) *protocol.ToolResult {
		l, err := (*srv).Registry().Browser("")
		if err != nil {
			return protocol.ErrorResult(err)
		}
		var opts struct {
			TimeoutMs int64 `json:"timeoutMs"`
		}
		_ = json.Unmarshal(c.Args, &opts)
		data, err := l.Do(ctx, protocol.Command{Action: c.Tool, Params: c.Args, TimeoutMs: opts.TimeoutMs})
		if err != nil {
			return protocol.ErrorResult(err)
		}
		return protocol.TextResult(string(data))
	})
}

func TestCommandsRoundTripThroughTheBrowser(t *testing.T) {
	var srv *Server
	srv, d := startServer(t, toBrowser(&srv))
	fe := newFakeExtension(t, srv)
	cl := dialAgent(t, d)

	done := make(chan *protocol.ToolResult, 1)
	go func() {
		r, err := cl.Call(context.Background(), "tab.navigate", json.RawMessage(`{"url":"http://127.0.0.1/"}`), CallOptions{})
		assert.NoError(t, err)
		done <- r
	}()
	cmd := fe.next(t).(protocol.Command)
	assert.Equal(t, "tab.navigate", cmd.Action)
	assert.Equal(t, protocol.DefaultCommandTimeout.Milliseconds(), cmd.TimeoutMs, "commands always carry their timeout")
	assert.JSONEq(t, `{"url":"http://127.0.0.1/"}`, string(cmd.Params))
	fe.reply(cmd.ID, `{"status":200}`)
	assert.Equal(t, `{"status":200}`, text(t, <-done))
}

func TestCommandErrorsKeepTheirCode(t *testing.T) {
	var srv *Server
	srv, d := startServer(t, toBrowser(&srv))
	fe := newFakeExtension(t, srv)
	cl := dialAgent(t, d)

	go func() {
		cmd := fe.next(t).(protocol.Command)
		fe.link.Deliver(&protocol.CommandResult{ID: cmd.ID, Error: protocol.Errorf(protocol.CodeTabNotAllowed, "tab 9 is not in the OpenChrome group").WithHint("call tabs_create")})
	}()
	r, err := cl.Call(context.Background(), "tab.close", nil, CallOptions{})
	require.NoError(t, err)
	e := protocol.ResultError(r)
	require.NotNil(t, e)
	assert.Equal(t, protocol.CodeTabNotAllowed, e.Code)
	assert.Equal(t, "call tabs_create", e.Hint)
}

func TestCommandTimeoutCancelsInTheExtension(t *testing.T) {
	var srv *Server
	srv, d := startServer(t, toBrowser(&srv))
	fe := newFakeExtension(t, srv)
	cl := dialAgent(t, d)

	r, err := cl.Call(context.Background(), "page.evaluate", json.RawMessage(`{"timeoutMs":50}`), CallOptions{})
	require.NoError(t, err)
	late := protocol.ResultError(r)
	assert.Equal(t, protocol.CodeTimeout, late.Code)
	assert.Contains(t, late.Message, "it may have been done in part", "the extension had it")
	assert.Contains(t, late.Hint, "look before trying again")

	cmd := fe.next(t).(protocol.Command)
	assert.EqualValues(t, 50, cmd.TimeoutMs)
	assert.Equal(t, protocol.Cancel{ID: cmd.ID}, fe.next(t))

	fe.reply(cmd.ID, `{}`) // a late answer is dropped, not misdelivered
}

func TestCommandTimeoutIsClamped(t *testing.T) {
	var srv *Server
	srv, d := startServer(t, toBrowser(&srv))
	fe := newFakeExtension(t, srv)
	cl := dialAgent(t, d)

	go cl.Call(context.Background(), "page.evaluate", json.RawMessage(`{"timeoutMs":86400000}`), CallOptions{})
	cmd := fe.next(t).(protocol.Command)
	assert.Equal(t, protocol.MaxCommandTimeout.Milliseconds(), cmd.TimeoutMs)
	fe.reply(cmd.ID, `{}`)
}

func TestAgentCancelReachesTheExtension(t *testing.T) {
	var srv *Server
	srv, d := startServer(t, toBrowser(&srv))
	fe := newFakeExtension(t, srv)
	cl := dialAgent(t, d)

	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := cl.Call(ctx, "page.evaluate", nil, CallOptions{})
		errc <- err
	}()
	cmd := fe.next(t).(protocol.Command)
	start := time.Now()
	cancel()
	assert.ErrorIs(t, <-errc, protocol.ErrCancelled)
	assert.Less(t, time.Since(start), time.Second, "a cancelled call returns at once")
	assert.Equal(t, protocol.Cancel{ID: cmd.ID}, fe.next(t))

	// The agent's connection still works.
	go func() {
		cmd := fe.next(t).(protocol.Command)
		fe.reply(cmd.ID, `"next"`)
	}()
	r, err := cl.Call(context.Background(), "page.evaluate", nil, CallOptions{})
	require.NoError(t, err)
	assert.Equal(t, `"next"`, text(t, r))
}

func TestAgentDisconnectCancelsItsCommands(t *testing.T) {
	var srv *Server
	srv, d := startServer(t, toBrowser(&srv))
	fe := newFakeExtension(t, srv)
	cl := dialAgent(t, d)

	go cl.Call(context.Background(), "page.evaluate", nil, CallOptions{})
	cmd := fe.next(t).(protocol.Command)
	require.NoError(t, cl.Close())
	assert.Equal(t, protocol.Cancel{ID: cmd.ID}, fe.next(t))
	require.Eventually(t, func() bool { return srv.Agents() == 0 }, 5*time.Second, 10*time.Millisecond)
}

func TestBrowserDisconnectFailsCommandsInFlight(t *testing.T) {
	var srv *Server
	srv, d := startServer(t, toBrowser(&srv))
	fe := newFakeExtension(t, srv)
	cl := dialAgent(t, d)

	go func() {
		fe.next(t)
		srv.Registry().Remove(fe.link)
	}()
	r, err := cl.Call(context.Background(), "page.evaluate", nil, CallOptions{})
	require.NoError(t, err)
	gone := protocol.ResultError(r)
	assert.Equal(t, protocol.CodeBrowserNotConnected, gone.Code)
	assert.Contains(t, gone.Message, "it may have been done", "the extension had it")
	assert.Contains(t, gone.Hint, "look before doing it again", "never a blind retry")

	r, err = cl.Call(context.Background(), "page.evaluate", nil, CallOptions{})
	require.NoError(t, err)
	e := protocol.ResultError(r)
	assert.Equal(t, protocol.CodeBrowserNotConnected, e.Code)
	assert.Contains(t, e.Hint, "openchrome doctor")
}

func TestBrokerGoingAwayFailsCallsInFlight(t *testing.T) {
	arrived := make(chan struct{})
	block := handlerFunc(func(ctx context.Context, c *Call) *protocol.ToolResult {
		close(arrived)
		<-ctx.Done()
		return protocol.ErrorResult(ContextError(ctx, c.Tool))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	token := NewToken()
	srv := NewServer(Options{Token: token, Handler: block})
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { srv.Serve(ctx, ln); close(served) }()
	cl, err := Dial(context.Background(), Discovery{Port: ln.Addr().(*net.TCPAddr).Port, Token: token}, "test")
	require.NoError(t, err)

	errc := make(chan error, 1)
	go func() {
		_, err := cl.Call(context.Background(), "wait", nil, CallOptions{})
		errc <- err
	}()
	<-arrived // the call is in flight in the broker
	stop()
	<-served
	lost := <-errc
	assert.ErrorIs(t, lost, protocol.ErrBrowserNotConnected)
	assert.Contains(t, lost.Error(), "while it ran wait: it may have been done", "the broker had it")
	assert.Contains(t, protocol.AsError(lost).Hint, "look before doing it again")
	<-cl.Done()
}

func TestCallTimeoutBoundsTheWholeCall(t *testing.T) {
	block := handlerFunc(func(ctx context.Context, c *Call) *protocol.ToolResult {
		<-ctx.Done()
		return protocol.ErrorResult(ContextError(ctx, c.Tool))
	})
	_, d := startServer(t, block)
	cl := dialAgent(t, d)
	r, err := cl.Call(context.Background(), "wait", nil, CallOptions{TimeoutMs: 30})
	require.NoError(t, err)
	assert.Equal(t, protocol.CodeTimeout, protocol.ResultError(r).Code)
}

func TestDuplicateCallIDsAreRefused(t *testing.T) {
	release := make(chan struct{})
	h := handlerFunc(func(ctx context.Context, c *Call) *protocol.ToolResult {
		<-release
		return protocol.TextResult("first")
	})
	_, d := startServer(t, h)
	header := http.Header{"Authorization": {"Bearer " + d.Token}}
	ws, _, err := websocket.DefaultDialer.Dial(d.URL(), header)
	require.NoError(t, err)
	defer ws.Close()
	c := newConn(ws)
	require.NoError(t, c.write(protocol.Hello{Role: protocol.RoleAgent, Version: protocol.Version}))
	_, err = c.read() // ready
	require.NoError(t, err)

	require.NoError(t, c.write(protocol.Call{ID: "x", Tool: "t"}))
	require.NoError(t, c.write(protocol.Call{ID: "x", Tool: "t"}))
	b, err := c.read()
	require.NoError(t, err)
	f, err := protocol.DecodeAgentFrame(b)
	require.NoError(t, err)
	assert.Equal(t, protocol.CodeBadRequest, protocol.ResultError(f.(*protocol.CallResult).Result).Code)
	close(release)
	b, err = c.read()
	require.NoError(t, err)
	f, err = protocol.DecodeAgentFrame(b)
	require.NoError(t, err)
	assert.Equal(t, "first", f.(*protocol.CallResult).Result.Content[0].Text)
}

func TestAMalformedFrameIsAnsweredAndTheSessionGoesOn(t *testing.T) {
	_, d := startServer(t, echo)
	ws, _, err := websocket.DefaultDialer.Dial(d.URL(), http.Header{"Authorization": {"Bearer " + d.Token}})
	require.NoError(t, err)
	defer ws.Close()
	c := newConn(ws)
	require.NoError(t, c.write(protocol.Hello{Role: protocol.RoleAgent, Version: protocol.Version}))
	_, err = c.read() // ready
	require.NoError(t, err)
	next := func() protocol.Frame {
		t.Helper()
		b, err := c.read()
		require.NoError(t, err)
		f, err := protocol.DecodeAgentFrame(b)
		require.NoError(t, err)
		return f
	}

	// A call whose fields are wrong: its caller gets the call's result.
	require.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"call","id":"c7","tool":5}`)))
	r, ok := next().(*protocol.CallResult)
	require.True(t, ok)
	assert.Equal(t, "c7", r.ID)
	assert.Equal(t, protocol.CodeBadRequest, protocol.ResultError(r.Result).Code)
	// Anything else: an error frame.
	for _, raw := range []string{`not json`, `{"type":"teleport"}`, `{"type":"cancel"}`} {
		require.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte(raw)))
		fail, ok := next().(*protocol.Fail)
		require.True(t, ok, raw)
		assert.Equal(t, protocol.CodeBadRequest, fail.Error.Code, raw)
	}
	// And the session still works.
	require.NoError(t, c.write(protocol.Call{ID: "c8", Tool: "echo"}))
	r, ok = next().(*protocol.CallResult)
	require.True(t, ok)
	assert.Equal(t, "c8", r.ID)
	assert.False(t, r.Result.IsError)
}

func TestFirstFrameMustBeHello(t *testing.T) {
	_, d := startServer(t, echo)
	ws, _, err := websocket.DefaultDialer.Dial(d.URL(), http.Header{"Authorization": {"Bearer " + d.Token}})
	require.NoError(t, err)
	defer ws.Close()
	c := newConn(ws)
	require.NoError(t, c.write(protocol.Call{ID: "c1", Tool: "t"}))
	b, err := c.read()
	require.NoError(t, err)
	f, err := protocol.DecodeAgentFrame(b)
	require.NoError(t, err)
	assert.Equal(t, protocol.CodeBadRequest, f.(*protocol.Fail).Error.Code)
}

func TestRelayJoinsAsASecondBrowser(t *testing.T) {
	var srv *Server
	// The broker answers a browser's hello before adding it (so the answer
	// is its first frame): the relay is connected once OnConnect says so.
	connected := make(chan *Link, 2)
	reg := NewRegistry(RegistryOptions{OnConnect: func(l *Link) { connected <- l }})
	srv, d := startServerWith(t, Options{Browsers: reg, Handler: handlerFunc(func(ctx context.Context, c *Call) *protocol.ToolResult {
		l, err := srv.Registry().Browser(c.Tool)
		if err != nil {
			return protocol.ErrorResult(err)
		}
		data, err := l.Do(ctx, protocol.Command{Action: "browser.health"})
		if err != nil {
			return protocol.ErrorResult(err)
		}
		return protocol.TextResult(string(data))
	})})
	newFakeExtension(t, srv) // b1, the daemon's own browser
	<-connected

	relay, err := DialRelay(context.Background(), d, protocol.Hello{Role: protocol.RoleExtension, Version: protocol.Version, Profile: "Work"})
	require.NoError(t, err)
	defer relay.Close()
	select {
	case l := <-connected:
		assert.Equal(t, "b2", l.Info().ID)
	case <-time.After(5 * time.Second):
		t.Fatal("the relay was not added to the registry")
	}
	require.Len(t, srv.Registry().List(), 2)
	assert.Equal(t, "Work", srv.Registry().List()[1].Profile)

	go func() {
		f, err := relay.Recv()
		if !assert.NoError(t, err) {
			return
		}
		cmd := f.(*protocol.Command)
		assert.NoError(t, relay.Send(protocol.CommandResult{ID: cmd.ID, OK: true, Data: json.RawMessage(`{"profile":"Work"}`)}))
	}()
	cl := dialAgent(t, d)
	r, err := cl.Call(context.Background(), "b2", nil, CallOptions{})
	require.NoError(t, err)
	assert.Equal(t, `{"profile":"Work"}`, text(t, r))

	r, err = cl.Call(context.Background(), "b9", nil, CallOptions{})
	require.NoError(t, err)
	assert.Equal(t, protocol.CodeNotFound, protocol.ResultError(r).Code)

	require.NoError(t, relay.Close())
	require.Eventually(t, func() bool { return len(srv.Registry().List()) == 1 }, 5*time.Second, 10*time.Millisecond)
}

func TestDiscoveryFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bridge.json")
	_, err := ReadDiscovery(path)
	assert.ErrorIs(t, err, protocol.ErrBrowserNotConnected, "no file: no daemon")

	d := Discovery{Port: 4242, Token: NewToken(), PID: 99, Version: protocol.Version, StartedAt: time.Unix(1700000000, 0).UTC()}
	require.NoError(t, WriteDiscovery(path, d))
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	got, err := ReadDiscovery(path)
	require.NoError(t, err)
	assert.Equal(t, d, got)

	require.NoError(t, RemoveDiscovery(path, 100), "another daemon's file stays")
	_, err = os.Stat(path)
	require.NoError(t, err)
	require.NoError(t, RemoveDiscovery(path, 99))
	_, err = os.Stat(path)
	assert.True(t, os.IsNotExist(err))

	require.NoError(t, os.WriteFile(path, []byte(`{"port":0}`), 0o600))
	_, err = ReadDiscovery(path)
	assert.ErrorIs(t, err, protocol.ErrBrowserNotConnected)
}

func TestNewServerPanicsWithoutItsDependencies(t *testing.T) {
	assert.Panics(t, func() { NewServer(Options{Handler: echo}) })
	assert.Panics(t, func() { NewServer(Options{Token: "t"}) })
}

// BenchmarkBrokerRoundTrip measures one call from an agent through the broker
// to the handler and back, with no browser.
func BenchmarkBrokerRoundTrip(b *testing.B) {
	_, d := startServer(b, echo)
	cl := dialAgent(b, d)
	ctx := context.Background()
	args := json.RawMessage(`{}`)
	b.ResetTimer()
	for b.Loop() {
		if _, err := cl.Call(ctx, "tabs_context", args, CallOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
