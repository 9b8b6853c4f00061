package engine

import (
	"context"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/protocol"
)

type waitForIn struct {
	Text      *string `json:"text,omitempty" jsonschema:"wait until this text shows"`
	TextGone  *string `json:"textGone,omitempty" jsonschema:"wait until this text is gone"`
	Ref       string  `json:"ref,omitempty" jsonschema:"wait on this element's state"`
	Selector  *string `json:"selector,omitempty" jsonschema:"wait on the elements this CSS selector matches"`
	URL       *string `json:"url,omitempty" jsonschema:"wait until the tab's URL contains this (* matches anything)"`
	Predicate *string `json:"predicate,omitempty" jsonschema:"wait until this JavaScript expression is truthy"`
	State     string  `json:"state,omitempty" jsonschema:"for ref and selector; default visible"`
	TimeoutMs int64   `json:"timeoutMs,omitempty" jsonschema:"default 5000"`
	TabID     int     `json:"tabId,omitempty" jsonschema:"default: the current tab"`
}

func waitForTool() Tool {
	return define("wait_for", GroupCore,
		"Wait until text shows or goes, an element reaches a state, the URL matches, or a predicate holds; returns as soon as it does.",
		waitFor,
		func(s *jsonschema.Schema) {
			enum(s, "state", "visible", "hidden", "attached", "detached", "enabled")
			between(s, "timeoutMs", 1, float64(protocol.MaxCommandTimeout.Milliseconds()-5000))
			positive(s, "tabId")
		})
}

func waitFor(ctx context.Context, c *call, in waitForIn) (*protocol.ToolResult, error) {
	set := 0
	for _, given := range []bool{in.Text != nil, in.TextGone != nil, in.Ref != "", in.Selector != nil, in.URL != nil, in.Predicate != nil} {
		if given {
			set++
		}
	}
	if set != 1 {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "wait_for takes exactly one of text, textGone, ref, selector, url, predicate (got %d)", set)
	}
	if in.State != "" && in.Ref == "" && in.Selector == nil {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "state applies to ref and selector")
	}
	tab, err := c.needTab(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	wait := 5 * time.Second
	if in.TimeoutMs > 0 {
		wait = time.Duration(in.TimeoutMs) * time.Millisecond
	}
	cond := waitCondition{Text: in.Text, TextGone: in.TextGone, Ref: in.Ref, Selector: in.Selector,
		URL: in.URL, Predicate: in.Predicate, State: in.State}
	start := c.engine.now()
	var out map[string]any
	if err := c.do(ctx, pageWait(tab, cond, wait), &out); err != nil {
		return nil, err
	}
	out["waitedMs"] = c.engine.now().Sub(start).Milliseconds()
	return jsonResult(out)
}
