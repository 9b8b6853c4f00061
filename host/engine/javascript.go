package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

// maxScriptResult bounds what javascript_tool returns, so one careless
// `document.body.innerHTML` does not flood the agent's context.
const maxScriptResult = 30_000

type javascriptIn struct {
	Code string `json:"code" jsonschema:"returns the last expression's value; await works"`
	tabArgs
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
}

func (in javascriptIn) target() target { return in.sentTarget() }

func (in *javascriptIn) validate() error {
	if strings.TrimSpace(in.Code) == "" {
		return protocol.Errorf(protocol.CodeBadRequest, "code is empty").
			WithHint(`pass the script to run, e.g. "document.title"`)
	}
	return nil
}

func javascriptTool() Tool {
	return defineTab("javascript_tool", GroupCore,
		"Run JavaScript in a tab's page and return the result as JSON.",
		javascript,
		func(s *jsonschema.Schema) {
			between(s, "timeoutMs", 1, float64(protocol.MaxCommandTimeout.Milliseconds()))
		})
}

func javascript(ctx context.Context, c *call, tab int, in javascriptIn) (*protocol.ToolResult, error) {
	out, err := browser.PageEvaluate(tab, in.Code, time.Duration(in.TimeoutMs)*time.Millisecond).Run(ctx, c)
	if err != nil {
		return nil, err
	}
	text := string(out.Value)
	if out.Type == "undefined" || len(out.Value) == 0 {
		text = "undefined"
	}
	structured := struct {
		Type      string          `json:"type"`
		Value     json.RawMessage `json:"value,omitempty"`
		Truncated int             `json:"truncatedFrom,omitempty"`
	}{Type: out.Type}
	if len(text) > maxScriptResult {
		structured.Truncated = len(text)
		text = fmt.Sprintf("%s\n[truncated: the value is %d characters; return less, e.g. a slice or a count]", clip(text, maxScriptResult), len(text))
	} else if text != "undefined" {
		structured.Value = out.Value
	}
	return textResult(text, structured)
}
