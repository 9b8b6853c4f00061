package ledger

import (
	"fmt"
	"slices"
)

// Status is where a record stands in its [Lifecycle].
type Status string

// The statuses of the two lifecycles the daemon uses.
const (
	StatusPending   Status = "PENDING"
	StatusRunning   Status = "RUNNING"
	StatusCompleted Status = "COMPLETED"
	StatusFailed    Status = "FAILED"
	StatusCancelled Status = "CANCELLED"
	StatusFinished  Status = "FINISHED"
	StatusTimedOut  Status = "TIMED_OUT"
)

// Lifecycle is the state machine of one kind of record. A status with no
// outgoing transition is terminal: once there, a record never changes again.
// The zero value is not usable; see [TaskLifecycle] and [HandoffLifecycle].
type Lifecycle struct {
	// Noun names a record in messages ("task 0190f3c2a1b4e5d6 not found").
	Noun string
	// Initial is the status [Store.Create] gives a new record.
	Initial Status
	// Running is the status in which the work runs: entering it sets
	// started_at and makes the entering process the record's owner (pid).
	Running Status
	// Next lists, for each status, the statuses it may move to.
	Next map[Status][]Status
	// Orphaned is the terminal status [Store.ReapOrphans] gives a record
	// whose owner died before the record reached a terminal status. Every
	// non-terminal status must be allowed to move to it.
	Orphaned Status
}

// TaskLifecycle is the lifecycle of background tasks (crawls, recordings...):
// PENDING -> RUNNING -> COMPLETED | FAILED | CANCELLED, and a task that never
// started may be cancelled or fail. Orphans become FAILED.
func TaskLifecycle() Lifecycle {
	return Lifecycle{
		Noun:    "task",
		Initial: StatusPending,
		Running: StatusRunning,
		Next: map[Status][]Status{
			StatusPending: {StatusRunning, StatusCancelled, StatusFailed},
			StatusRunning: {StatusCompleted, StatusFailed, StatusCancelled},
		},
		Orphaned: StatusFailed,
	}
}

// HandoffLifecycle is the lifecycle of human handoff checkpoints: a handoff
// starts RUNNING (the human has the browser) and ends FINISHED, CANCELLED or
// TIMED_OUT. The daemon adopts the handoffs a dead predecessor left
// ([Store.Adopt]) rather than reaping them: the person may still be at work,
// and the deadline decides. Reaped anyway, a handoff has no FAILED status and
// becomes CANCELLED (error.code "orphaned"), never a successful checkpoint.
func HandoffLifecycle() Lifecycle {
	return Lifecycle{
		Noun:    "handoff",
		Initial: StatusRunning,
		Running: StatusRunning,
		Next: map[Status][]Status{
			StatusRunning: {StatusFinished, StatusCancelled, StatusTimedOut},
		},
		Orphaned: StatusCancelled,
	}
}

// Known reports whether s is a status of this lifecycle.
func (l Lifecycle) Known(s Status) bool {
	if s == "" {
		return false
	}
	if s == l.Initial {
		return true
	}
	for from, tos := range l.Next {
		if from == s || slices.Contains(tos, s) {
			return true
		}
	}
	return false
}

// Statuses lists the lifecycle's statuses, the initial one first, then in
// the order transitions reach them (for a tool schema's enum, say).
func (l Lifecycle) Statuses() []Status {
	out := []Status{l.Initial}
	for i := 0; i < len(out); i++ {
		for _, to := range l.Next[out[i]] {
			if !slices.Contains(out, to) {
				out = append(out, to)
			}
		}
	}
	return out
}

// Terminal reports whether s is a known status with no way out.
func (l Lifecycle) Terminal(s Status) bool {
	return l.Known(s) && len(l.Next[s]) == 0
}

// Allows reports whether a record may move from one status to another.
func (l Lifecycle) Allows(from, to Status) bool {
	return slices.Contains(l.Next[from], to)
}

// validate checks the lifecycle once, at [Open], so a mistake in a table is
// found at start-up rather than on the first orphan.
func (l Lifecycle) validate() error {
	switch {
	case l.Noun == "":
		return fmt.Errorf("ledger: lifecycle has no noun")
	case !l.Known(l.Initial) || l.Terminal(l.Initial):
		return fmt.Errorf("ledger: %s lifecycle: initial status %q must be known and not terminal", l.Noun, l.Initial)
	case !l.Known(l.Running) || l.Terminal(l.Running):
		return fmt.Errorf("ledger: %s lifecycle: running status %q must be known and not terminal", l.Noun, l.Running)
	case !l.Terminal(l.Orphaned):
		return fmt.Errorf("ledger: %s lifecycle: orphaned status %q must be terminal", l.Noun, l.Orphaned)
	}
	for from := range l.Next {
		if !l.Allows(from, l.Orphaned) {
			return fmt.Errorf("ledger: %s lifecycle: %s cannot move to orphaned status %s", l.Noun, from, l.Orphaned)
		}
	}
	return nil
}

// clone copies the transition table, so a caller editing its Lifecycle after
// [Open] cannot change a live store's rules.
func (l Lifecycle) clone() Lifecycle {
	next := make(map[Status][]Status, len(l.Next))
	for from, tos := range l.Next {
		next[from] = slices.Clone(tos)
	}
	l.Next = next
	return l
}
