package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/protocol"
)

// A job is the body of a long-running tool (crawl, recording, ...). The same
// job runs when the tool is called directly, reporting progress to the MCP
// client, and when it runs as a background task, reporting to the ledger; so
// both give the same result shape.
//
// A job that stops early (cancelled, failed) returns what it has done so far
// with its error; the task runner keeps it as the task's result.
type job func(ctx context.Context, c *call, raw json.RawMessage, s *sink) (any, error)

// sink is where a job reports while it works. Its methods do nothing when
// nobody listens.
type sink struct {
	// progress, if set, receives how far the job has got.
	progress func(done, total float64, message string)
	// partial, if set, keeps what the job has done so far, so a job that
	// dies with its daemon leaves it behind.
	partial func(v any)
}

// Progress reports how far the job has got.
func (s *sink) Progress(done, total float64, format string, args ...any) {
	if s != nil && s.progress != nil {
		s.progress(done, total, fmt.Sprintf(format, args...))
	}
}

// Partial keeps the result so far.
func (s *sink) Partial(v any) {
	if s != nil && s.partial != nil {
		s.partial(v)
	}
}

// defineJob builds a long-running tool: callable directly, and startable as a
// background task with oc_task_start (kind = the tool's name).
func defineJob[In any](name, description string, h func(context.Context, *call, In, *sink) (any, error), shape ...func(*jsonschema.Schema)) Tool {
	t := define(name, GroupLong, description, func(ctx context.Context, c *call, in In) (*protocol.ToolResult, error) {
		out, err := h(ctx, c, in, &sink{progress: c.progress})
		if err != nil {
			return nil, err
		}
		return jsonResult(out)
	}, shape...)
	resolved := t.resolved
	t.job = func(ctx context.Context, c *call, raw json.RawMessage, s *sink) (any, error) {
		var in In
		if err := decodeArgs(resolved, raw, &in); err != nil {
			return nil, err
		}
		return h(ctx, c, in, s)
	}
	return t
}
