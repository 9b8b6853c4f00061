package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/manifests"
	"github.com/openchrome/openchrome/protocol"
)

// wakeBound is how long the extension may take to be back after its
// service worker was stopped with nobody doing anything: one wake alarm
// period of an unpacked extension (5 s), the native host and the join, on a
// loaded machine (docs/design.md, Processes).
const wakeBound = 20 * time.Second

// stopWorker stops the extension's service worker as chrome://
// serviceworker-internals or DevTools would (ServiceWorker.stopAllWorkers,
// through a page's session) and returns when it did.
func (e *env) stopWorker() time.Time {
	e.t.Helper()
	cdp := e.devtools()
	var targets struct {
		TargetInfos []struct {
			TargetID string `json:"targetId"`
			Type     string `json:"type"`
		} `json:"targetInfos"`
	}
	require.NoError(e.t, cdp.send("", "Target.getTargets", map[string]any{}, &targets))
	page := ""
	for _, t := range targets.TargetInfos {
		if t.Type == "page" {
			page = t.TargetID
			break
		}
	}
	require.NotEmpty(e.t, page, "a page to reach the ServiceWorker domain through")
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	require.NoError(e.t, cdp.send("", "Target.attachToTarget", map[string]any{"targetId": page, "flatten": true}, &attached))
	defer cdp.send("", "Target.detachFromTarget", map[string]any{"sessionId": attached.SessionID}, nil)
	require.NoError(e.t, cdp.send(attached.SessionID, "ServiceWorker.enable", map[string]any{}, nil))
	stopped := time.Now()
	require.NoError(e.t, cdp.send(attached.SessionID, "ServiceWorker.stopAllWorkers", map[string]any{}, nil))
	return stopped
}

// reloadExtension reloads the extension from its own worker, as an update
// does: chrome.runtime.reload, over CDP.
func (e *env) reloadExtension() time.Time {
	e.t.Helper()
	at := time.Now()
	// Later, so that the evaluation answers before the worker goes.
	require.NoError(e.t, e.devtools().evalExtension(`setTimeout(() => chrome.runtime.reload(), 50), true`, nil))
	return at
}

// waitBack waits for the daemon to lose the browser, then polls a
// read-only tool until it works again, and returns how long after since it
// did. It fails the test past wakeBound.
func waitBack(t *testing.T, cs *mcp.ClientSession, since time.Time) time.Duration {
	t.Helper()
	require.Eventually(t, func() bool {
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "oc_connection_health", Arguments: map[string]any{}})
		return err == nil && r.IsError
	}, 10*time.Second, 5*time.Millisecond, "the daemon never lost the browser")
	return waitWorking(t, cs, since)
}

// waitWorking polls a read-only tool until it works again, for a test that
// saw the daemon lose the browser already (a call in flight ended with
// browser_not_connected): the worker may be back before a poll could see
// it gone. It returns how long after since it works.
func waitWorking(t *testing.T, cs *mcp.ClientSession, since time.Time) time.Duration {
	t.Helper()
	var back time.Duration
	require.Eventually(t, func() bool {
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "tabs_context", Arguments: map[string]any{}})
		if err == nil && !r.IsError {
			back = time.Since(since)
			return true
		}
		return false
	}, wakeBound, 20*time.Millisecond, "the extension did not come back by itself")
	return back
}

// daemonPID is the pid bridge.json names.
func (e *env) daemonPID() int {
	e.t.Helper()
	d, err := bridge.ReadDiscovery(e.home.BridgeFile())
	require.NoError(e.t, err)
	return d.PID
}

// taskEvents returns the kinds of a task's events, read from disk.
func (e *env) taskEvents(id string) []string {
	e.t.Helper()
	store, err := ledger.Open(e.home.Tasks(), ledger.TaskLifecycle(), ledger.Options{})
	require.NoError(e.t, err)
	events, err := store.Events(id)
	require.NoError(e.t, err)
	var kinds []string
	for _, ev := range events {
		kinds = append(kinds, ev.Kind)
	}
	return kinds
}

// crawledPages waits until task id has kept at least n pages.
func crawledPages(t *testing.T, cs *mcp.ClientSession, id string, n int) {
	t.Helper()
	require.Eventually(t, func() bool {
		var r crawled
		m := getTask(t, cs, id, true)
		return m.Result != nil && json.Unmarshal(m.Result, &r) == nil && len(r.Pages) >= n
	}, 30*time.Second, 50*time.Millisecond)
}

// TestToolsWorkAgainAfterTheWorkerStops stops the worker while the agent
// does nothing: the extension wakes itself and the next calls work, in the
// same MCP session, against the same daemon, in the same tab.
func TestToolsWorkAgainAfterTheWorkerStops(t *testing.T) {
	e := newEnv(t)
	site := fixtures(t)
	cs := e.client("e2e")
	var p page
	okJSON(t, cs, "navigate", map[string]any{"url": site.URL + "/index.html"}, &p)
	pid := e.daemonPID()

	back := waitBack(t, cs, e.stopWorker())
	t.Logf("worker stopped -> first successful call: %s", back.Round(10*time.Millisecond))

	assert.Equal(t, pid, e.daemonPID(), "the same daemon")
	var tc tabsContext
	okJSON(t, cs, "tabs_context", map[string]any{}, &tc)
	require.Len(t, tc.Tabs, 1)
	assert.Equal(t, p.TabID, tc.Tabs[0].TabID, "the agent's tab outlives the worker")
	assert.Equal(t, `"Fixture Home"`, ok(t, cs, "javascript_tool", map[string]any{"code": "document.title"}))
}

// TestACrawlWaitsForTheWorkerAndCompletes stops the worker in the middle of
// a background crawl of a slow site: the task says it waits, then visits
// every page once, under the same task id.
func TestACrawlWaitsForTheWorkerAndCompletes(t *testing.T) {
	for _, how := range []string{"stopped", "reloaded"} {
		t.Run(how, func(t *testing.T) {
			e := newEnv(t)
			site := crawlSite(t, 300*time.Millisecond)
			cs := e.client("e2e")
			id := startTask(t, cs, "crawl", map[string]any{"url": site.URL + "/p/0", "maxPages": 6, "maxDepth": 10, "concurrency": 1})
			crawledPages(t, cs, id, 2)

			var since time.Time
			if how == "stopped" {
				since = e.stopWorker()
			} else {
				since = e.reloadExtension()
			}
			var m task
			okJSON(t, cs, "oc_task_wait", map[string]any{"task_id": id, "timeout_ms": 60000}, &m)
			t.Logf("worker %s -> task %s in %s", how, m.Status, time.Since(since).Round(10*time.Millisecond))
			require.Equal(t, "COMPLETED", m.Status, "%+v", m.Error)
			assert.Contains(t, e.taskEvents(id), "waiting_for_browser")
			assert.Contains(t, e.taskEvents(id), "browser_reconnected")

			var r crawled
			require.NoError(t, json.Unmarshal(getTask(t, cs, id, true).Result, &r))
			var urls []string
			for _, p := range r.Pages {
				urls = append(urls, p.URL)
				assert.Equal(t, strings.TrimPrefix(p.URL, site.URL+"/p/"), strings.TrimPrefix(p.Title, "Page "), "%s was read whole", p.URL)
			}
			want := []string{}
			for i := range 6 {
				want = append(want, fmt.Sprintf("%s/p/%d", site.URL, i))
			}
			assert.Equal(t, want, urls, "every page once, in order")

			// The crawl's tabs, the one it lost included, are gone.
			var tc tabsContext
			okJSON(t, cs, "tabs_context", map[string]any{}, &tc)
			assert.Empty(t, tc.Tabs)
		})
	}
}

// TestATaskFailsWhenTheBrowserStaysAway keeps the extension from
// reconnecting (its host manifest is gone) past a short bound: the task
// fails with browser_not_connected and keeps its pages; once the host is
// back, so are the tools.
func TestATaskFailsWhenTheBrowserStaysAway(t *testing.T) {
	e := newEnv(t, "OPENCHROME_BROWSER_WAIT=2s")
	site := crawlSite(t, 300*time.Millisecond)
	cs := e.client("e2e")
	id := startTask(t, cs, "crawl", map[string]any{"url": site.URL + "/p/0", "maxPages": 20, "maxDepth": 10, "concurrency": 1})
	crawledPages(t, cs, id, 1)

	manifest := filepath.Join(e.udd, "NativeMessagingHosts", manifests.HostName+".json")
	aside := manifest + ".aside"
	require.NoError(t, os.Rename(manifest, aside))
	restored := false
	restore := func() {
		if !restored {
			restored = true
			require.NoError(t, os.Rename(aside, manifest))
		}
	}
	defer restore()
	since := e.stopWorker()

	var m task
	okJSON(t, cs, "oc_task_wait", map[string]any{"task_id": id, "timeout_ms": 60000}, &m)
	require.Equal(t, "FAILED", m.Status)
	require.NotNil(t, m.Error)
	assert.Equal(t, string(protocol.CodeBrowserNotConnected), m.Error.Code)
	assert.Contains(t, m.Error.Message, "did not reconnect within 2s")
	assert.Contains(t, e.taskEvents(id), "waiting_for_browser")
	var r crawled
	require.NoError(t, json.Unmarshal(getTask(t, cs, id, true).Result, &r))
	assert.NotEmpty(t, r.Pages, "the pages it had are kept")

	// Meanwhile an agent's call is told at once, with what to do.
	err := fails(t, cs, "tabs_context", map[string]any{}, protocol.CodeBrowserNotConnected)
	assert.Contains(t, err.Hint, "retry")

	restore()
	t.Logf("worker stopped, host back after %s -> first successful call %s after the stop",
		time.Since(since).Round(10*time.Millisecond), waitBack(t, cs, since).Round(10*time.Millisecond))
}

// TestTwoClientsKeepTheirSessionsAcrossAWorkerRestart: two MCP clients, one
// with a call in flight when the worker stops. That call ends at once with
// browser_not_connected, saying it may have been done and to look before
// doing it again; both clients' next calls work once the extension is
// back, over the connections they had.
func TestTwoClientsKeepTheirSessionsAcrossAWorkerRestart(t *testing.T) {
	e := newEnv(t)
	site := fixtures(t)
	first, second := e.client("first"), e.client("second")
	tab := openTab(t, first, site.URL+"/index.html")
	ok(t, second, "tabs_context", map[string]any{})
	pid := e.daemonPID()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hung := hangInPage(t, ctx, first, tab)
	since := e.stopWorker()
	select {
	case r := <-hung:
		require.True(t, r.IsError, textOf(r))
		assert.Contains(t, textOf(r), string(protocol.CodeBrowserNotConnected))
		assert.Contains(t, textOf(r), "it may have been done")
		assert.Contains(t, textOf(r), "look before doing it again", "never a blind retry")
		assert.Less(t, time.Since(since), 5*time.Second, "not a hang")
	case <-time.After(10 * time.Second):
		t.Fatal("the call in flight did not end when the worker stopped")
	}

	var wg sync.WaitGroup
	for _, cs := range []*mcp.ClientSession{first, second} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			waitWorking(t, cs, since) // the hung call saw the loss
		}()
	}
	wg.Wait()
	assert.Equal(t, `"Fixture Home"`, ok(t, first, "javascript_tool", map[string]any{"code": "document.title", "tabId": tab}))
	assert.Equal(t, pid, e.daemonPID(), "the same daemon")
	log, err := os.ReadFile(e.home.LogFile())
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(log), `"msg":"agent connected"`), "neither client had to reconnect")
}

// TestTheSidePanelSaysReconnecting: while the link is down and coming back,
// the panel says so. The host Chrome starts is made to exit at once (a
// broken install would), so the extension keeps retrying and the panel
// keeps saying it; once the host is back, so is "Connected".
func TestTheSidePanelSaysReconnecting(t *testing.T) {
	e := newEnv(t)
	cs := e.client("e2e")
	connection := `document.getElementById('connection').textContent`
	panel := e.personOpens(panelURL)
	panel.waitFor(connection + ` === 'Connected'`)

	manifest := filepath.Join(e.udd, "NativeMessagingHosts", manifests.HostName+".json")
	orig, err := os.ReadFile(manifest)
	require.NoError(t, err)
	broken := strings.Replace(string(orig), suite.binary, "/bin/false", 1)
	require.NotEqual(t, string(orig), broken)
	require.NoError(t, os.WriteFile(manifest, []byte(broken), 0o644))
	defer os.WriteFile(manifest, orig, 0o644)

	e.stopWorker()
	panel.waitFor(connection + ` === 'Reconnecting\u2026'`)
	// The worker is back (the panel's port woke it) and its host exits: it
	// still says reconnecting, not connected.
	require.Eventually(t, func() bool {
		var reason string
		err := e.devtools().evalExtension(`chrome.storage.session.get('connection').then(s => s.connection.reason ?? '')`, &reason)
		return err == nil && reason == "Native host has exited."
	}, wakeBound, 50*time.Millisecond)
	assert.True(t, panel.sees(connection+` === 'Reconnecting\u2026'`))

	require.NoError(t, os.WriteFile(manifest, orig, 0o644))
	panel.waitFor(connection + ` === 'Connected'`)
	ok(t, cs, "tabs_context", map[string]any{})
}

// TestTheDaemonOutlivesTheBrowserThenExitsWhenIdle: Chrome and its native
// host go; the daemon, in a session of its own, stays while an agent is
// connected, then, with nothing to do for OPENCHROME_IDLE_EXIT, leaves.
func TestTheDaemonOutlivesTheBrowserThenExitsWhenIdle(t *testing.T) {
	e := newEnv(t, "OPENCHROME_IDLE_EXIT=1s")
	cs := e.client("e2e")
	ok(t, cs, "tabs_context", map[string]any{})
	pid := e.daemonPID()
	e.stopChromium()
	require.Eventually(t, func() bool {
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "oc_connection_health", Arguments: map[string]any{}})
		return err == nil && r.IsError
	}, 10*time.Second, 20*time.Millisecond, "the browser is gone")
	assert.True(t, ledger.ProcessAlive(pid), "the daemon outlives the browser while an agent is connected")
	assert.Equal(t, pid, e.daemonPID())

	require.NoError(t, cs.Close())
	require.Eventually(t, func() bool { return !ledger.ProcessAlive(pid) }, 15*time.Second, 20*time.Millisecond,
		"the daemon did not exit when idle")
	_, err := os.Stat(e.home.BridgeFile())
	assert.True(t, os.IsNotExist(err), "bridge.json is removed")
}
