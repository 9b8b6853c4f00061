package task

import (
	"context"
	"fmt"
)

// A Job is the body of a long-running tool. The same job runs when the tool
// is called directly, reporting progress to the MCP client, and as a
// background task, reporting to the ledger; so both give the same result.
//
// A job that stops early (cancelled, failed) returns what it has done so
// far with its error; the runner keeps it as the task's result.
type Job func(ctx context.Context, s *Sink) (any, error)

// Sink is where a job reports while it works. A nil Sink, or one whose
// functions are nil, drops the reports.
type Sink struct {
	// OnProgress, if set, receives how far the job has got.
	OnProgress func(done, total float64, message string)
	// OnPartial, if set, keeps what the job has done so far, so a job that
	// dies with its daemon leaves it behind.
	OnPartial func(v any)
}

// Progress reports how far the job has got.
func (s *Sink) Progress(done, total float64, format string, args ...any) {
	if s != nil && s.OnProgress != nil {
		s.OnProgress(done, total, fmt.Sprintf(format, args...))
	}
}

// Partial keeps the result so far.
func (s *Sink) Partial(v any) {
	if s != nil && s.OnPartial != nil {
		s.OnPartial(v)
	}
}
