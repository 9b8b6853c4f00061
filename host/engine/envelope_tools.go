package engine

import (
	"context"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/task"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// openEnvelope is oc_task_start without kind: an envelope the agent's
// calls count against when they pass its task_id as taskId.
func openEnvelope(ctx context.Context, c *call, d task.Detail) (*protocol.ToolResult, error) {
	e := c.engine
	summary := e.red.Args([]byte(mustJSON(d)), ledger.MaxArgsSummary)
	d.Objective = e.red.Text(d.Objective)
	m, err := e.envelopes.Open(ctx, d, summary)
	if err != nil {
		return nil, err
	}
	v, err := e.envelopes.Get(m.ID)
	if err != nil {
		return nil, err
	}
	return jsonResult(map[string]any{"task_id": m.ID, "status": m.Status, "objective": v.Objective, "phase": v.Phase,
		"policy": v.Policy, "next": "pass taskId on each browser call; oc_task_update as the phase changes; oc_task_finish when done"})
}

// envelopes returns the keeper of envelopes, or says there is none.
func (c *call) envelopeKeeper() (*task.Envelopes, error) {
	if c.engine.envelopes == nil {
		return nil, protocol.Errorf(protocol.CodeInternal, "this engine keeps no tasks")
	}
	return c.engine.envelopes, nil
}

type taskUpdateIn struct {
	TaskID string `json:"task_id"`
	Phase  string `json:"phase,omitempty"`
	Note   string `json:"note,omitempty"`
}

func (in *taskUpdateIn) validate() error {
	if in.Phase == "" && strings.TrimSpace(in.Note) == "" {
		return protocol.Errorf(protocol.CodeBadRequest, "pass phase, note or both")
	}
	return nil
}

func taskUpdateTool() Tool {
	return local(define("oc_task_update", GroupTasks,
		"Set an envelope's phase or add a note.",
		func(ctx context.Context, c *call, in taskUpdateIn) (*protocol.ToolResult, error) {
			k, err := c.envelopeKeeper()
			if err != nil {
				return nil, err
			}
			v, err := k.Update(ctx, in.TaskID, in.Phase, c.engine.red.Text(in.Note))
			if err != nil {
				return nil, err
			}
			return jsonResult(v)
		},
		func(s *jsonschema.Schema) { enum(s, "phase", task.Phases()...) }))
}

type taskFinishIn struct {
	TaskID  string `json:"task_id"`
	Outcome string `json:"outcome"`
	Note    string `json:"note,omitempty"`
}

func taskFinishTool() Tool {
	return local(define("oc_task_finish", GroupTasks,
		"Close an envelope with its outcome and a note.",
		func(ctx context.Context, c *call, in taskFinishIn) (*protocol.ToolResult, error) {
			k, err := c.envelopeKeeper()
			if err != nil {
				return nil, err
			}
			to := map[string]ledger.Status{"completed": ledger.StatusCompleted, "failed": ledger.StatusFailed,
				"cancelled": ledger.StatusCancelled}[in.Outcome]
			v, err := k.Finish(ctx, in.TaskID, to, c.engine.red.Text(in.Note), "agent")
			if err != nil {
				return nil, err
			}
			return jsonResult(v)
		},
		func(s *jsonschema.Schema) { enum(s, "outcome", "completed", "failed", "cancelled") }))
}

func mustJSON(v any) string {
	b, err := protocol.Marshal(v)
	if err != nil {
		panic("engine: " + err.Error()) // our own structs
	}
	return string(b)
}
