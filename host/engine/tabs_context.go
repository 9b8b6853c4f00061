package engine

import (
	"context"

	"github.com/openchrome/openchrome/protocol"
)

type tabsContextIn struct{}

func tabsContextTool() Tool {
	return readOnly(define("tabs_context", GroupCore,
		"List the agent's tabs (the OpenChrome tab group) and which one is current.",
		tabsContext))
}

func tabsContext(ctx context.Context, c *call, _ tabsContextIn) (*protocol.ToolResult, error) {
	tabs, err := c.listTabs(ctx)
	if err != nil {
		return nil, err
	}
	return jsonResult(struct {
		Current int       `json:"current,omitempty"`
		Tabs    []tabInfo `json:"tabs"`
	}{c.pickTab(tabs), nonNil(tabs)})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
