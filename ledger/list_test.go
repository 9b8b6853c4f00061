package ledger

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

func TestList(t *testing.T) {
	ctx := context.Background()
	s, clock := openStore(t, TaskLifecycle())
	start := clock.Now()
	// Ten records a second apart: even ones crawls, odd ones recordings;
	// every third one completed.
	var ids []string
	for i := range 10 {
		kind := "crawl"
		if i%2 == 1 {
			kind = "recording"
		}
		m, err := s.Create(kind, fmt.Sprint(i), nil)
		require.NoError(t, err)
		if i%3 == 0 {
			_, err = s.Transition(ctx, m.ID, StatusRunning, nil)
			require.NoError(t, err)
			_, err = s.Transition(ctx, m.ID, StatusCompleted, nil)
			require.NoError(t, err)
		}
		ids = append(ids, m.ID)
		clock.Advance(time.Second)
	}
	// Debris a reader must step over: a Create caught between mkdir and
	// meta.json, and names that are not ids.
	require.NoError(t, os.Mkdir(filepath.Join(s.Root(), "ffffffffffffffff"), 0o700))
	require.NoError(t, os.Mkdir(filepath.Join(s.Root(), "not-an-id"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(s.Root(), ".DS_Store"), nil, 0o600))

	summaries := func(ms []Meta) []string {
		out := []string{}
		for _, m := range ms {
			out = append(out, m.ArgsSummary)
		}
		return out
	}
	tests := []struct {
		name string
		f    Filter
		want []string
	}{
		{"all, newest first", Filter{}, []string{"9", "8", "7", "6", "5", "4", "3", "2", "1", "0"}},
		{"limit", Filter{Limit: 3}, []string{"9", "8", "7"}},
		{"status", Filter{Status: StatusCompleted}, []string{"9", "6", "3", "0"}},
		{"status and limit", Filter{Status: StatusPending, Limit: 2}, []string{"8", "7"}},
		{"kind", Filter{Kind: "recording"}, []string{"9", "7", "5", "3", "1"}},
		{"kind and status", Filter{Kind: "crawl", Status: StatusCompleted}, []string{"6", "0"}},
		{"since", Filter{Since: start.Add(7 * time.Second)}, []string{"9", "8", "7"}},
		{"since between records", Filter{Since: start.Add(6500 * time.Millisecond)}, []string{"9", "8", "7"}},
		{"since and kind", Filter{Since: start.Add(5 * time.Second), Kind: "crawl"}, []string{"8", "6"}},
		{"since in the future", Filter{Since: start.Add(time.Hour)}, []string{}},
		{"no match", Filter{Kind: "nothing"}, []string{}},
		{"status of no record", Filter{Status: StatusCancelled}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.List(tt.f)
			require.NoError(t, err)
			assert.Equal(t, tt.want, summaries(got))
		})
	}

	_, err := s.List(Filter{Limit: -1})
	assert.ErrorIs(t, err, protocol.ErrBadRequest)
	_, err = s.List(Filter{Status: StatusFinished})
	assert.ErrorIs(t, err, protocol.ErrBadRequest, "not a task status")
}

func TestListDefaultsToFifty(t *testing.T) {
	s, _ := openStore(t, TaskLifecycle())
	for range DefaultListLimit + 5 {
		_, err := s.Create("crawl", "", nil)
		require.NoError(t, err)
	}
	got, err := s.List(Filter{})
	require.NoError(t, err)
	assert.Len(t, got, DefaultListLimit)
	for i := 1; i < len(got); i++ {
		assert.Greater(t, got[i-1].ID, got[i].ID, "newest first")
	}
}

// BenchmarkList10k lists from 10,000 records: most of them completed, one in
// a hundred failed, the newest hundred still running. "cold" opens a fresh
// Store for every list, as a process that just started would; "warm" lists
// through one Store that has listed before, as the daemon does.
func BenchmarkList10k(b *testing.B) {
	const n = 10_000
	root := b.TempDir()
	clock := &fakeClock{t: time.Date(2026, 5, 12, 10, 0, 0, 0, time.UTC)}
	s, err := Open(root, TaskLifecycle(), Options{Now: clock.Now})
	require.NoError(b, err)
	seed(b, s, clock, n)

	cases := []struct {
		name string
		f    Filter
		want int
	}{
		{"default", Filter{}, DefaultListLimit},
		{"status=RUNNING", Filter{Status: StatusRunning}, DefaultListLimit},
		{"status=COMPLETED", Filter{Status: StatusCompleted}, DefaultListLimit},
		{"status=FAILED", Filter{Status: StatusFailed}, DefaultListLimit},
		{"status=CANCELLED", Filter{Status: StatusCancelled}, 0}, // none: every record is looked at
		{"since=1m", Filter{Since: clock.Now().Add(-time.Minute)}, DefaultListLimit},
	}
	for _, c := range cases {
		for _, cold := range []bool{true, false} {
			name := c.name + "/warm"
			if cold {
				name = c.name + "/cold"
			}
			b.Run(name, func(b *testing.B) {
				list := s
				for b.Loop() {
					if cold {
						list, err = Open(root, TaskLifecycle(), Options{Now: clock.Now})
						require.NoError(b, err)
					}
					got, err := list.List(c.f)
					if err != nil || len(got) != c.want {
						b.Fatalf("List(%+v) = %d records, %v; want %d", c.f, len(got), err, c.want)
					}
				}
			})
		}
	}
}

// seed writes the meta.json of n task records straight to disk, as Create
// and a finished run would leave it, without paying for 2n fsyncs. List reads
// nothing else.
func seed(b *testing.B, s *Store, clock *fakeClock, n int) {
	b.Helper()
	for i := range n {
		clock.Advance(time.Second)
		now := clock.Now()
		s.lastID = newID(now, s.lastID)
		id := formatID(s.lastID)
		status := StatusCompleted
		switch {
		case i >= n-100:
			status = StatusRunning
		case i%100 == 0:
			status = StatusFailed
		}
		m := Meta{
			ID: id, Kind: "crawl", Status: status, CreatedAt: now, UpdatedAt: now, PID: s.pid,
			ArgsSummary: fmt.Sprintf("url=http://127.0.0.1:8080/site/%d maxPages=20", i),
			Detail:      json.RawMessage(`{"url":"http://127.0.0.1:8080/","maxPages":20,"sameOrigin":true}`),
		}
		if status != StatusRunning {
			m.StartedAt, m.FinishedAt, m.ResultBytes = &now, &now, 2048
		}
		meta, err := json.Marshal(m)
		require.NoError(b, err)
		require.NoError(b, os.Mkdir(s.dir(id), 0o700))
		require.NoError(b, os.WriteFile(s.file(id, metaFile), append(meta, '\n'), 0o600))
	}
}
