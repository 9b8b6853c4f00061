package ledger

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTryLockIsExclusive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "bridge.lock")
	a, err := TryLock(path)
	require.NoError(t, err)

	_, err = TryLock(path)
	assert.ErrorIs(t, err, ErrLocked)

	require.NoError(t, a.Unlock())
	require.NoError(t, a.Unlock(), "unlock twice is harmless")
	b, err := TryLock(path)
	require.NoError(t, err)
	require.NoError(t, b.Unlock())
}

func TestAcquireWaitsForTheHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	a, err := TryLock(path)
	require.NoError(t, err)
	got := make(chan error, 1)
	go func() {
		b, err := Acquire(context.Background(), path)
		if err == nil {
			err = b.Unlock()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("Acquire returned while the lock was held: %v", err)
	default:
	}
	require.NoError(t, a.Unlock())
	require.NoError(t, <-got, "the waiter gets the lock once it is free")
}

func TestAcquireGivesUpWithItsContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	a, err := TryLock(path)
	require.NoError(t, err)
	defer a.Unlock()

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err = Acquire(ctx, path)
	assert.Error(t, err)
}

func TestWriteFileIsPrivateWhateverTheUmask(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "bridge.json")
	require.NoError(t, WriteFile(path, []byte(`{"port":1}`), 0o600))
	require.NoError(t, WriteFile(path, []byte(`{"port":2}`), 0o600))

	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, `{"port":2}`, string(b))
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())

	entries, err := os.ReadDir(filepath.Dir(path))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temp file left behind")
}

func TestHomeFromEnv(t *testing.T) {
	dir := t.TempDir()
	h, err := HomeFromEnv(func(k string) string {
		if k == "OPENCHROME_HOME" {
			return dir
		}
		return ""
	})
	require.NoError(t, err)
	assert.Equal(t, Home(dir), h)
	assert.Equal(t, filepath.Join(dir, "bridge.json"), h.BridgeFile())
	assert.Equal(t, filepath.Join(dir, "logs", "openchrome.log"), h.LogFile())
}

func TestProcessAlive(t *testing.T) {
	assert.True(t, ProcessAlive(os.Getpid()))
	assert.False(t, ProcessAlive(0))
	assert.False(t, ProcessAlive(-1))
	assert.False(t, ProcessAlive(1<<30), "no such pid")
}

// TestAZombieIsNotAlive: a process that has exited is dead though nobody
// has reaped it yet, as a daemon is whose init reaps late.
func TestAZombieIsNotAlive(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	cmd := exec.Command("sh", "-c", "exit 0")
	require.NoError(t, cmd.Start())
	defer cmd.Wait() //nolint:errcheck // reaped at the end, not before
	// Not reaped until Wait: its pid stays, a zombie.
	assert.Eventually(t, func() bool { return !ProcessAlive(cmd.Process.Pid) }, 10*time.Second, 10*time.Millisecond)
}
