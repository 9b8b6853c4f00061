package engine

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/protocol"
)

type actIn struct {
	Steps    []step `json:"steps" jsonschema:"interact's arguments, run in order; the first failure stops the rest"`
	TabID    int    `json:"tabId,omitempty" jsonschema:"default: the current tab"`
	Snapshot string `json:"snapshot,omitempty" jsonschema:"after the last step: none (default), diff or full"`
}

func actTool() Tool {
	return define("act", GroupCore,
		"Run several interact steps in order; stops at the first failure and reports each step.",
		act,
		func(s *jsonschema.Schema) {
			step := property(s, "steps").Items
			shapeStep(step)
			for _, p := range step.Properties {
				p.Description = "" // interact's, which the agent has read
			}
			positive(s, "tabId")
			enum(s, "snapshot", "none", "diff", "full")
			one := 1
			property(s, "steps").MinItems = &one
		})
}

func act(ctx context.Context, c *call, in actIn) (*protocol.ToolResult, error) {
	tab, err := c.actTab(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	for i, s := range in.Steps {
		if err := checkStep(s); err != nil {
			e := protocol.AsError(err)
			return nil, protocol.Errorf(e.Code, "step %d: %s", i+1, e.Message).WithHint(e.Hint)
		}
	}
	steps := make([]map[string]any, 0, len(in.Steps))
	out := map[string]any{"steps": steps}
	for i, s := range in.Steps {
		r, err := c.runStep(ctx, tab, s)
		if err != nil {
			e := protocol.AsError(err)
			steps = append(steps, map[string]any{"step": i + 1, "action": s.Action, "ok": false, "error": e})
			out["steps"] = steps
			out["stopped"] = fmt.Sprintf("step %d of %d failed: %s", i+1, len(in.Steps), e.Message)
			b, _ := marshal(out)
			res := protocol.ErrorResult(protocol.Errorf(e.Code, "act stopped at step %d of %d: %s", i+1, len(in.Steps), e.Message).WithHint(e.Hint))
			res.Content[0].Text += "\n" + string(b)
			return res, nil
		}
		r["step"] = i + 1
		steps = append(steps, r)
		out["steps"] = steps
		if r["hitl"] != nil {
			out["stopped"] = fmt.Sprintf("step %d of %d found no way to %s", i+1, len(in.Steps), s.Action)
			out["hitl"] = r["hitl"]
			return c.actionResult(ctx, tab, out, "none")
		}
	}
	return c.actionResult(ctx, tab, out, in.Snapshot)
}
