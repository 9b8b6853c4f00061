package engine

import (
	"context"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/protocol"
)

type tabsCreateIn struct {
	URL        string `json:"url,omitempty" jsonschema:"page to open; default about:blank"`
	Background bool   `json:"background,omitempty" jsonschema:"do not focus the new tab"`
	TimeoutMs  int64  `json:"timeoutMs,omitempty" jsonschema:"load timeout; default 30000"`
}

func tabsCreateTool() Tool {
	return define("tabs_create", GroupCore,
		"Open a tab in the agent's tab group and make it the current tab.",
		tabsCreate,
		func(s *jsonschema.Schema) {
			between(s, "timeoutMs", 1, float64(protocol.MaxCommandTimeout.Milliseconds()))
		})
}

func tabsCreate(ctx context.Context, c *call, in tabsCreateIn) (*protocol.ToolResult, error) {
	url := "about:blank"
	if in.URL != "" {
		var err error
		if url, err = checkURL(in.URL); err != nil {
			return nil, err
		}
	}
	var p pageInfo
	if err := c.do(ctx, tabCreate(url, !in.Background, time.Duration(in.TimeoutMs)*time.Millisecond), &p); err != nil {
		return nil, err
	}
	c.setCurrentTab(p.TabID)
	c.touched = p.TabID
	return jsonResult(p)
}
