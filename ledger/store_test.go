package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex // guards t
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// openStore opens a store on a fresh temp root with a fake clock.
func openStore(t testing.TB, life Lifecycle) (*Store, *fakeClock) {
	t.Helper()
	clock := &fakeClock{t: time.Date(2026, 5, 12, 10, 0, 0, 0, time.UTC)}
	s, err := Open(t.TempDir(), life, Options{Now: clock.Now})
	require.NoError(t, err)
	return s, clock
}

func TestCreateWritesTheWholeRecord(t *testing.T) {
	s, clock := openStore(t, TaskLifecycle())
	detail := map[string]any{"url": "http://127.0.0.1/", "maxPages": 5}
	m, err := s.Create("crawl", "url=http://127.0.0.1/", detail)
	require.NoError(t, err)

	assert.Regexp(t, `^[0-9a-f]{16}$`, m.ID)
	assert.Equal(t, "crawl", m.Kind)
	assert.Equal(t, StatusPending, m.Status)
	assert.Equal(t, clock.Now(), m.CreatedAt)
	assert.Equal(t, clock.Now(), m.UpdatedAt)
	assert.Nil(t, m.StartedAt, "a task starts PENDING")
	assert.Equal(t, os.Getpid(), m.PID)
	assert.JSONEq(t, `{"url":"http://127.0.0.1/","maxPages":5}`, string(m.Detail))
	n, ok := parseID(m.ID)
	require.True(t, ok)
	assert.Equal(t, clock.Now().UnixMilli(), idMillis(n), "the id carries the creation time")

	got, err := s.Get(m.ID)
	require.NoError(t, err)
	assert.Equal(t, m, got)

	for _, name := range []string{metaFile, eventsFile, lockFile} {
		st, err := os.Stat(s.file(m.ID, name))
		require.NoError(t, err, name)
		assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), name)
	}
	raw, err := os.ReadFile(s.file(m.ID, metaFile))
	require.NoError(t, err)
	var fields map[string]any
	require.NoError(t, json.Unmarshal(raw, &fields))
	for _, k := range []string{"id", "kind", "status", "created_at", "updated_at", "pid", "args_summary", "detail"} {
		assert.Contains(t, fields, k, "meta.json is snake_case")
	}

	events, err := s.Events(m.ID)
	require.NoError(t, err)
	require.Len(t, events, 1)
	assert.Equal(t, EventCreated, events[0].Kind)

	h, _ := openStore(t, HandoffLifecycle())
	hm, err := h.Create("login", "", nil)
	require.NoError(t, err)
	assert.Equal(t, StatusRunning, hm.Status)
	require.NotNil(t, hm.StartedAt, "a handoff starts RUNNING")
	assert.Nil(t, hm.Detail)

	_, err = s.Create("", "", nil)
	assert.ErrorIs(t, err, protocol.ErrBadRequest, "kind is required")
	_, err = s.Create("crawl", "", func() {})
	assert.ErrorIs(t, err, protocol.ErrBadRequest, "detail must be JSON")
}

func TestIDsIncreaseWithCreation(t *testing.T) {
	s, clock := openStore(t, TaskLifecycle())
	var prev string
	for i := range 50 {
		if i%10 == 0 {
			clock.Advance(time.Millisecond)
		}
		m, err := s.Create("crawl", "", nil)
		require.NoError(t, err)
		assert.Greater(t, m.ID, prev, "ids of one store increase, even within a millisecond")
		prev = m.ID
	}
}

func TestIDsAreValidated(t *testing.T) {
	ctx := context.Background()
	s, _ := openStore(t, TaskLifecycle())
	outside := filepath.Join(filepath.Dir(s.Root()), "x")
	tests := []struct{ name, id string }{
		{"empty", ""},
		{"path traversal", "../../x"},
		{"path traversal of the right length", "../../../../../x"},
		{"absolute path", "/etc/passwd00000"},
		{"separator inside", "0123456/89abcdef"},
		{"uppercase", "0123456789ABCDEF"},
		{"too short", "0123456789abcde"},
		{"too long", "0123456789abcdef0"},
		{"not hex", "0123456789abcdeg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Get(tt.id)
			assert.ErrorIs(t, err, protocol.ErrBadRequest, "get")
			_, err = s.Update(ctx, tt.id, func(*Meta) error { return nil })
			assert.ErrorIs(t, err, protocol.ErrBadRequest, "update")
			_, err = s.Transition(ctx, tt.id, StatusRunning, nil)
			assert.ErrorIs(t, err, protocol.ErrBadRequest, "transition")
			_, err = s.RequestCancel(ctx, tt.id)
			assert.ErrorIs(t, err, protocol.ErrBadRequest, "cancel")
			assert.ErrorIs(t, s.Append(ctx, tt.id, "page", nil), protocol.ErrBadRequest, "append")
			assert.ErrorIs(t, s.WriteResult(ctx, tt.id, 1), protocol.ErrBadRequest, "result")
			_, err = s.Events(tt.id)
			assert.ErrorIs(t, err, protocol.ErrBadRequest, "events")
			_, err = s.Result(tt.id)
			assert.ErrorIs(t, err, protocol.ErrBadRequest, "read result")
			_, err = s.Wait(ctx, tt.id)
			assert.ErrorIs(t, err, protocol.ErrBadRequest, "wait")
		})
	}
	_, err := os.Stat(outside)
	assert.ErrorIs(t, err, os.ErrNotExist, "nothing was created outside the root")
}

func TestUnknownIDsAreNotFound(t *testing.T) {
	ctx := context.Background()
	s, _ := openStore(t, TaskLifecycle())
	const id = "0123456789abcdef"
	_, err := s.Get(id)
	assert.ErrorIs(t, err, protocol.ErrNotFound)
	_, err = s.Update(ctx, id, func(*Meta) error { return nil })
	assert.ErrorIs(t, err, protocol.ErrNotFound)
	_, err = s.RequestCancel(ctx, id)
	assert.ErrorIs(t, err, protocol.ErrNotFound)
	assert.ErrorIs(t, s.Append(ctx, id, "page", nil), protocol.ErrNotFound)
	_, err = s.Events(id)
	assert.ErrorIs(t, err, protocol.ErrNotFound)
	_, err = s.Wait(ctx, id)
	assert.ErrorIs(t, err, protocol.ErrNotFound)
	_, err = os.Stat(s.dir(id))
	assert.ErrorIs(t, err, os.ErrNotExist, "looking up an id does not create it")
}

func TestUpdateKeepsWhatTheStoreOwns(t *testing.T) {
	ctx := context.Background()
	s, clock := openStore(t, TaskLifecycle())
	m, err := s.Create("crawl", "", nil)
	require.NoError(t, err)
	require.NoError(t, s.WriteResult(ctx, m.ID, []string{"a"}))
	clock.Advance(time.Second)

	got, err := s.Update(ctx, m.ID, func(m *Meta) error {
		m.ID, m.Kind, m.CreatedAt, m.ResultBytes = "ffffffffffffffff", "other", time.Time{}, 99
		forged := time.Unix(0, 0).UTC()
		m.UpdatedAt, m.StartedAt, m.FinishedAt, m.CancelRequestedAt, m.PID = forged, &forged, &forged, &forged, 1
		m.Progress = &Progress{Done: 1, Total: 5, Message: "crawled /a"}
		m.Evidence = append(m.Evidence, Evidence{Kind: "handoff", Ref: "0123456789abcdef", At: clock.Now()})
		m.Detail = json.RawMessage(`{"k":1}`)
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, m.ID, got.ID)
	assert.Equal(t, "crawl", got.Kind)
	assert.Equal(t, m.CreatedAt, got.CreatedAt)
	assert.Equal(t, int64(len(`["a"]`)), got.ResultBytes)
	assert.Equal(t, clock.Now(), got.UpdatedAt)
	assert.Nil(t, got.StartedAt)
	assert.Nil(t, got.FinishedAt)
	assert.Nil(t, got.CancelRequestedAt)
	assert.Equal(t, os.Getpid(), got.PID)
	assert.Equal(t, &Progress{Done: 1, Total: 5, Message: "crawled /a"}, got.Progress)
	require.Len(t, got.Evidence, 1)

	stored, err := s.Get(m.ID)
	require.NoError(t, err)
	assert.Equal(t, got, stored)

	_, err = s.Update(ctx, m.ID, func(m *Meta) error { m.Detail = json.RawMessage(`{nope`); return nil })
	assert.ErrorIs(t, err, protocol.ErrBadRequest)
}

func TestTransitionStampsTimesAndOwner(t *testing.T) {
	ctx := context.Background()
	s, clock := openStore(t, TaskLifecycle())
	m, err := s.Create("crawl", "", nil)
	require.NoError(t, err)

	// Another daemon (same root, other pid) starts the task: it owns it now.
	clock.Advance(time.Second)
	other, err := Open(s.Root(), TaskLifecycle(), Options{Now: clock.Now, PID: 4242})
	require.NoError(t, err)
	running, err := other.Transition(ctx, m.ID, StatusRunning, nil)
	require.NoError(t, err)
	require.NotNil(t, running.StartedAt)
	assert.Equal(t, clock.Now(), *running.StartedAt)
	assert.Equal(t, 4242, running.PID)
	assert.Nil(t, running.FinishedAt)

	clock.Advance(time.Second)
	failed, err := s.Transition(ctx, m.ID, StatusFailed, func(m *Meta) {
		m.Error = &ErrorInfo{Code: string(protocol.CodeTimeout), Message: "page load timed out"}
	})
	require.NoError(t, err)
	require.NotNil(t, failed.FinishedAt)
	assert.Equal(t, clock.Now(), *failed.FinishedAt)
	assert.Equal(t, running.StartedAt, failed.StartedAt)
	assert.Equal(t, "page load timed out", failed.Error.Message)
}

func TestRequestCancel(t *testing.T) {
	ctx := context.Background()
	s, clock := openStore(t, TaskLifecycle())
	m, err := s.Create("crawl", "", nil)
	require.NoError(t, err)
	_, err = s.Transition(ctx, m.ID, StatusRunning, nil)
	require.NoError(t, err)

	first, err := s.RequestCancel(ctx, m.ID)
	require.NoError(t, err)
	require.NotNil(t, first.CancelRequestedAt)
	assert.Equal(t, StatusRunning, first.Status, "cancel is cooperative: the runner ends the task")
	clock.Advance(time.Second)
	second, err := s.RequestCancel(ctx, m.ID)
	require.NoError(t, err)
	assert.Equal(t, first.CancelRequestedAt, second.CancelRequestedAt, "the first request's time is kept")

	events, err := s.Events(m.ID)
	require.NoError(t, err)
	var kinds []string
	for _, e := range events {
		kinds = append(kinds, e.Kind)
	}
	assert.Equal(t, []string{EventCreated, EventStatus, EventCancelRequested}, kinds)
}

func TestResults(t *testing.T) {
	ctx := context.Background()
	s, _ := openStore(t, TaskLifecycle())
	m, err := s.Create("crawl", "", nil)
	require.NoError(t, err)
	_, err = s.Result(m.ID)
	assert.ErrorIs(t, err, protocol.ErrNotFound, "no result yet")

	require.NoError(t, s.WriteResult(ctx, m.ID, map[string]any{"pages": []string{"/a"}}))
	require.NoError(t, s.WriteResult(ctx, m.ID, map[string]any{"pages": []string{"/a", "/b"}}))
	got, err := s.Result(m.ID)
	require.NoError(t, err)
	assert.JSONEq(t, `{"pages":["/a","/b"]}`, string(got))
	meta, err := s.Get(m.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(len(got)), meta.ResultBytes)
	st, err := os.Stat(s.file(m.ID, resultFile))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())

	assert.ErrorIs(t, s.WriteResult(ctx, m.ID, func() {}), protocol.ErrBadRequest)
}

// lockFree reports whether nobody holds the record's lock.
func lockFree(t *testing.T, s *Store, id string) bool {
	t.Helper()
	l, err := TryLock(s.file(id, lockFile))
	if errors.Is(err, ErrLocked) {
		return false
	}
	require.NoError(t, err)
	require.NoError(t, l.Unlock())
	return true
}

func TestTheLockIsReleasedWhateverHappens(t *testing.T) {
	boom := protocol.Errorf(protocol.CodeBudgetExceeded, "over budget")
	tests := []struct {
		name    string
		fn      func(s *Store) func(*Meta) error
		wantErr error
		panics  bool
	}{
		{
			name: "the mutate func fails",
			fn: func(*Store) func(*Meta) error {
				return func(m *Meta) error { m.ArgsSummary = "changed"; return boom }
			},
			wantErr: protocol.ErrBudgetExceeded,
		},
		{
			name: "the mutate func panics",
			fn: func(*Store) func(*Meta) error {
				return func(m *Meta) error { m.ArgsSummary = "changed"; panic("runner bug") }
			},
			panics: true,
		},
		{
			name: "writing meta.json fails",
			fn: func(s *Store) func(*Meta) error {
				return func(m *Meta) error {
					// A non-empty directory where meta.json was: the
					// atomic rename onto it fails, even for root.
					path := s.file(m.ID, metaFile)
					if err := os.Remove(path); err != nil {
						return err
					}
					if err := os.MkdirAll(filepath.Join(path, "in-the-way"), 0o700); err != nil {
						return err
					}
					m.ArgsSummary = "changed"
					return nil
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s, _ := openStore(t, TaskLifecycle())
			m, err := s.Create("crawl", "original", nil)
			require.NoError(t, err)

			var (
				upErr     error
				recovered any
			)
			func() {
				defer func() { recovered = recover() }()
				_, upErr = s.Update(ctx, m.ID, tt.fn(s))
			}()
			if tt.panics {
				assert.Equal(t, "runner bug", recovered)
			} else {
				assert.Nil(t, recovered)
				require.Error(t, upErr)
				if tt.wantErr != nil {
					assert.ErrorIs(t, upErr, tt.wantErr, "the func's coded error comes back")
				}
			}
			assert.True(t, lockFree(t, s, m.ID), "the lock was released")

			if fi, err := os.Stat(s.file(m.ID, metaFile)); err == nil && fi.IsDir() {
				require.NoError(t, os.RemoveAll(s.file(m.ID, metaFile)))
				require.NoError(t, s.writeMeta(m))
			}
			got, err := s.Get(m.ID)
			require.NoError(t, err)
			assert.Equal(t, "original", got.ArgsSummary, "nothing was written")
			_, err = s.Transition(ctx, m.ID, StatusRunning, nil)
			assert.NoError(t, err, "the record can be updated again")
		})
	}
}

func TestConcurrentUpdatesAreNotLost(t *testing.T) {
	ctx := context.Background()
	s, _ := openStore(t, TaskLifecycle())
	m, err := s.Create("crawl", "", nil)
	require.NoError(t, err)
	// Two stores on one root stand for two processes: only the flock
	// serializes them.
	other, err := Open(s.Root(), TaskLifecycle(), Options{})
	require.NoError(t, err)

	const n = 20
	var wg sync.WaitGroup
	for i := range n {
		store := s
		if i%2 == 1 {
			store = other
		}
		wg.Go(func() {
			_, err := store.Update(ctx, m.ID, func(m *Meta) error {
				if m.Progress == nil {
					m.Progress = &Progress{Total: n}
				}
				m.Progress.Done++
				return nil
			})
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	got, err := s.Get(m.ID)
	require.NoError(t, err)
	assert.Equal(t, n, got.Progress.Done)
}

func TestUpdateGivesUpOnAHeldLockWithItsContext(t *testing.T) {
	s, _ := openStore(t, TaskLifecycle())
	m, err := s.Create("crawl", "", nil)
	require.NoError(t, err)
	held, err := TryLock(s.file(m.ID, lockFile))
	require.NoError(t, err)
	defer held.Unlock()

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err = s.Update(ctx, m.ID, func(*Meta) error { return nil })
	assert.ErrorIs(t, err, protocol.ErrTimeout)

	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	_, err = s.Transition(ctx, m.ID, StatusRunning, nil)
	assert.ErrorIs(t, err, protocol.ErrCancelled)
}

func TestHomeRoots(t *testing.T) {
	h := Home("/home/alice/.openchrome")
	assert.Equal(t, "/home/alice/.openchrome/tasks", h.Tasks())
	assert.Equal(t, "/home/alice/.openchrome/handoffs", h.Handoffs())
}
