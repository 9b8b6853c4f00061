package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/protocol"
)

// call is what a handler sees of the engine for the length of one call.
type call struct {
	engine *Engine
	bc     *bridge.Call
	agent  *agentState
	// guessed says tab used the agent's current tab without asking the
	// browser whether it is still there; if it is not, the call runs again.
	guessed bool
	// touched is the tab the call acted on, for the activity log.
	touched int
}

// browser returns the browser to act in.
func (c *call) browser() (*bridge.Link, error) {
	if c.engine.browsers == nil {
		return nil, bridge.ErrNoDaemon
	}
	return c.engine.browsers.Browser("")
}

// do runs one extension command in the browser and decodes its data into out
// (when not nil).
func (c *call) do(ctx context.Context, cmd protocol.Command, out any) error {
	l, err := c.browser()
	if err != nil {
		return err
	}
	start := c.engine.now()
	err = doInto(ctx, l, cmd, out)
	c.engine.log.Debug("command", "tool", c.bc.Tool, "action", cmd.Action, "ms", c.engine.now().Sub(start).Milliseconds())
	return err
}

func doInto(ctx context.Context, l *bridge.Link, cmd protocol.Command, out any) error {
	data, err := l.Do(ctx, cmd)
	if err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("engine: %s answered %.100s: %w", cmd.Action, data, err)
	}
	return nil
}

// progress reports how far the call has got, when the agent asked.
func (c *call) progress(done, total float64, message string) {
	c.bc.Progress(done, total, message)
}

// currentTab returns the agent's current tab, 0 if none.
func (c *call) currentTab() int {
	c.agent.mu.Lock()
	defer c.agent.mu.Unlock()
	return c.agent.currentTab
}

func (c *call) setCurrentTab(id int) {
	c.agent.mu.Lock()
	c.agent.currentTab = id
	c.agent.mu.Unlock()
}

// tab resolves the tab a tool acts on: tabID when given (the extension checks
// it is the agent's), else the agent's current tab, else the last tab of the
// OpenChrome group. With no tab at all it returns 0 and no error; callers
// that can open one do, the rest call needTab.
func (c *call) tab(ctx context.Context, tabID int) (id int, err error) {
	defer func() { c.touched = id }()
	if tabID != 0 {
		return tabID, nil
	}
	if cur := c.currentTab(); cur != 0 && !c.guessed {
		// Most calls act where the last one did: skip the listing, which
		// costs a round trip through a busy browser. Engine.Call runs the
		// tool again, listing, if the tab is gone.
		c.guessed = true
		return cur, nil
	}
	tabs, err := c.listTabs(ctx)
	if err != nil {
		return 0, err
	}
	return c.pickTab(tabs), nil
}

// pickTab returns the agent's current tab if it is still among tabs, else the
// group's active tab, else its last; it becomes current. 0 when tabs is empty.
func (c *call) pickTab(tabs []tabInfo) int {
	cur := c.currentTab()
	for _, t := range tabs {
		if t.TabID == cur {
			return cur
		}
	}
	pick := 0
	if len(tabs) > 0 {
		pick = tabs[len(tabs)-1].TabID
	}
	for _, t := range tabs {
		if t.Active {
			pick = t.TabID
		}
	}
	c.setCurrentTab(pick)
	return pick
}

// needTab is tab for tools that cannot open one themselves.
func (c *call) needTab(ctx context.Context, tabID int) (int, error) {
	id, err := c.tab(ctx, tabID)
	if err == nil && id == 0 {
		err = protocol.Errorf(protocol.CodeNotFound, "the agent has no tab yet").
			WithHint("call navigate with a url, or tabs_create")
	}
	return id, err
}

// actTab is needTab for tools that act on the page: a tab the person holds
// in a handoff is refused.
func (c *call) actTab(ctx context.Context, tabID int) (int, error) {
	id, err := c.needTab(ctx, tabID)
	if err != nil {
		return id, err
	}
	return id, c.heldByPerson(id)
}

func (c *call) listTabs(ctx context.Context) ([]tabInfo, error) {
	var out struct {
		Tabs []tabInfo `json:"tabs"`
	}
	if err := c.do(ctx, tabsList(), &out); err != nil {
		return nil, err
	}
	return out.Tabs, nil
}
