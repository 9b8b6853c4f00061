package engine

import (
	"context"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

type tabsContextIn struct {
	taskArg
}

func tabsContextTool() Tool {
	return define("tabs_context", GroupCore,
		"List the agent's tabs and the current one.",
		tabsContext)
}

func tabsContext(ctx context.Context, c *call, _ tabsContextIn) (*protocol.ToolResult, error) {
	tabs, err := c.listTabs(ctx)
	if err != nil {
		return nil, err
	}
	// No tab is touched, so no site's secrets are read to mask: a sign-in
	// that landed with #access_token=... is masked by its parameter's name.
	for i := range tabs {
		tabs[i].URL = c.engine.red.URL(tabs[i].URL)
	}
	return jsonResult(struct {
		Current int           `json:"current,omitempty"`
		Tabs    []browser.Tab `json:"tabs"`
	}{c.pickTab(tabs), nonNil(tabs)})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

type tabsCreateIn struct {
	URL        string `json:"url,omitempty"`
	Background bool   `json:"background,omitempty"`
	TimeoutMs  int64  `json:"timeoutMs,omitempty"`
	taskArg
}

func tabsCreateTool() Tool {
	return define("tabs_create", GroupCore,
		"Open a tab in the agent's group; it becomes current.",
		tabsCreate,
		func(s *jsonschema.Schema) {
			between(s, "timeoutMs", 1, float64(protocol.MaxCommandTimeout.Milliseconds()))
		})
}

func (in *tabsCreateIn) validate() (err error) {
	if in.URL == "" {
		in.URL = "about:blank"
		return nil
	}
	in.URL, err = checkURL(in.URL)
	return err
}

func tabsCreate(ctx context.Context, c *call, in tabsCreateIn) (*protocol.ToolResult, error) {
	if err := c.checkURL(in.URL); err != nil {
		return nil, err
	}
	p, err := browser.WithSecrets(browser.TabCreate(in.URL, !in.Background, time.Duration(in.TimeoutMs)*time.Millisecond)).Run(ctx, c)
	if err != nil {
		return nil, err
	}
	c.landed(p)
	return jsonResult(p)
}

// tabsCloseIn takes a tab it never guesses: closing is not done on the
// current tab by default.
type tabsCloseIn struct {
	TabID int `json:"tabId"`
	taskArg
}

func (in tabsCloseIn) target() target { return target{tab: in.TabID} }

func tabsCloseTool() Tool {
	return defineTab("tabs_close", GroupCore, "Close one of the agent's tabs.", tabsClose)
}

func tabsClose(ctx context.Context, c *call, tab int, _ tabsCloseIn) (*protocol.ToolResult, error) {
	if _, err := browser.TabClose(tab).Run(ctx, c); err != nil {
		return nil, err
	}
	if c.currentTab() == tab {
		c.setCurrentTab(0)
	}
	return jsonResult(struct {
		Closed int `json:"closed"`
	}{tab})
}
