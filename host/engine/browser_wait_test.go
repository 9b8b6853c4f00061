package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/crawl"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// crawlWeb answers a crawl's commands for pages http://s/0 .. /4, each
// linking to the next. hold, when it returns a channel for a URL, makes
// that navigation wait on it: the moment to pull the browser away.
type crawlWeb struct {
	hold    func(url string) <-chan struct{}
	content string // each page's

	mu   sync.Mutex
	tabs int
	at   map[int]string
}

func (w *crawlWeb) answer(cmd protocol.Command) (any, *protocol.Error) {
	var p struct {
		TabID int    `json:"tabId"`
		URL   string `json:"url"`
	}
	_ = json.Unmarshal(cmd.Params, &p)
	switch cmd.Action {
	case "tab.create":
		w.mu.Lock()
		defer w.mu.Unlock()
		w.tabs++
		w.at[w.tabs] = "about:blank"
		return browser.Page{TabID: w.tabs, URL: "about:blank"}, nil
	case "tab.navigate":
		if w.hold != nil {
			if ch := w.hold(p.URL); ch != nil {
				<-ch
			}
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		if _, ok := w.at[p.TabID]; !ok {
			return nil, protocol.Errorf(protocol.CodeTabNotFound, "no tab %d", p.TabID)
		}
		w.at[p.TabID] = p.URL
		return browser.Page{TabID: p.TabID, URL: p.URL, Status: 200}, nil
	case "page.crawl":
		w.mu.Lock()
		defer w.mu.Unlock()
		u, ok := w.at[p.TabID]
		if !ok {
			// Another browser than the one that opened the tab.
			return nil, protocol.Errorf(protocol.CodeTabNotFound, "no tab %d", p.TabID)
		}
		var n int
		_, _ = fmt.Sscanf(u, "http://s/%d", &n)
		return browser.Crawled{URL: u, Title: "Page " + u, Content: w.content, Links: []string{fmt.Sprintf("http://s/%d", n+1)}}, nil
	}
	return map[string]any{}, nil
}

// link adds a browser to reg that answers with answer, as the extension
// reconnecting does.
func link(reg *bridge.Registry, answer func(protocol.Command) (any, *protocol.Error)) *bridge.Link {
	var l *bridge.Link
	added := make(chan struct{}) // l is set
	l = reg.Add(&protocol.Hello{Role: protocol.RoleExtension, Version: protocol.Version, Browser: "Fake/1"}, func(f protocol.Frame) error {
		cmd, ok := f.(protocol.Command)
		if !ok {
			return nil
		}
		go func() {
			<-added
			data, err := answer(cmd)
			if err != nil {
				l.Deliver(&protocol.CommandResult{ID: cmd.ID, Error: err})
				return
			}
			b, _ := json.Marshal(data)
			l.Deliver(&protocol.CommandResult{ID: cmd.ID, OK: true, Data: b})
		}()
		return nil
	})
	close(added)
	return l
}

// TestATaskWaitsForItsBrowser pulls the browser away in the middle of a
// crawl task's third page, as a stopped service worker does.
func TestATaskWaitsForItsBrowser(t *testing.T) {
	tests := []struct {
		name    string
		back    bool // a browser links again
		status  ledger.Status
		code    string
		pages   int
		events  []string
		message string // the task's progress message while it waits
	}{
		{"it comes back: the task goes on", true, ledger.StatusCompleted, "", 5,
			[]string{"waiting_for_browser", "browser_reconnected"}, "waiting for the browser to reconnect"},
		{"it does not: the task fails, keeping its pages", false, ledger.StatusFailed, "browser_not_connected", 2,
			[]string{"waiting_for_browser"}, "waiting for the browser to reconnect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store, err := ledger.Open(t.TempDir(), ledger.TaskLifecycle(), ledger.Options{})
			require.NoError(t, err)
			reg := bridge.NewRegistry(bridge.RegistryOptions{})
			bound := time.Hour // the browser comes back, or the test ends the wait
			if !tt.back {
				bound = 50 * time.Millisecond
			}
			e := New(Options{Browsers: reg, Tasks: store, BrowserWait: bound, Now: upSince(time.Hour)})
			t.Cleanup(func() { e.Close(context.Background()) })

			reached := make(chan struct{})
			release := make(chan struct{})
			var once sync.Once
			first := &crawlWeb{at: map[int]string{}, hold: func(url string) <-chan struct{} {
				if url != "http://s/2" {
					return nil
				}
				once.Do(func() { close(reached) })
				return release
			}}
			l := link(reg, first.answer)
			var out struct {
				TaskID string `json:"task_id"`
			}
			r := run(t, e, "oc_task_start", `{"kind":"crawl","args":{"url":"http://s/0","maxPages":5,"maxDepth":10,"concurrency":1,"sameOrigin":false}}`)
			require.False(t, r.IsError, textOf(t, r))
			require.NoError(t, json.Unmarshal([]byte(textOf(t, r)), &out))

			<-reached
			reg.Remove(l) // the worker stops: its link closes under the command
			close(release)
			require.Eventually(t, func() bool {
				m, err := store.Get(out.TaskID)
				return err == nil && m.Progress != nil && strings.Contains(m.Progress.Message, tt.message)
			}, 5*time.Second, 5*time.Millisecond, "the record says it waits")

			// An agent's call meanwhile is told at once, with a hint to retry.
			agent := wantError(t, run(t, e, "tabs_context", `{}`), protocol.CodeBrowserNotConnected)
			assert.Contains(t, agent.Hint, "retry")

			if tt.back {
				link(reg, (&crawlWeb{at: map[int]string{}}).answer)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			m, err := store.Wait(ctx, out.TaskID)
			require.NoError(t, err)
			assert.Equal(t, tt.status, m.Status)
			if tt.code != "" {
				require.NotNil(t, m.Error)
				assert.Equal(t, tt.code, m.Error.Code)
				assert.Contains(t, m.Error.Message, "did not reconnect within")
			}
			raw, err := store.Result(out.TaskID)
			require.NoError(t, err)
			var res crawl.Result
			require.NoError(t, json.Unmarshal(raw, &res))
			assert.Len(t, res.Pages, tt.pages)
			for i, p := range res.Pages {
				assert.Equal(t, fmt.Sprintf("http://s/%d", i), p.URL, "each page once, in order")
			}

			events, err := store.Events(out.TaskID)
			require.NoError(t, err)
			var kinds []string
			for _, ev := range events {
				if ev.Kind != "progress" && ev.Kind != "status" {
					kinds = append(kinds, ev.Kind)
				}
			}
			for _, k := range tt.events {
				assert.Contains(t, kinds, k)
			}
			waits := 0
			for _, k := range kinds {
				if k == "waiting_for_browser" {
					waits++
				}
			}
			assert.Equal(t, 1, waits, "one wait, bounded once: a task that gave up waits no more")
		})
	}
}

// upSince returns a clock for an engine that started ago: the first call
// reads the start, later calls read ago after it.
func upSince(ago time.Duration) func() time.Time {
	var calls atomic.Int32
	return func() time.Time {
		if calls.Add(1) == 1 {
			return time.Now().Add(-ago)
		}
		return time.Now()
	}
}

// TestADaemonJustStartedWaitsForItsBrowser: an agent whose daemon
// restarted may call before the native host that started the new one has
// linked its browser.
func TestADaemonJustStartedWaitsForItsBrowser(t *testing.T) {
	tests := []struct {
		name string
		up   time.Duration // how long the daemon has run
		want protocol.Code // "" for a result
	}{
		{"just started: the call waits for the browser", 0, ""},
		{"up a while: browser_not_connected at once", time.Hour, protocol.CodeBrowserNotConnected},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := bridge.NewRegistry(bridge.RegistryOptions{})
			e := New(Options{Browsers: reg, Now: upSince(tt.up)})
			t.Cleanup(func() { e.Close(context.Background()) })
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			called := make(chan *protocol.ToolResult, 1)
			go func() { called <- e.Call(ctx, bridge.NewCall("a1", "tabs_context", json.RawMessage(`{}`), nil)) }()
			if tt.want != "" {
				wantError(t, <-called, tt.want)
				return
			}
			link(reg, tabs([]browser.Tab{{TabID: 7, URL: "about:blank"}}, pageBrowser))
			r := <-called
			require.False(t, r.IsError, textOf(t, r))
		})
	}
}
