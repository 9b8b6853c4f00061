package launch

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/ledger"
)

func TestForgetOldWorker(t *testing.T) {
	h := ledger.Home(t.TempDir())
	workers := filepath.Join(h.Profile(), "Default", "Service Worker")
	stored := func() bool {
		_, err := os.Stat(filepath.Join(workers, "ScriptCache", "old"))
		return err == nil
	}
	store := func() {
		require.NoError(t, ledger.WriteFile(filepath.Join(workers, "ScriptCache", "old"), []byte("x"), 0o600))
	}
	version := func(v string) {
		require.NoError(t, ledger.WriteFile(filepath.Join(h.Extension(), "manifest.json"), []byte(`{"version":"`+v+`"}`), 0o644))
	}

	version("0.1.0.7")
	store()
	require.NoError(t, forgetOldWorker(h))
	assert.False(t, stored(), "a profile never started with this build forgets its workers")

	store()
	require.NoError(t, forgetOldWorker(h))
	assert.True(t, stored(), "the same build keeps them")

	version("0.1.0.9")
	host, err := os.Hostname()
	require.NoError(t, err)
	lock := filepath.Join(h.Profile(), "SingletonLock")
	require.NoError(t, os.Symlink(host+"-4242", lock))
	// A browser that runs answers on the profile's socket. (A socket's path
	// is short: it lives in a temp dir of its own, as Chromium's does.)
	sock := filepath.Join(shortTempDir(t), "SingletonSocket")
	ln, err := net.Listen("unix", sock)
	require.NoError(t, err)
	require.NoError(t, os.Symlink(sock, filepath.Join(h.Profile(), "SingletonSocket")))
	require.NoError(t, forgetOldWorker(h))
	assert.True(t, stored(), "a profile a browser has open is left alone")

	require.NoError(t, os.Remove(lock))
	require.NoError(t, os.Symlink("elsewhere-1", lock))
	require.NoError(t, forgetOldWorker(h))
	assert.True(t, stored(), "so is one another machine's browser may have open")

	require.NoError(t, os.Remove(lock))
	require.NoError(t, os.Symlink(host+"-4242", lock))
	require.NoError(t, ln.Close())
	require.NoError(t, forgetOldWorker(h))
	assert.False(t, stored(), "a new build, once the browser is gone, even one killed with its lock left behind")

	version("")
	assert.ErrorContains(t, forgetOldWorker(h), "no version")
}

// shortTempDir is a temp dir whose path fits in a unix socket's address.
func shortTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "oc")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func TestSeedPreferences(t *testing.T) {
	profile := t.TempDir()
	prefs := filepath.Join(profile, "Default", "Preferences")
	require.NoError(t, SeedPreferences(profile))
	raw, err := os.ReadFile(prefs)
	require.NoError(t, err)
	assert.JSONEq(t, `{"extensions":{"ui":{"developer_mode":true}}}`, string(raw))

	require.NoError(t, os.WriteFile(prefs, []byte(`{"browser":{}}`), 0o600))
	require.NoError(t, SeedPreferences(profile))
	raw, err = os.ReadFile(prefs)
	require.NoError(t, err)
	assert.Equal(t, `{"browser":{}}`, string(raw), "a profile the browser wrote is its own")
}
