package engine

import (
	"context"
	"encoding/json"
	"time"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/redact"
	"github.com/openchrome/openchrome/protocol"
)

// call is what a handler sees of the engine for the length of one call.
type call struct {
	engine *Engine
	bc     *bridge.Call
	agent  *agentState
	// touched is the tab the call acted on, and its URL when known, for
	// the activity and the audit log.
	touched    int
	touchedURL string
	located    bool // where touched is was asked: touchedURL is the answer
	// profile masks the secrets of touched's site, once read
	// (profileSecrets).
	profile    *redact.Redactor
	profileTab int
	// detail is what the person sees of the call in the activity besides
	// its tool, never its arguments: the names of the files upload_file gave.
	detail string
	// wait, set for a background task's call only, makes its commands wait
	// for a browser that went away.
	wait *browserWait
}

// touch records the tab the call acts on, and where that tab is.
func (c *call) touch(tab int, url string) {
	c.touched, c.touchedURL, c.located = tab, url, true
}

// locate learns where the tab the call touched is, for its audit entry,
// when no answer said: the gate looks up no tab for a tool whose first step
// is a command to it (target.sent), and profile.secrets, which says where
// the tab is, is not asked when the person lets secrets show.
func (c *call) locate(ctx context.Context, res *protocol.ToolResult) {
	if c.touched == 0 || c.located || c.engine.browsers == nil {
		return
	}
	if code := errorCode(res); code == string(protocol.CodeTabNotFound) || code == string(protocol.CodeTabNotAllowed) {
		return // nowhere the agent may know of
	}
	ctx, done := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer done()
	if got, err := browser.TabGet(c.touched).Run(ctx, c); err == nil {
		c.touch(c.touched, got.URL)
	}
}

// A call sends its commands itself: it picks the browser and logs each.
var _ browser.Doer = (*call)(nil)

// browser returns the browser to act in.
func (c *call) browser() (*bridge.Link, error) {
	if c.engine.browsers == nil {
		return nil, bridge.ErrNoDaemon
	}
	return c.engine.browsers.Browser("")
}

// Do runs one extension command in the browser and returns its data. A
// background task's command waits for a browser when none is linked.
func (c *call) Do(ctx context.Context, cmd protocol.Command) (json.RawMessage, error) {
	l, err := c.link(ctx)
	if err != nil {
		return nil, err
	}
	start := c.engine.now()
	data, err := l.Do(ctx, cmd)
	c.engine.log.Debug("command", "tool", c.bc.Tool, "action", cmd.Action, "ms", c.engine.now().Sub(start).Milliseconds())
	return data, err
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

// listTabs returns the agent's tabs.
func (c *call) listTabs(ctx context.Context) ([]browser.Tab, error) {
	out, err := browser.TabList().Run(ctx, c)
	return out.Tabs, err
}
