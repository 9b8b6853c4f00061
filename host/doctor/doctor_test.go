package doctor

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/install"
	"github.com/openchrome/openchrome/ledger"
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
