package engine

import (
	"context"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/protocol"
)

type navigateIn struct {
	URL       string `json:"url" jsonschema:"absolute URL, or back, forward or reload"`
	TabID     int    `json:"tabId,omitempty" jsonschema:"default: the current tab (a new one if the agent has none)"`
	TimeoutMs int64  `json:"timeoutMs,omitempty" jsonschema:"load timeout; default 30000"`
}

func navigateTool() Tool {
	return define("navigate", GroupCore,
		"Load a URL in a tab, or go back, forward or reload; waits for the load. Returns the final URL, title and HTTP status.",
		navigate,
		func(s *jsonschema.Schema) {
			positive(s, "tabId")
			between(s, "timeoutMs", 1, float64(protocol.MaxCommandTimeout.Milliseconds()))
		})
}

func navigate(ctx context.Context, c *call, in navigateIn) (*protocol.ToolResult, error) {
	timeout := time.Duration(in.TimeoutMs) * time.Millisecond
	direction := ""
	url := in.URL
	switch in.URL {
	case "back", "forward", "reload":
		direction = in.URL
	default:
		var err error
		if url, err = checkURL(in.URL); err != nil {
			return nil, err
		}
	}
	tab, err := c.tab(ctx, in.TabID)
	if err == nil && tab != 0 {
		err = c.heldByPerson(tab)
	}
	if err != nil {
		return nil, err
	}
	var p pageInfo
	switch {
	case tab == 0 && direction != "":
		return nil, protocol.Errorf(protocol.CodeNotFound, "the agent has no tab to go %s in", direction).
			WithHint("call navigate with a url first")
	case tab == 0:
		err = c.do(ctx, tabCreate(url, true, timeout), &p)
	case direction != "":
		err = c.do(ctx, tabGo(tab, direction, timeout), &p)
	default:
		err = c.do(ctx, tabNavigate(tab, url, timeout), &p)
	}
	if err != nil {
		return nil, err
	}
	c.setCurrentTab(p.TabID)
	c.touched = p.TabID
	return jsonResult(p)
}
