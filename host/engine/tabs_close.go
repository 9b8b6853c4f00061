package engine

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/protocol"
)

type tabsCloseIn struct {
	TabID int `json:"tabId" jsonschema:"tab to close"`
}

func tabsCloseTool() Tool {
	return define("tabs_close", GroupCore, "Close one of the agent's tabs.", tabsClose,
		func(s *jsonschema.Schema) { positive(s, "tabId") })
}

func tabsClose(ctx context.Context, c *call, in tabsCloseIn) (*protocol.ToolResult, error) {
	c.touched = in.TabID
	if err := c.heldByPerson(in.TabID); err != nil {
		return nil, err
	}
	if err := c.do(ctx, tabClose(in.TabID), nil); err != nil {
		return nil, err
	}
	if c.currentTab() == in.TabID {
		c.setCurrentTab(0)
	}
	return jsonResult(struct {
		Closed int `json:"closed"`
	}{in.TabID})
}
