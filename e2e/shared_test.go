package e2e

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/ledger"
)

// sharedEnv is newEnv for a test that only drives pages in tabs it opens,
// through its own MCP client: it borrows a browser, daemon and home that
// another such test has finished with. Starting them costs about four
// seconds of CPU, most of a short test on two cores. A test that needs a
// browser nobody used before it (the person's tabs, the daemon's state, the
// home's files, a worker restart) takes newEnv.
func sharedEnv(t *testing.T) *env {
	t.Helper()
	skipIfShort(t)
	t.Parallel()
	return suite.browsers.borrow(t)
}

// browsers lends started envs to one test after another. It holds at most
// as many as ran at once.
type browsers struct {
	root string // where their directories go

	mu   sync.Mutex
	idle []*env
}

// borrow gives t an idle env, or starts one, and takes it back when t ends.
func (b *browsers) borrow(t *testing.T) *env {
	t.Helper()
	b.mu.Lock()
	var e *env
	if n := len(b.idle); n > 0 {
		e, b.idle = b.idle[n-1], b.idle[:n-1]
	}
	b.mu.Unlock()
	if e != nil {
		e.t = t
		t.Cleanup(func() { b.giveBack(e) })
		return e
	}
	dir, err := os.MkdirTemp(b.root, "shared-")
	require.NoError(t, err)
	e = envIn(t, dir, nil, nil)
	t.Cleanup(func() { b.giveBack(e) }) // before start, so a browser that fails to come up is stopped
	e.start()
	e.firstTab, e.daemon = e.startTab(), e.daemonPID()
	return e
}

// giveBack returns e to the idle envs once the test that borrowed it has
// closed its clients and its tabs are closed. After a failed test, or when
// e cannot be brought back to how it started, e is stopped instead: the
// next test starts a fresh one.
func (b *browsers) giveBack(e *env) {
	if e.t.Failed() || e.chrome == nil {
		e.close()
		return
	}
	if err := e.tidy(); err != nil {
		e.t.Logf("the shared browser is stopped, not reused: %v", err)
		e.close()
		return
	}
	b.mu.Lock()
	b.idle = append(b.idle, e)
	b.mu.Unlock()
}

// closeAll stops every idle env at the end of the run.
func (b *browsers) closeAll() error {
	b.mu.Lock()
	idle := b.idle
	b.idle = nil
	b.mu.Unlock()
	var errs []error
	for _, e := range idle {
		errs = append(errs, e.stop())
	}
	return errors.Join(errs...)
}

// startTab is the target id of the one tab a started browser has.
func (e *env) startTab() string {
	e.t.Helper()
	pages, err := e.pages()
	require.NoError(e.t, err)
	require.Len(e.t, pages, 1, "a browser starts with one tab")
	return pages[0].TargetID
}

// tidy brings a borrowed env back to how it started: the tabs the test
// opened closed, the first tab blank, the same daemon.
func (e *env) tidy() error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		pages, err := e.pages()
		if err != nil {
			return err
		}
		var others []string
		first := false
		for _, p := range pages {
			switch {
			case p.TargetID != e.firstTab:
				others = append(others, p.TargetID)
			case p.URL != "about:blank":
				return fmt.Errorf("the first tab is at %s", p.URL)
			default:
				first = true
			}
		}
		if !first {
			return errors.New("the first tab was closed")
		}
		if len(others) == 0 {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d tabs would not close", len(others))
		}
		for _, id := range others {
			_ = e.cdp.send("", "Target.closeTarget", map[string]any{"targetId": id}, nil)
		}
		time.Sleep(20 * time.Millisecond)
	}
	d, err := bridge.ReadDiscovery(e.home.BridgeFile())
	if err != nil {
		return err
	}
	if d.PID != e.daemon || !ledger.ProcessAlive(d.PID) {
		return fmt.Errorf("the daemon changed (pid %d, was %d)", d.PID, e.daemon)
	}
	return nil
}
