package task

import (
	"context"
	"fmt"
	"sync"
)

// A Job is the body of a long-running tool. The same job runs when the tool
// is called directly, reporting progress to the MCP client, and as a
// background task, reporting to the ledger; so both give the same result.
//
// A job that stops early (cancelled, failed) returns what it has done so
// far with its error; the runner keeps it as the task's result.
type Job func(ctx context.Context, s *Sink) (any, error)

// Sink is where a job reports while it works. A nil Sink, or one whose
// functions are nil, drops the reports. A job may report from several
// goroutines (a crawl's workers): the Sink calls its functions one at a
// time, in the order the reports arrive.
type Sink struct {
	// OnProgress, if set, receives how far the job has got.
	OnProgress func(done, total float64, message string)
	// OnPartial, if set, keeps what the job has done so far, so a job that
	// dies with its daemon leaves it behind.
	OnPartial func(v any)
	// OnState, if set, receives a change in how the job stands that is not
	// progress, e.g. waiting_for_browser: kind names it, message says it,
	// done and total are the last progress reported. A task records it as
	// an event of that kind and shows message as its progress at once.
	OnState func(kind, message string, done, total float64)

	mu          sync.Mutex // serializes the calls above, guards the fields below
	done, total float64    // the last progress, which State repeats
}

// Progress reports how far the job has got.
func (s *Sink) Progress(done, total float64, format string, args ...any) {
	if s != nil && s.OnProgress != nil {
		msg := fmt.Sprintf(format, args...)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.done, s.total = done, total
		s.OnProgress(done, total, msg)
	}
}

// State reports a change in how the job stands (kind, e.g.
// "waiting_for_browser"), with the message a person reads.
func (s *Sink) State(kind, format string, args ...any) {
	if s != nil && s.OnState != nil {
		msg := fmt.Sprintf(format, args...)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.OnState(kind, msg, s.done, s.total)
	}
}

// Partial keeps the result so far.
func (s *Sink) Partial(v any) {
	if s != nil && s.OnPartial != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.OnPartial(v)
	}
}
