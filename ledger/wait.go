package ledger

import (
	"context"
	"time"

	"github.com/openchrome/openchrome/protocol"
)

// pollInterval bounds how late [Store.Wait] notices a transition made by
// another process (or another Store on the same root), which it can only see
// on disk. One small file read per interval per waiter is cheap; a transition
// made through this Store wakes its waiters at once instead.
const pollInterval = 50 * time.Millisecond

// waiters is the wake-up channel of one record, shared by every Wait on it.
type waiters struct {
	ch chan struct{} // closed when the record becomes terminal
	n  int           // Waits using ch; the entry goes when the last leaves
}

// Wait blocks until the record is terminal and returns its final meta. A
// transition made through this Store wakes it at once; one made elsewhere is
// seen within [pollInterval]. Callers bound the wait with ctx: its deadline
// gives a timeout-coded error, its cancellation a cancelled-coded one, each
// returned with the meta as it last stood.
func (s *Store) Wait(ctx context.Context, id string) (Meta, error) {
	if err := s.checkID(id); err != nil {
		return Meta{}, err
	}
	// Watch before the first read, so a transition between the read and
	// the select still wakes us.
	woken, stop := s.watch(id)
	defer stop()
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for {
		m, err := s.readMeta(id)
		if err != nil {
			return Meta{}, err
		}
		if s.life.Terminal(m.Status) {
			s.settle(ctx, id)
			return m, nil
		}
		select {
		case <-woken:
			woken = nil // closed for good: from now on rely on the ticker
		case <-tick.C:
		case <-ctx.Done():
			code, _ := ctxCode(ctx.Err())
			return m, protocol.Errorf(code, "%s %s is still %s", s.life.Noun, id, m.Status).WithCause(ctx.Err())
		}
	}
}

// settle waits for whoever made the record terminal to let go of its lock:
// meta.json is written under the lock, so a reader can see the end before
// the writer has finished, and a caller woken by Wait may take the lock next
// (to clean up or to read) and must not find it held. Past ctx, the terminal
// meta is still the answer.
func (s *Store) settle(ctx context.Context, id string) {
	if lock, err := s.lock(ctx, id); err == nil {
		lock.Unlock()
	}
}

// watch returns the channel closed when this Store makes id terminal, and the
// func to call when no longer waiting.
func (s *Store) watch(id string) (<-chan struct{}, func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.done[id]
	if w == nil {
		w = &waiters{ch: make(chan struct{})}
		s.done[id] = w
	}
	w.n++
	return w.ch, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		w.n--
		if w.n == 0 && s.done[id] == w {
			delete(s.done, id)
		}
	}
}

// wake releases every Wait on id; called after meta.json says terminal.
func (s *Store) wake(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.done[id]; w != nil {
		close(w.ch)
		delete(s.done, id)
	}
}

// WaitersForTest reports how many Waits are registered on id, so a test can
// start a transition only once its waiter is listening instead of sleeping
// and hoping. Nothing else should need it.
func (s *Store) WaitersForTest(id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.done[id]; w != nil {
		return w.n
	}
	return 0
}
