package ledger

import (
	"context"
	"errors"
	"fmt"

	"github.com/openchrome/openchrome/protocol"
)

// errNotOrphan aborts a reap when, under the lock, the record turns out to
// have been finished or adopted since it was first read.
var errNotOrphan = errors.New("ledger: not an orphan")

// ReapOrphans ends every non-terminal record whose owner process is gone (and
// is not this process): the record moves to the lifecycle's Orphaned status
// with error.code "orphaned", its partial result.json is kept, and an
// "orphaned" event follows the "status" one. Nobody else will ever finish such
// a record, and a Wait on it would otherwise last until its deadline.
//
// The daemon calls it at start-up, before it accepts new work. Records
// owned by a live process (a second daemon sharing the home) are left alone.
// It returns the records it reaped, oldest first; a record it could not reap
// is reported in the joined error and does not stop the others.
func (s *Store) ReapOrphans(ctx context.Context) ([]Meta, error) {
	ids, err := s.ids()
	if err != nil {
		return nil, err
	}
	var (
		reaped []Meta
		errs   []error
	)
	for i := len(ids) - 1; i >= 0; i-- {
		id := formatID(ids[i])
		if m, err := s.readMeta(id); err != nil || !s.orphan(m) {
			continue
		}
		var was Meta
		m, err := s.updateWith(ctx, id, func(m *Meta) error {
			if !s.orphan(*m) {
				return errNotOrphan
			}
			was = *m
			m.Status = s.life.Orphaned
			m.Error = &ErrorInfo{
				Code:    CodeOrphaned,
				Message: fmt.Sprintf("the daemon (pid %d) stopped while this %s was %s", was.PID, s.life.Noun, was.Status),
			}
			return nil
		}, func(m Meta) {
			_ = s.appendLocked(id, m.UpdatedAt, EventOrphaned, map[string]any{"pid": was.PID, "from": was.Status})
		})
		switch {
		case err == nil:
			reaped = append(reaped, m)
		case errors.Is(err, errNotOrphan), errors.Is(err, protocol.ErrConflict), errors.Is(err, protocol.ErrNotFound):
			// Finished, reaped by another daemon, or gone meanwhile.
		case errors.Is(err, protocol.ErrTimeout), errors.Is(err, protocol.ErrCancelled):
			return reaped, errors.Join(append(errs, err)...)
		default:
			errs = append(errs, err)
		}
	}
	return reaped, errors.Join(errs...)
}

// orphan reports whether m is unfinished and owned by a dead process other
// than this one.
func (s *Store) orphan(m Meta) bool {
	return !s.life.Terminal(m.Status) && m.PID != s.pid && !s.alive(m.PID)
}

// Adopt makes this store's process the owner of an unfinished record whose
// owner has died, and appends an "adopted" event. The daemon adopts the
// handoffs its predecessor left: the person may still be at work in the
// browser, and the deadline, not the daemon's death, decides when a handoff
// ends. A record owned by a live process, or already this process's, is
// left as it is (conflict); a terminal one cannot change (conflict).
func (s *Store) Adopt(ctx context.Context, id string) (Meta, error) {
	var was int
	return s.updateWith(ctx, id, func(m *Meta) error {
		if !s.orphan(*m) {
			return protocol.Errorf(protocol.CodeConflict, "%s %s is owned by a live process (pid %d)", s.life.Noun, id, m.PID)
		}
		was, m.PID = m.PID, s.pid
		return nil
	}, func(m Meta) {
		_ = s.appendLocked(id, m.UpdatedAt, EventAdopted, map[string]any{"from_pid": was})
	})
}
