package engine

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

type actIn struct {
	Steps []step `json:"steps" jsonschema:"interact's arguments, in order"`
	tabArgs
	Snapshot string `json:"snapshot,omitempty"`
}

func (in *actIn) validate() error {
	for i, s := range in.Steps {
		if err := s.validate(); err != nil {
			e := protocol.AsError(err)
			return protocol.Errorf(e.Code, "step %d: %s", i+1, e.Message).WithHint(e.Hint)
		}
	}
	return nil
}

func actTool() Tool {
	t := defineTab("act", GroupCore,
		"Run interact steps in order; stops at the first failure.",
		act,
		func(s *jsonschema.Schema) {
			shapeStep(property(s, "steps").Items)
			enum(s, "snapshot", "none", "diff", "full")
			one := 1
			property(s, "steps").MinItems = &one
		})
	// A step is interact's arguments, whose schema the agent has read:
	// tools/list says so once, and calls are still checked against it.
	property(t.InputSchema, "steps").Items = &jsonschema.Schema{Type: "object"}
	return t
}

// actStep is what became of one step.
type actStep struct {
	Step int `json:"step"`
	acted
}

// actOut is what act answers: every step it ran, and where it stopped.
type actOut struct {
	Error    *protocol.Error `json:"error,omitempty"`
	Steps    []actStep       `json:"steps"`
	Stopped  string          `json:"stopped,omitempty"`
	HITL     *browser.HITL   `json:"hitl,omitempty"`
	Snapshot string          `json:"snapshot,omitempty"`
}

func (a *actOut) setSnapshot(s string) { a.Snapshot = s }

// failedStep is the extension's part of a step that could not run.
func failedStep(action string) browser.Acted {
	ok := false
	return browser.Acted{Action: action, OK: &ok}
}

func act(ctx context.Context, c *call, tab int, in actIn) (*protocol.ToolResult, error) {
	out := &actOut{Steps: make([]actStep, 0, len(in.Steps))}
	for i, s := range in.Steps {
		r, err := c.runStep(ctx, tab, s, i == len(in.Steps)-1)
		if err != nil {
			r = acted{Acted: failedStep(s.Action), Error: protocol.AsError(err)}
		}
		out.Steps = append(out.Steps, actStep{Step: i + 1, acted: r})
		if r.Error != nil {
			// The first step that could not act ends act: nothing after it runs.
			out.Error = protocol.Errorf(r.Error.Code, "act stopped at step %d of %d: %s", i+1, len(in.Steps), r.Error.Message).WithHint(r.Error.Hint)
			out.Stopped = fmt.Sprintf("step %d of %d could not act", i+1, len(in.Steps))
			out.HITL = r.HITL
			return c.actionResult(ctx, tab, out, true, "none")
		}
	}
	return c.actionResult(ctx, tab, out, false, in.Snapshot)
}
