package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// daemons starts daemons in goroutines, as Spawn would start processes, and
// stops them when the test ends.
type daemons struct {
	t    *testing.T
	home ledger.Home
	opts ServeOptions

	starts atomic.Int32
	ended  chan error // each daemon's Serve result, ErrRunning included

	mu      sync.Mutex // guards running
	running []running
}

type running struct {
	stop context.CancelFunc
	done <-chan struct{}
}

func newDaemons(t *testing.T, home ledger.Home, opts ServeOptions) *daemons {
	opts.Home = home
	d := &daemons{t: t, home: home, opts: opts, ended: make(chan error, 100)}
	t.Cleanup(d.stopAll)
	return d
}

// start is a native host's Start.
func (d *daemons) start(context.Context) error {
	d.starts.Add(1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	d.mu.Lock()
	d.running = append(d.running, running{cancel, done})
	d.mu.Unlock()
	go func() {
		defer close(done)
		d.ended <- Serve(ctx, d.opts)
	}()
	return nil
}

// stopAll ends every daemon started so far, as a SIGTERM would, and waits
// for them.
func (d *daemons) stopAll() {
	d.mu.Lock()
	all := d.running
	d.running = nil
	d.mu.Unlock()
	for _, r := range all {
		r.stop()
		<-r.done
	}
}

// nextEnd waits for a daemon to end and returns what Serve returned,
// skipping the ones that found another running.
func (d *daemons) nextEnd(t *testing.T, within time.Duration) error {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case err := <-d.ended:
			if errors.Is(err, ErrRunning) {
				continue
			}
			return err
		case <-deadline:
			t.Fatalf("no daemon ended within %s", within)
			return nil
		}
	}
}

// fakeExtension plays Chrome and the extension on a native host's stdin and
// stdout: it says hello, then answers every command with one tab titled
// name; hold, if set, makes it wait before answering tab.navigate.
type fakeExtension struct {
	stdin *io.PipeWriter // the host's stdin; closing it is Chrome closing the port
	ended chan struct{}  // closed when Run has returned
	err   error          // Run's result, once ended
}

func startHost(t *testing.T, home ledger.Home, name string, start func(context.Context) error) *fakeExtension {
	t.Helper()
	return startHostWith(t, home, name, start, false)
}

// startHostWith is startHost with an extension that answers no command when
// silent: a command it gets stays in flight until the port closes.
func startHostWith(t *testing.T, home ledger.Home, name string, start func(context.Context) error, silent bool) *fakeExtension {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	fe := &fakeExtension{stdin: inW, ended: make(chan struct{})}
	go func() {
		fe.err = Run(context.Background(), Options{Home: home, Stdin: inR, Stdout: outW, Start: start})
		outW.Close()
		close(fe.ended)
	}()
	w := protocol.NewWriter(inW, protocol.MaxFromBrowser)
	var wmu sync.Mutex
	write := func(f protocol.Frame) {
		wmu.Lock()
		defer wmu.Unlock()
		_ = w.WriteFrame(f)
	}
	write(protocol.Hello{Role: protocol.RoleExtension, Version: protocol.Version, Browser: name})
	go func() {
		r := protocol.NewReader(outR, protocol.MaxToBrowser)
		for {
			b, err := r.Read()
			if err != nil {
				return
			}
			f, err := protocol.DecodeBrowserFrame(b)
			if err != nil {
				continue
			}
			if cmd, ok := f.(*protocol.Command); ok && !silent {
				data, _ := json.Marshal(map[string]any{"tabs": []map[string]any{{"tabId": 1, "url": "about:blank", "title": name}}})
				write(protocol.CommandResult{ID: cmd.ID, OK: true, Data: data})
			}
		}
	}()
	// Ended before the daemons are stopped (cleanups run last first): a
	// host still running would start the next daemon, in a home being
	// removed.
	t.Cleanup(func() {
		fe.stdin.Close()
		select {
		case <-fe.ended:
		case <-time.After(5 * time.Second):
			t.Error("the native host outlived its port by 5 s")
		}
	})
	return fe
}

// closePort is Chrome closing the port: the host must be gone within Chrome's
// 2 s.
func (fe *fakeExtension) closePort(t *testing.T) {
	t.Helper()
	require.NoError(t, fe.stdin.Close())
	select {
	case <-fe.ended:
		assert.NoError(t, fe.err)
	case <-time.After(2 * time.Second):
		t.Fatal("the native host outlived its port by 2 s: Chrome would SIGKILL it")
	}
}

// waitDaemon waits for bridge.json to name a daemon on a port other than
// not.
func waitDaemon(t *testing.T, home ledger.Home, not int) bridge.Discovery {
	t.Helper()
	var d bridge.Discovery
	require.Eventually(t, func() bool {
		var err error
		d, err = bridge.ReadDiscovery(home.BridgeFile())
		return err == nil && d.Port != not
	}, 5*time.Second, 5*time.Millisecond)
	return d
}

func dial(t *testing.T, d bridge.Discovery) *bridge.Client {
	t.Helper()
	cl, err := bridge.Dial(context.Background(), d, "test")
	require.NoError(t, err)
	t.Cleanup(func() { cl.Close() })
	return cl
}

// browsers returns the titles of the tabs each linked browser shows: one
// per browser, through oc_connection_health's count and tabs_context.
func browsers(t *testing.T, cl *bridge.Client) int {
	t.Helper()
	r, err := cl.Call(context.Background(), "oc_connection_health", nil, bridge.CallOptions{})
	require.NoError(t, err)
	if r.IsError {
		require.Equal(t, protocol.CodeBrowserNotConnected, protocol.ResultError(r).Code)
		return 0
	}
	var out struct {
		Browsers []any `json:"browsers"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.Content[0].Text), &out))
	return len(out.Browsers)
}

func tabTitle(t *testing.T, cl *bridge.Client) string {
	t.Helper()
	r, err := cl.Call(context.Background(), "tabs_context", nil, bridge.CallOptions{})
	require.NoError(t, err)
	require.False(t, r.IsError, r.Content[0].Text)
	var out struct {
		Tabs []struct {
			Title string `json:"title"`
		} `json:"tabs"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.Content[0].Text), &out))
	require.Len(t, out.Tabs, 1)
	return out.Tabs[0].Title
}

func TestTheNativeHostStartsTheDaemonWhichOutlivesIt(t *testing.T) {
	home := ledger.Home(t.TempDir())
	ds := newDaemons(t, home, ServeOptions{})
	fe := startHost(t, home, "Chromium/156", ds.start)
	d := waitDaemon(t, home, 0)
	assert.Equal(t, os.Getpid(), d.PID)
	assert.Equal(t, protocol.Version, d.Version)
	st, err := os.Stat(home.BridgeFile())
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())

	agent := dial(t, d)
	require.Eventually(t, func() bool { return browsers(t, agent) == 1 }, 5*time.Second, 5*time.Millisecond)
	assert.Equal(t, "Chromium/156", tabTitle(t, agent))

	// The service worker stops: Chrome closes the port and kills the host.
	// The daemon, and the agent's session with it, stay.
	fe.closePort(t)
	require.Eventually(t, func() bool { return browsers(t, agent) == 0 }, 5*time.Second, 5*time.Millisecond)
	r, err := agent.Call(context.Background(), "tabs_context", nil, bridge.CallOptions{})
	require.NoError(t, err, "the agent keeps its session")
	e := protocol.ResultError(r)
	require.NotNil(t, e)
	assert.Equal(t, protocol.CodeBrowserNotConnected, e.Code)
	assert.Contains(t, e.Hint, "retry")

	// The worker wakes and connects again: a new host joins the same daemon.
	// (The first host may have started two, one of which found the other
	// running and left, when the first was slow to come up.)
	starts := ds.starts.Load()
	startHost(t, home, "Chromium/156 again", ds.start)
	require.Eventually(t, func() bool { return browsers(t, agent) == 1 }, 5*time.Second, 5*time.Millisecond)
	assert.Equal(t, "Chromium/156 again", tabTitle(t, agent))
	again, err := bridge.ReadDiscovery(home.BridgeFile())
	require.NoError(t, err)
	assert.Equal(t, d.Port, again.Port, "the same daemon")
	assert.Equal(t, starts, ds.starts.Load(), "the second host found the daemon running")
}

func TestASecondProfileJoinsAsAnotherBrowser(t *testing.T) {
	home := ledger.Home(t.TempDir())
	ds := newDaemons(t, home, ServeOptions{})
	first := startHost(t, home, "first", ds.start)
	startHost(t, home, "second", ds.start)
	agent := dial(t, waitDaemon(t, home, 0))
	require.Eventually(t, func() bool { return browsers(t, agent) == 2 }, 5*time.Second, 5*time.Millisecond)

	first.closePort(t)
	require.Eventually(t, func() bool { return browsers(t, agent) == 1 }, 5*time.Second, 5*time.Millisecond)
	assert.Equal(t, "second", tabTitle(t, agent))
}

func TestTheNativeHostJoinsTheNextDaemonWhenItsDaemonGoes(t *testing.T) {
	home := ledger.Home(t.TempDir())
	ds := newDaemons(t, home, ServeOptions{})
	startHost(t, home, "Chromium/156", ds.start)
	d1 := waitDaemon(t, home, 0)
	require.Eventually(t, func() bool { return browsers(t, dial(t, d1)) == 1 }, 5*time.Second, 5*time.Millisecond)

	ds.stopAll() // the daemon goes (a kill, an upgrade)
	require.NoError(t, ds.nextEnd(t, 5*time.Second))
	d2 := waitDaemon(t, home, d1.Port)
	agent := dial(t, d2)
	require.Eventually(t, func() bool { return browsers(t, agent) == 1 }, 5*time.Second, 5*time.Millisecond)
	assert.Equal(t, "Chromium/156", tabTitle(t, agent), "the same port, relayed to the new daemon")
}

func TestOneDaemonPerHome(t *testing.T) {
	home := ledger.Home(t.TempDir())
	ds := newDaemons(t, home, ServeOptions{})
	require.NoError(t, ds.start(context.Background()))
	waitDaemon(t, home, 0)
	err := Serve(context.Background(), ServeOptions{Home: home})
	assert.ErrorIs(t, err, ErrRunning)
}

func TestTheDaemonExitsWhenIdle(t *testing.T) {
	home := ledger.Home(t.TempDir())
	ds := newDaemons(t, home, ServeOptions{IdleExit: 50 * time.Millisecond, Logger: failureLog(t)})
	fe := startHost(t, home, "Chromium/156", ds.start)
	d := waitDaemon(t, home, 0)
	cl, err := bridge.Dial(context.Background(), d, "test")
	require.NoError(t, err)
	require.Eventually(t, func() bool { return browsers(t, cl) == 1 }, 5*time.Second, 5*time.Millisecond)

	// A browser or an agent is enough to keep it.
	fe.closePort(t)
	require.Never(t, func() bool { return !ledger.ProcessAlive(d.PID) || !fileExists(home.BridgeFile()) },
		300*time.Millisecond, 10*time.Millisecond, "the agent is still connected")
	require.NoError(t, cl.Close())

	require.NoError(t, ds.nextEnd(t, 5*time.Second))
	assert.False(t, fileExists(home.BridgeFile()), "bridge.json is removed")
	lock, err := ledger.TryLock(home.BridgeLock())
	require.NoError(t, err, "the lock is released")
	lock.Unlock()
}

func TestTheDaemonStaysWhileATaskRuns(t *testing.T) {
	home := ledger.Home(t.TempDir())
	ds := newDaemons(t, home, ServeOptions{IdleExit: 50 * time.Millisecond, BrowserWait: time.Hour})
	fe := startHostWith(t, home, "Chromium/156", ds.start, true)
	cl, err := bridge.Dial(context.Background(), waitDaemon(t, home, 0), "test")
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		r, err := cl.Call(context.Background(), "oc_task_start", json.RawMessage(`{"kind":"crawl","args":{"url":"http://127.0.0.1/"}}`), bridge.CallOptions{})
		return err == nil && !r.IsError
	}, 5*time.Second, 5*time.Millisecond)
	var listed struct {
		Tasks []ledger.Meta `json:"tasks"`
	}
	r, err := cl.Call(context.Background(), "oc_task_list", nil, bridge.CallOptions{})
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal([]byte(r.Content[0].Text), &listed))
	require.Len(t, listed.Tasks, 1)
	id := listed.Tasks[0].ID
	require.NoError(t, cl.Close())

	// No browser, no agent: only the task, which waits for its browser.
	fe.closePort(t)
	store, err := ledger.Open(home.Tasks(), ledger.TaskLifecycle(), ledger.Options{})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		m, err := store.Get(id)
		return err == nil && m.Progress != nil && m.Progress.Message != "" && m.Status == ledger.StatusRunning
	}, 5*time.Second, 5*time.Millisecond, "the task waits for the browser")
	require.Never(t, func() bool { return !fileExists(home.BridgeFile()) },
		300*time.Millisecond, 10*time.Millisecond, "the daemon stays while its task runs")

	// Cancelled from another process, the task ends; then the daemon does.
	_, err = store.RequestCancel(context.Background(), id)
	require.NoError(t, err)
	require.NoError(t, ds.nextEnd(t, 10*time.Second))
	m, err := store.Get(id)
	require.NoError(t, err)
	assert.Equal(t, ledger.StatusCancelled, m.Status)
}

func TestIdleTimer(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	type look struct {
		at      time.Duration // after t0
		busy    bool
		expired bool
	}
	tests := []struct {
		name  string
		looks []look
	}{
		{"idle from the start", []look{{0, false, false}, {9 * time.Minute, false, false}, {10 * time.Minute, false, true}}},
		{"busy resets it", []look{{0, false, false}, {9 * time.Minute, true, false}, {18 * time.Minute, false, false}, {19 * time.Minute, false, true}}},
		{"never while busy", []look{{0, true, false}, {time.Hour, true, false}, {2 * time.Hour, true, false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			timer := &idleTimer{after: 10 * time.Minute}
			for _, l := range tt.looks {
				assert.Equal(t, l.expired, timer.expired(t0.Add(l.at), l.busy), "at %s", l.at)
			}
		})
	}
	assert.Equal(t, time.Second, (&idleTimer{after: DefaultIdleExit}).poll())
	assert.Equal(t, 25*time.Millisecond, (&idleTimer{after: 100 * time.Millisecond}).poll())
}

func TestANativeHostWithoutHelloGivesUp(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	go func() { _ = protocol.NewWriter(inW, 100).WriteFrame(protocol.Ping{}) }()
	err := Run(context.Background(), Options{Home: ledger.Home(t.TempDir()), Stdin: inR, Stdout: io.Discard,
		Start: func(context.Context) error { return nil }})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "hello")
}

// failureLog is a logger whose lines the test prints when it fails: what
// the daemon did, for a failure seen once under load.
func failureLog(t *testing.T) *slog.Logger {
	var mu sync.Mutex
	var b bytes.Buffer
	t.Cleanup(func() {
		if t.Failed() {
			mu.Lock()
			defer mu.Unlock()
			t.Logf("daemon log:\n%s", b.String())
		}
	})
	return slog.New(slog.NewTextHandler(lockedWriter{&mu, &b}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
