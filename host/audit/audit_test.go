package audit

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAppendAndRecent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "logs", "audit.jsonl")
	l, err := Open(path, 0)
	require.NoError(t, err)
	at := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	for i := range 5 {
		require.NoError(t, l.Append(Entry{At: at.Add(time.Duration(i) * time.Second), Client: "claude-code", Tool: "navigate",
			Origin: "https://example.com", Ms: int64(i)}))
	}
	require.NoError(t, l.Close())
	got, err := Recent(path, 3)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.EqualValues(t, []int64{2, 3, 4}, []int64{got[0].Ms, got[1].Ms, got[2].Ms}, "the last three, oldest first")
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	assert.Error(t, l.Append(Entry{Tool: "x"}), "closed")
}

func TestItRotatesAtItsCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := Open(path, 300)
	require.NoError(t, err)
	defer l.Close()
	for i := range 20 {
		require.NoError(t, l.Append(Entry{Client: "c", Tool: "read_page", Ms: int64(i)}))
	}
	for _, p := range []string{path, path + ".1"} {
		info, err := os.Stat(p)
		require.NoError(t, err)
		assert.LessOrEqual(t, info.Size(), int64(300))
	}
	got, err := Recent(path, 6)
	require.NoError(t, err)
	require.Len(t, got, 6, "the rotated file fills in what the new one lacks")
	assert.EqualValues(t, 19, got[5].Ms)
	assert.EqualValues(t, 14, got[0].Ms)
}

func TestConcurrentAppendsAreWholeLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := Open(path, 0)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				assert.NoError(t, l.Append(Entry{Client: "c", Tool: "find"}))
			}
		})
	}
	wg.Wait()
	require.NoError(t, l.Close())
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	assert.Len(t, lines, 400)
	got, err := Recent(path, 1000)
	require.NoError(t, err)
	assert.Len(t, got, 400, "every line is an entry")
}

func TestOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:pw@example.com:8443/a?token=x": "https://example.com:8443",
		"http://127.0.0.1:3000/":                     "http://127.0.0.1:3000",
		"file:///etc/passwd":                         "file://",
		"about:blank":                                "",
		"::":                                         "",
	} {
		assert.Equal(t, want, Origin(in), in)
	}
}
