package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/protocol"
)

// maxScriptResult bounds what javascript_tool returns, so one careless
// `document.body.innerHTML` does not flood the agent's context.
const maxScriptResult = 50_000

type javascriptIn struct {
	Code      string `json:"code" jsonschema:"JavaScript run in the page; the last expression's value is returned; top-level await works"`
	TabID     int    `json:"tabId,omitempty" jsonschema:"default: the current tab"`
	TimeoutMs int64  `json:"timeoutMs,omitempty" jsonschema:"default 30000"`
}

func javascriptTool() Tool {
	return define("javascript_tool", GroupCore,
		"Run JavaScript in a tab's page (main world) and return the result as JSON.",
		javascript,
		func(s *jsonschema.Schema) {
			positive(s, "tabId")
			between(s, "timeoutMs", 1, float64(protocol.MaxCommandTimeout.Milliseconds()))
		})
}

func javascript(ctx context.Context, c *call, in javascriptIn) (*protocol.ToolResult, error) {
	tab, err := c.needTab(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	var out struct {
		Value json.RawMessage `json:"value"`
		Type  string          `json:"type"`
	}
	if err := c.do(ctx, pageEvaluate(tab, in.Code, time.Duration(in.TimeoutMs)*time.Millisecond), &out); err != nil {
		return nil, err
	}
	text := string(out.Value)
	if out.Type == "undefined" || len(out.Value) == 0 {
		text = "undefined"
	}
	if len(text) > maxScriptResult {
		text = fmt.Sprintf("%s\n[truncated: the value is %d characters; return less, e.g. a slice or a count]", clip(text, maxScriptResult), len(text))
	}
	return protocol.TextResult(text), nil
}
