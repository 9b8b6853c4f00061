package doctor

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/install"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

func options(t *testing.T) Options {
	t.Helper()
	userHome := t.TempDir()
	bin := filepath.Join(userHome, "bin", "openchrome")
	require.NoError(t, os.MkdirAll(filepath.Dir(bin), 0o755))
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))
	return Options{Install: install.Options{
		Home: ledger.Home(filepath.Join(userHome, ".openchrome")), UserHome: userHome, GOOS: "linux", Binary: bin,
		LookPath: func(string) (string, error) { return "", os.ErrNotExist },
	}}
}

func find(checks []Check, name string) Check {
	for _, c := range checks {
		if c.Name == name {
			return c
		}
	}
	return Check{}
}

func TestDoctorOnAFreshMachine(t *testing.T) {
	opts := options(t)
	checks := Run(context.Background(), opts)
	assert.True(t, Failed(checks))
	assert.Equal(t, OK, find(checks, "binary").Status)
	for _, name := range []string{"extension", "host manifest"} {
		c := find(checks, name)
		assert.Equal(t, Fail, c.Status, name)
		assert.Equal(t, "openchrome install", c.Fix, name)
	}
	d := find(checks, "daemon")
	assert.Equal(t, Fail, d.Status)
	assert.Contains(t, d.Fix, "openchrome launch")

	var out bytes.Buffer
	require.NoError(t, Print(&out, checks))
	assert.Contains(t, out.String(), "fix: openchrome install")
}

func TestDoctorAfterInstallWithNoBrowser(t *testing.T) {
	opts := options(t)
	_, err := install.Install(opts.Install)
	require.NoError(t, err)
	checks := Run(context.Background(), opts)
	assert.Equal(t, OK, find(checks, "extension").Status)
	assert.Equal(t, OK, find(checks, "host manifest").Status)
	assert.Equal(t, Fail, find(checks, "daemon").Status)

	// A daemon that died and left its bridge.json behind.
	require.NoError(t, bridge.WriteDiscovery(opts.Install.Home.BridgeFile(), bridge.Discovery{Port: 1, Token: "t", PID: 1 << 30}))
	d := find(Run(context.Background(), opts), "daemon")
	assert.Equal(t, Fail, d.Status)
	assert.Contains(t, d.Detail, "dead")
}

func TestDoctorWithADaemonAndNoBrowser(t *testing.T) {
	opts := options(t)
	_, err := install.Install(opts.Install)
	require.NoError(t, err)
	// A daemon whose browser went (Chrome closed, or its worker stopped).
	serveDaemon(t, opts.Install.Home, time.Now().Add(-time.Minute))

	checks := Run(context.Background(), opts)
	d := find(checks, "daemon")
	assert.Equal(t, OK, d.Status)
	assert.Contains(t, d.Detail, fmt.Sprintf("pid %d", os.Getpid()))
	assert.Contains(t, d.Detail, "up 1m")
	assert.Contains(t, d.Detail, "no browser linked")
	b := find(checks, "browser")
	assert.Equal(t, Fail, b.Status)
	assert.Contains(t, b.Fix, "reconnects within 30 s by itself")
}

func TestLaunchWaitsForTheBrowserItStartedToLink(t *testing.T) {
	home := options(t).Install.Home
	srv := serveDaemon(t, home, time.Now())

	assert.Empty(t, Linked(context.Background(), home))
	_, ok := NewLink(context.Background(), home, nil, 100*time.Millisecond)
	assert.False(t, ok, "no browser linked in the time given")

	srv.Registry().Add(&protocol.Hello{Role: "extension", Version: protocol.Version, Browser: "Chromium/156"}, func(protocol.Frame) error { return nil })
	before := Linked(context.Background(), home)
	require.Len(t, before, 1)
	b, ok := NewLink(context.Background(), home, nil, time.Second)
	require.True(t, ok)
	assert.Equal(t, before[0].ID, b.ID)
	_, ok = NewLink(context.Background(), home, before, 100*time.Millisecond)
	assert.False(t, ok, "a browser linked before the launch is not the one it started")
}

// serveDaemon serves a daemon's bridge, started at startedAt, with no
// browser linked, and writes its bridge.json in home, as the daemon does.
func serveDaemon(t *testing.T, home ledger.Home, startedAt time.Time) *bridge.Server {
	t.Helper()
	srv := bridge.NewServer(bridge.Options{Token: "t", Handler: noHandler{}})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-served })
	require.NoError(t, bridge.WriteDiscovery(home.BridgeFile(), bridge.Discovery{
		Port: ln.Addr().(*net.TCPAddr).Port, Token: "t", PID: os.Getpid(), Version: protocol.Version, StartedAt: startedAt}))
	return srv
}

// noHandler is a handler no test calls.
type noHandler struct{}

func (noHandler) Call(context.Context, *bridge.Call) *protocol.ToolResult { return nil }

func TestLinks(t *testing.T) {
	tests := []struct {
		browsers []protocol.BrowserInfo
		want     string
	}{
		{nil, "no browser linked"},
		{[]protocol.BrowserInfo{{ID: "b1", Browser: "Chromium/156"}}, "1 browser link (b1 Chromium/156)"},
		{[]protocol.BrowserInfo{{ID: "b1", Browser: "Chromium/156"}, {ID: "b2", Browser: "Chrome/150"}},
			"2 browser links (b1 Chromium/156, b2 Chrome/150)"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			assert.Equal(t, tt.want, links(tt.browsers))
		})
	}
}
