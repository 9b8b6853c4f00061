package ledger

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

type waited struct {
	m   Meta
	err error
	at  time.Time
}

// startWait runs Wait in a goroutine and returns once it is registered, so a
// transition made after it cannot be missed by accident of scheduling.
func startWait(t testing.TB, ctx context.Context, s *Store, id string) <-chan waited {
	t.Helper()
	out := make(chan waited, 1)
	before := s.WaitersForTest(id)
	go func() {
		m, err := s.Wait(ctx, id)
		out <- waited{m, err, time.Now()}
	}()
	for s.WaitersForTest(id) == before {
		runtime.Gosched()
	}
	return out
}

func TestWaitWakesOnATransitionInThisProcess(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir(), HandoffLifecycle(), Options{})
	require.NoError(t, err)
	m, err := s.Create("login", "", nil)
	require.NoError(t, err)

	a := startWait(t, ctx, s, m.ID)
	b := startWait(t, ctx, s, m.ID)
	start := time.Now()
	_, err = s.Transition(ctx, m.ID, StatusFinished, nil)
	require.NoError(t, err)
	for _, ch := range []<-chan waited{a, b} {
		select {
		case w := <-ch:
			require.NoError(t, w.err)
			assert.Equal(t, StatusFinished, w.m.Status)
			assert.Less(t, w.at.Sub(start), time.Second)
		case <-time.After(5 * time.Second):
			t.Fatal("Wait did not wake")
		}
	}
	assert.Empty(t, s.done, "no waiter left registered")
}

func TestWaitSeesAnotherProcessesTransition(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir(), TaskLifecycle(), Options{})
	require.NoError(t, err)
	// A second store on the same root stands for another process: its
	// transitions reach s only through the disk.
	other, err := Open(s.Root(), TaskLifecycle(), Options{PID: 4242})
	require.NoError(t, err)
	m, err := s.Create("crawl", "", nil)
	require.NoError(t, err)
	_, err = other.Transition(ctx, m.ID, StatusRunning, nil)
	require.NoError(t, err)

	ch := startWait(t, ctx, s, m.ID)
	select {
	case w := <-ch:
		t.Fatalf("Wait returned before the task ended: %+v", w)
	default:
	}
	start := time.Now()
	_, err = other.Transition(ctx, m.ID, StatusCompleted, nil)
	require.NoError(t, err)
	select {
	case w := <-ch:
		require.NoError(t, w.err)
		assert.Equal(t, StatusCompleted, w.m.Status)
		assert.Less(t, w.at.Sub(start), time.Second)
	case <-time.After(5 * time.Second):
		t.Fatal("Wait did not notice the other store's transition")
	}
}

// A writer makes a record terminal under its lock, so a waiter can see the
// end while the lock is still held. Wait returns only once it is let go: the
// caller may take it next (a test checking the runner cleaned up did, and
// found it held).
func TestWaitReturnsOnceTheWriterLetsGo(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir(), TaskLifecycle(), Options{})
	require.NoError(t, err)
	m, err := s.Create("crawl", "", nil)
	require.NoError(t, err)
	_, err = s.Transition(ctx, m.ID, StatusRunning, nil)
	require.NoError(t, err)
	ch := startWait(t, ctx, s, m.ID)

	// Stand where updateWith stands after writing meta.json.
	lock, err := s.lock(ctx, m.ID)
	require.NoError(t, err)
	m, err = s.readMeta(m.ID)
	require.NoError(t, err)
	m.Status = StatusFailed
	require.NoError(t, s.writeMeta(m))
	s.wake(m.ID)
	select {
	case w := <-ch:
		t.Fatalf("Wait returned while the writer held the lock: %+v", w)
	case <-time.After(3 * pollInterval):
	}

	lock.Unlock()
	select {
	case w := <-ch:
		require.NoError(t, w.err)
		assert.Equal(t, StatusFailed, w.m.Status)
		held, err := TryLock(s.file(m.ID, lockFile))
		require.NoError(t, err, "the lock is free for the waiter")
		held.Unlock()
	case <-time.After(5 * time.Second):
		t.Fatal("Wait did not return once the lock was let go")
	}
}

func TestWaitOnATerminalRecordReturnsAtOnce(t *testing.T) {
	ctx := context.Background()
	s, _ := openStore(t, TaskLifecycle())
	m, err := s.Create("crawl", "", nil)
	require.NoError(t, err)
	_, err = s.Transition(ctx, m.ID, StatusCancelled, nil)
	require.NoError(t, err)

	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	got, err := s.Wait(ctx, m.ID)
	require.NoError(t, err)
	assert.Equal(t, StatusCancelled, got.Status)
}

func TestWaitEndsWithItsContext(t *testing.T) {
	tests := []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		want error
	}{
		{"deadline", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 30*time.Millisecond)
		}, protocol.ErrTimeout},
		{"cancel", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(30*time.Millisecond, cancel)
			return ctx, cancel
		}, protocol.ErrCancelled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := openStore(t, TaskLifecycle())
			m, err := s.Create("crawl", "", nil)
			require.NoError(t, err)
			ctx, cancel := tt.ctx()
			defer cancel()

			got, err := s.Wait(ctx, m.ID)
			assert.ErrorIs(t, err, tt.want)
			assert.Equal(t, StatusPending, got.Status, "the meta as it stands comes back")
			assert.Empty(t, s.done, "the waiter unregistered")
		})
	}
}

// BenchmarkWaitWake measures how long a Wait takes to return after a
// terminal transition: "wake-µs" runs from the start of Transition to Wait
// returning, so it includes the transition itself ("transition-µs": the
// locked, fsync'd replace of meta.json and the event). "this-store"
// is the in-process notification; "other-store" is a second Store on the
// same root, as another process would be, seen by polling.
func BenchmarkWaitWake(b *testing.B) {
	ctx := context.Background()
	for _, other := range []bool{false, true} {
		name := "this-store"
		if other {
			name = "other-store"
		}
		b.Run(name, func(b *testing.B) {
			s, err := Open(b.TempDir(), HandoffLifecycle(), Options{})
			require.NoError(b, err)
			mover := s
			if other {
				mover, err = Open(s.Root(), HandoffLifecycle(), Options{})
				require.NoError(b, err)
			}
			var total, worst, writes time.Duration
			n := 0
			for b.Loop() {
				b.StopTimer()
				m, err := s.Create("login", "", nil)
				require.NoError(b, err)
				ch := startWait(b, ctx, s, m.ID)
				b.StartTimer()

				start := time.Now()
				_, err = mover.Transition(ctx, m.ID, StatusFinished, nil)
				require.NoError(b, err)
				writes += time.Since(start)
				w := <-ch
				require.NoError(b, w.err)
				d := w.at.Sub(start)
				total += d
				worst = max(worst, d)
				n++
			}
			b.ReportMetric(float64(total.Microseconds())/float64(n), "wake-µs")
			b.ReportMetric(float64(worst.Microseconds()), "worst-wake-µs")
			b.ReportMetric(float64(writes.Microseconds())/float64(n), "transition-µs")
		})
	}
}
