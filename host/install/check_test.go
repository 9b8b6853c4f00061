package install

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/ledger"
)

func TestRegistrations(t *testing.T) {
	userHome := t.TempDir()
	home := ledger.Home(filepath.Join(userHome, ".openchrome"))
	bin := filepath.Join(userHome, "bin", "openchrome")
	require.NoError(t, os.MkdirAll(filepath.Dir(bin), 0o755))
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))
	chromium := filepath.Join(userHome, ".config", "chromium")
	require.NoError(t, os.MkdirAll(chromium, 0o755))
	noExec := func(string) (string, error) { return "", os.ErrNotExist }
	opts := Options{Home: home, UserHome: userHome, GOOS: "linux", Binary: bin, LookPath: noExec}

	regs, err := Registrations(opts)
	require.NoError(t, err)
	states := map[string]RegState{}
	for _, r := range regs {
		states[r.Name] = r.State
	}
	assert.Equal(t, map[string]RegState{"Chromium": RegMissing, "OpenChrome profile": RegMissing}, states)

	_, err = Install(opts)
	require.NoError(t, err)
	regs, err = Registrations(opts)
	require.NoError(t, err)
	for _, r := range regs {
		assert.Equal(t, RegOK, r.State, r.Name)
		assert.Equal(t, bin, r.Binary)
	}

	// A rebuilt binary elsewhere: the manifests name the old one.
	other := opts
	other.Binary = filepath.Join(userHome, "elsewhere", "openchrome")
	regs, err = Registrations(other)
	require.NoError(t, err)
	assert.Equal(t, RegOtherBinary, regs[0].State)

	require.NoError(t, os.Remove(bin))
	regs, err = Registrations(other)
	require.NoError(t, err)
	assert.Equal(t, RegBrokenBinary, regs[0].State)

	require.NoError(t, os.WriteFile(regs[0].Path, []byte(`{"path":"/x","allowed_origins":["chrome-extension://other/"]}`), 0o644))
	regs, err = Registrations(opts)
	require.NoError(t, err)
	assert.Equal(t, RegWrongOrigin, regs[0].State)

	require.NoError(t, os.WriteFile(regs[0].Path, []byte(`{`), 0o644))
	regs, err = Registrations(opts)
	require.NoError(t, err)
	assert.Equal(t, RegUnreadable, regs[0].State)
}
