package daemon

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// fakeExtension plays Chrome and the extension on the daemon's stdin and
// stdout: it says hello, then answers tabs.list with one tab titled name.
type fakeExtension struct {
	stdin *io.PipeWriter // the daemon's stdin; closing it is Chrome closing the port
	done  chan error     // Run's result
}

func startDaemon(t *testing.T, home ledger.Home, name string) *fakeExtension {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	fe := &fakeExtension{stdin: inW, done: make(chan error, 1)}
	go func() {
		fe.done <- Run(context.Background(), Options{Home: home, Stdin: inR, Stdout: outW})
		outW.Close()
	}()
	w := protocol.NewWriter(inW, protocol.MaxFromBrowser)
	require.NoError(t, w.WriteFrame(protocol.Hello{Role: protocol.RoleExtension, Version: protocol.Version, Browser: name}))
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
			if cmd, ok := f.(*protocol.Command); ok {
				data, _ := json.Marshal(map[string]any{"tabs": []map[string]any{{"tabId": 1, "url": "about:blank", "title": name}}})
				_ = w.WriteFrame(protocol.CommandResult{ID: cmd.ID, OK: true, Data: data})
			}
		}
	}()
	t.Cleanup(func() { fe.stdin.Close() })
	return fe
}

// waitBroker waits for bridge.json to name a broker whose pid is ours (all
// daemons of a test share the test's pid) and port differs from not.
func waitBroker(t *testing.T, home ledger.Home, not int) bridge.Discovery {
	t.Helper()
	var d bridge.Discovery
	require.Eventually(t, func() bool {
		var err error
		d, err = bridge.ReadDiscovery(home.BridgeFile())
		return err == nil && d.Port != not
	}, 5*time.Second, 10*time.Millisecond)
	return d
}

func tabTitle(t *testing.T, d bridge.Discovery) string {
	t.Helper()
	cl, err := bridge.Dial(context.Background(), d, "test")
	require.NoError(t, err)
	defer cl.Close()
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

func TestTheDaemonServesAgentsThroughItsExtension(t *testing.T) {
	home := ledger.Home(t.TempDir())
	fe := startDaemon(t, home, "Chromium/156")
	d := waitBroker(t, home, 0)
	assert.Equal(t, os.Getpid(), d.PID)
	assert.Equal(t, protocol.Version, d.Version)
	st, err := os.Stat(home.BridgeFile())
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())

	assert.Equal(t, "Chromium/156", tabTitle(t, d))

	// Chrome closes the port: the daemon leaves promptly and cleans up.
	start := time.Now()
	require.NoError(t, fe.stdin.Close())
	select {
	case err := <-fe.done:
		assert.NoError(t, err)
	case <-time.After(2 * time.Second):
		t.Fatal("the daemon outlived its port by 2 s: Chrome would SIGKILL it")
	}
	assert.Less(t, time.Since(start), time.Second)
	_, err = os.Stat(home.BridgeFile())
	assert.True(t, os.IsNotExist(err), "bridge.json is removed")
	lock, err := ledger.TryLock(home.BridgeLock())
	require.NoError(t, err, "the lock is released")
	lock.Unlock()
}

func TestASecondDaemonJoinsAndTakesOver(t *testing.T) {
	home := ledger.Home(t.TempDir())
	first := startDaemon(t, home, "first")
	d1 := waitBroker(t, home, 0)
	second := startDaemon(t, home, "second")

	cl, err := bridge.Dial(context.Background(), d1, "test")
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		r, err := cl.Call(context.Background(), "oc_connection_health", nil, bridge.CallOptions{})
		if err != nil || r.IsError {
			return false
		}
		var out struct {
			Browsers []any `json:"browsers"`
		}
		return json.Unmarshal([]byte(r.Content[0].Text), &out) == nil && len(out.Browsers) == 2
	}, 5*time.Second, 20*time.Millisecond, "the second profile joins the first broker")
	cl.Close()

	// The first profile's Chrome closes; the second daemon becomes the broker.
	require.NoError(t, first.stdin.Close())
	<-first.done
	d2 := waitBroker(t, home, d1.Port)
	assert.Equal(t, "second", tabTitle(t, d2))

	require.NoError(t, second.stdin.Close())
	select {
	case err := <-second.done:
		assert.NoError(t, err)
	case <-time.After(2 * time.Second):
		t.Fatal("the second daemon did not stop")
	}
}

func TestADaemonWithoutHelloGivesUp(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	go func() { _ = protocol.NewWriter(inW, 100).WriteFrame(protocol.Ping{}) }()
	err := Run(context.Background(), Options{Home: ledger.Home(t.TempDir()), Stdin: inR, Stdout: io.Discard})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "hello")
}
