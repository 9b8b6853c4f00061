package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/daemon"
	"github.com/openchrome/openchrome/host/launch"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// chromiumFlags are ARCHITECTURE §8's: headless, and nothing that reaches
// out to the network.
var chromiumFlags = []string{
	"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
	"--no-default-browser-check", "--window-size=1280,800",
}

// env is one test's world: its own OPENCHROME_HOME, its own user home (so
// install finds no real browser), a Chromium with the extension loaded that
// has started the daemon, and helpers to reach them.
type env struct {
	t         testing.TB
	home      ledger.Home
	userHome  string
	udd       string // Chromium's --user-data-dir
	chrome    *exec.Cmd
	chromeLog string
	cdp       *cdpClient
	extra     []string // KEY=value for Chromium and the daemon
	flags     []string // Chromium's, beside chromiumFlags

	// Of an env tests share (sharedEnv): how it started.
	firstTab string // the target id of its one tab
	daemon   int    // the pid of its daemon
}

// newEnv installs openchrome into a fresh home, starts Chromium and waits for
// the extension to connect (bridge.json appears). extraEnv (KEY=value) is
// added to the environment of Chromium, and so of the daemon it starts. It
// marks the test parallel: call it first. A test that only drives pages in
// tabs it opens takes sharedEnv instead.
func newEnv(t testing.TB, extraEnv ...string) *env {
	t.Helper()
	return newEnvFlags(t, nil, extraEnv...)
}

// newEnvFlags is newEnv with flags added to Chromium's command line.
func newEnvFlags(t testing.TB, flags []string, extraEnv ...string) *env {
	t.Helper()
	skipIfShort(t)
	if pt, ok := t.(*testing.T); ok {
		// Each test has its own browser, daemon and home: most of a test
		// is waiting on them, so tests run side by side (-parallel, by
		// default GOMAXPROCS at a time).
		pt.Parallel()
	}
	e := envIn(t, t.TempDir(), flags, extraEnv)
	t.Cleanup(e.close)
	e.start()
	return e
}

// envIn is an env whose directories are under root, not yet started.
func envIn(t testing.TB, root string, flags, extraEnv []string) *env {
	return &env{
		t:        t,
		home:     ledger.Home(filepath.Join(root, "openchrome")),
		userHome: filepath.Join(root, "user"),
		udd:      filepath.Join(root, "chromium"),
		extra:    extraEnv,
		flags:    flags,
	}
}

// start installs openchrome, starts Chromium and waits for its daemon.
func (e *env) start() {
	e.t.Helper()
	require.NoError(e.t, os.MkdirAll(e.userHome, 0o700))
	out, err := e.openchrome("install", "--user-data-dir", e.udd)
	require.NoError(e.t, err, "openchrome install: %s", out)
	e.startChromium()
	e.waitDaemon(0)
}

// environ is the environment of every process of the test. A binary built
// with -race sleeps a second before it exits (GORACE atexit_sleep_ms), for
// goroutines to report a race the last moment found; a test stops three of
// them, so they are given 50 ms.
func (e *env) environ() []string {
	env := append(os.Environ(), "OPENCHROME_HOME="+string(e.home), "HOME="+e.userHome, "XDG_CONFIG_HOME="+filepath.Join(e.userHome, ".config"),
		strings.TrimSpace("GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=50"))
	return append(env, e.extra...)
}

// openchrome runs the binary with args and returns its combined output.
func (e *env) openchrome(args ...string) (string, error) {
	cmd := exec.Command(suite.binary, args...)
	cmd.Env = e.environ()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (e *env) startChromium() {
	t := e.t
	// A person who loaded the extension unpacked has developer mode on;
	// Chrome reloads (chrome.runtime.reload) an unpacked extension only then.
	require.NoError(t, launch.SeedPreferences(e.udd))
	e.chromeLog = filepath.Join(filepath.Dir(e.udd), "chromium.log")
	logf, err := os.Create(e.chromeLog)
	require.NoError(t, err)
	defer logf.Close() // the browser holds its own copy
	args := append([]string{
		"--user-data-dir=" + e.udd,
		"--load-extension=" + e.home.Extension(),
		"--remote-debugging-port=0",
	}, chromiumFlags...)
	args = append(args, e.flags...)
	e.chrome = exec.Command(suite.chromium, append(args, "about:blank")...)
	e.chrome.Env = e.environ()
	e.chrome.Stdout, e.chrome.Stderr = logf, logf
	e.chrome.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // so its helpers die with it
	require.NoError(t, e.chrome.Start())
}

// close stops the env at the end of its test: a race its processes
// reported fails the test, and a failed test gets the logs' tails.
func (e *env) close() {
	if e.chrome == nil {
		return // never started
	}
	if err := e.stop(); err != nil {
		e.t.Error(err)
	}
	if e.t.Failed() {
		e.logTails()
	}
}

// stop ends the browser and the daemon, and returns what went wrong on the
// way: a daemon that would not exit, a race a process reported.
func (e *env) stop() error {
	e.stopChromium()
	errs := []error{e.stopDaemon()}
	if log, _ := os.ReadFile(e.chromeLog); bytes.Contains(log, []byte("WARNING: DATA RACE")) {
		errs = append(errs, fmt.Errorf("the native host raced; its report is in the browser's log:\n%s", tail(log, 6000)))
	}
	if stderr, _ := os.ReadFile(daemon.StderrFile(e.home)); bytes.Contains(stderr, []byte("WARNING: DATA RACE")) {
		errs = append(errs, fmt.Errorf("the daemon raced; its report:\n%s", tail(stderr, 6000)))
	}
	return errors.Join(errs...)
}

// logTails logs the ends of the browser's and the daemon's logs.
func (e *env) logTails() {
	log, _ := os.ReadFile(e.chromeLog)
	e.t.Logf("browser log (tail):\n%s", tail(log, 3000))
	if daemonLog, err := os.ReadFile(e.home.LogFile()); err == nil {
		e.t.Logf("openchrome log (tail):\n%s", tail(daemonLog, 3000))
	}
}

// stopChromium ends the browser and everything it started: it closes the
// native port, so the daemon exits by itself.
func (e *env) stopChromium() {
	if e.cdp != nil {
		e.cdp.close()
	}
	pgid := -e.chrome.Process.Pid
	_ = syscall.Kill(pgid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = e.chrome.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(pgid, syscall.SIGKILL)
		<-done
	}
	// Its helpers outlive it a moment (a network service flushing to the
	// profile), and one that writes there once the test's TempDir cleanup
	// has begun fails the test. They end with the group.
	for _, kill := range []bool{false, true} {
		if kill {
			_ = syscall.Kill(pgid, syscall.SIGKILL)
		}
		deadline := time.Now().Add(5 * time.Second)
		for len(groupMembers(-pgid)) > 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// groupMembers returns the pids of process group pgid that have not
// exited: a zombie, which only waits for its parent, is not one.
func groupMembers(pgid int) []int {
	return pidsWhere(func(dir string) bool {
		stat, err := os.ReadFile(filepath.Join(dir, "stat"))
		// "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(stat, ')')
		if err != nil || i < 0 {
			return false
		}
		f := strings.Fields(string(stat[i+1:]))
		return len(f) >= 3 && f[0] != "Z" && f[2] == strconv.Itoa(pgid)
	})
}

// pidsWhere returns the pids of the processes whose /proc directory keep
// says true of. Linux only; elsewhere it finds none.
func pidsWhere(keep func(dir string) bool) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, d := range entries {
		if pid, err := strconv.Atoi(d.Name()); err == nil && keep(filepath.Join("/proc", d.Name())) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// stopDaemon ends the test's daemon as a person would (SIGTERM), and any
// other openchrome process of the test's home: the daemon outlives the
// browser by design, up to its idle timeout. One that does not exit on
// SIGTERM within 10 s is an error.
func (e *env) stopDaemon() error {
	pids := e.processes()
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGTERM)
	}
	var errs []error
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range pids {
		for ledger.ProcessAlive(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if ledger.ProcessAlive(pid) {
			errs = append(errs, fmt.Errorf("openchrome pid %d did not exit within 10 s of SIGTERM", pid))
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	return errors.Join(errs...)
}

// processes returns the pids of the openchrome processes of this test's
// home: the binary under test with its OPENCHROME_HOME in their environment.
func (e *env) processes() []int {
	want := []byte("\x00OPENCHROME_HOME=" + string(e.home) + "\x00")
	return pidsWhere(func(dir string) bool {
		exe, err := os.Readlink(filepath.Join(dir, "exe"))
		if err != nil || strings.TrimSuffix(exe, " (deleted)") != suite.binary {
			return false
		}
		environ, err := os.ReadFile(filepath.Join(dir, "environ"))
		return err == nil && bytes.Contains(append(append([]byte{0}, environ...), 0), want)
	})
}

// waitDaemon waits for a daemon whose pid is not notPID to publish its
// bridge.json, and returns it.
func (e *env) waitDaemon(notPID int) bridge.Discovery {
	e.t.Helper()
	var d bridge.Discovery
	deadline := time.Now().Add(30 * time.Second)
	for {
		var err error
		d, err = bridge.ReadDiscovery(e.home.BridgeFile())
		if err == nil && d.PID != notPID && ledger.ProcessAlive(d.PID) {
			return d
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(e.chromeLog)
			e.t.Fatalf("no daemon came up within 30 s (bridge.json: %v)\nbrowser log:\n%s", err, tail(log, 3000))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// client starts `openchrome mcp` under the go-sdk client, as an MCP client
// application would.
func (e *env) client(name string) *mcp.ClientSession {
	e.t.Helper()
	return e.clientWith(name, nil)
}

// clientWith is client with options, for a test that listens to progress.
func (e *env) clientWith(name string, opts *mcp.ClientOptions) *mcp.ClientSession {
	e.t.Helper()
	return e.connect(mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, opts), nil)
}

// connect runs openchrome mcp for c, in the user's home directory (an
// upload root: never the repository).
func (e *env) connect(c *mcp.Client, opts *mcp.ClientSessionOptions, args ...string) *mcp.ClientSession {
	e.t.Helper()
	cmd := exec.Command(suite.binary, append([]string{"mcp"}, args...)...)
	cmd.Env = e.environ()
	cmd.Dir = e.userHome
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, opts)
	require.NoError(e.t, err)
	e.t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and returns its result; a protocol error fails the test.
func call(t testing.TB, cs *mcp.ClientSession, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err, "%s", tool)
	return r
}

// ok calls a tool that must succeed and returns its text.
func ok(t testing.TB, cs *mcp.ClientSession, tool string, args any) string {
	t.Helper()
	r := call(t, cs, tool, args)
	require.False(t, r.IsError, "%s: %s", tool, textOf(r))
	return textOf(r)
}

// okJSON calls a tool that must succeed and decodes its JSON text into out.
func okJSON(t testing.TB, cs *mcp.ClientSession, tool string, args any, out any) {
	t.Helper()
	text := ok(t, cs, tool, args)
	require.NoError(t, json.Unmarshal([]byte(text), out), "%s answered %s", tool, text)
}

// fails calls a tool that must fail with code and returns its error.
func fails(t testing.TB, cs *mcp.ClientSession, tool string, args any, code protocol.Code) *protocol.Error {
	t.Helper()
	r := call(t, cs, tool, args)
	require.True(t, r.IsError, "%s should fail with %s, answered %s", tool, code, textOf(r))
	e := errorOf(t, r)
	require.Equal(t, code, e.Code, "%s: %s", tool, e.Message)
	return e
}

// errorOf is the coded error a failed result carries.
func errorOf(t testing.TB, r *mcp.CallToolResult) *protocol.Error {
	t.Helper()
	b, err := json.Marshal(r.StructuredContent)
	require.NoError(t, err)
	var s struct {
		Error *protocol.Error `json:"error"`
	}
	require.NoError(t, json.Unmarshal(b, &s), "%s", b)
	require.NotNil(t, s.Error, "%s", b)
	return s.Error
}

func textOf(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// devtools returns a CDP connection to the browser, for playing the human.
func (e *env) devtools() *cdpClient {
	e.t.Helper()
	c, err := e.dialDevtools()
	require.NoError(e.t, err)
	return c
}

// dialDevtools is devtools for a caller that handles the error itself.
func (e *env) dialDevtools() (*cdpClient, error) {
	if e.cdp == nil {
		c, err := dialCDP(e.udd)
		if err != nil {
			return nil, err
		}
		e.cdp = c
	}
	return e.cdp, nil
}

// hangInPage starts a javascript_tool call that marks the page and then
// waits a minute, and returns once the page shows the mark: the call has
// reached the page, with no sleep guessing how long that takes. The call's
// result comes on the returned channel.
func hangInPage(t testing.TB, ctx context.Context, cs *mcp.ClientSession, tab int) <-chan *mcp.CallToolResult {
	t.Helper()
	mark := fmt.Sprintf("hang%d", time.Now().UnixNano())
	out := make(chan *mcp.CallToolResult, 1)
	go func() {
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "javascript_tool", Arguments: map[string]any{
			"tabId": tab, "timeoutMs": 120000,
			"code": fmt.Sprintf("window[%q] = true; await new Promise(r => setTimeout(r, 60000))", mark),
		}})
		if err != nil {
			r = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
		}
		out <- r
	}()
	require.Eventually(t, func() bool {
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "javascript_tool",
			Arguments: map[string]any{"tabId": tab, "code": fmt.Sprintf("window[%q] === true", mark)}})
		return err == nil && !r.IsError && textOf(r) == "true"
	}, 10*time.Second, 20*time.Millisecond, "the hanging call never reached the page")
	return out
}
