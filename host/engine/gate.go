package engine

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

// tabArgs are the arguments of every tool on a tab; a tool's input embeds
// them. What tabId and taskId mean is said once, in the server's
// instructions.
type tabArgs struct {
	TabID int `json:"tabId,omitempty"`
	taskArg
}

// target is what a tool's input says of the tab it acts on.
type target struct {
	tab  int  // the tabId argument; 0: the agent's current tab
	open bool // with no tab at all, the handler opens one (navigate)
	none bool // this call touches no tab (read_page reading on from a cursor)
	// sent: the handler's first step is a command to the tab, which the
	// extension's router refuses unless the tab is the agent's: the gate
	// need not look it up first (a round trip on the calls made most).
	sent bool
}

func (a tabArgs) target() target { return target{tab: a.TabID} }

// sentTarget is target for a tool whose first step is a command to the tab.
func (a tabArgs) sentTarget() target { return target{tab: a.TabID, sent: true} }

// onTab is the input of a tool on a tab.
type onTab interface{ target() target }

// tabHandler is a tool on one tab, which the gate has resolved.
type tabHandler[In any] func(ctx context.Context, c *call, tab int, in In) (*protocol.ToolResult, error)

// defineTab builds a catalog entry for a tool on a tab: define, with the
// tab resolved by the gate before h runs. No handler checks a tab itself.
func defineTab[In onTab](name, group, description string, h tabHandler[In], shape ...func(*jsonschema.Schema)) Tool {
	t := define(name, group, description, func(ctx context.Context, c *call, in In) (*protocol.ToolResult, error) {
		tab, err := c.gate(ctx, in.target())
		if err != nil {
			return nil, err
		}
		return h(ctx, c, tab, in)
	}, withTab(shape)...)
	t.OnTab = true
	return t
}

// withTab adds tabId's bounds to a tool's shape.
func withTab(shape []func(*jsonschema.Schema)) []func(*jsonschema.Schema) {
	return append([]func(*jsonschema.Schema){func(s *jsonschema.Schema) { positive(s, "tabId") }}, shape...)
}

// gate resolves the tab a tool acts on, once, and applies in this one place
// every rule a tool on a tab obeys:
//
//   - the tab exists and is in the agent's group: a given tabId is looked
//     up (tab.get), a guessed one (no tabId) is picked from the group's
//     listing, before anything is sent to it. So no command has touched a
//     page when a tab is refused, and nothing ever runs a handler a second
//     time. The extension's router checks each command's tab again, so a
//     tool whose first step is a command to the tab (target.sent) is not
//     looked up first: its command is refused before it runs;
//   - the person does not hold it: a tab in a handoff, or one whose page
//     waits for the person's answer to a question, is refused with
//     conflict, whatever the tool, reading included.
//
// It returns 0 for a call that needs no tab (target.none), or that may open
// one and finds the agent has none (target.open).
func (c *call) gate(ctx context.Context, t target) (int, error) {
	if t.none {
		return 0, nil
	}
	tab := t.tab
	if tab == 0 {
		tabs, err := c.listTabs(ctx)
		if err != nil {
			return 0, err
		}
		if tab = c.pickTab(tabs); tab == 0 {
			if t.open {
				return 0, nil
			}
			return 0, protocol.Errorf(protocol.CodeNotFound, "the agent has no tab yet").
				WithHint("call navigate with a url, or tabs_create")
		}
		for _, x := range tabs {
			if x.TabID == tab {
				c.touch(tab, x.URL)
			}
		}
	}
	c.touched = tab
	if err := c.engine.heldByPerson(tab); err != nil {
		return 0, err
	}
	if t.tab != 0 && !t.sent {
		c.located = true
		got, err := browser.TabGet(tab).Run(ctx, c)
		if err != nil {
			return 0, err
		}
		c.touch(tab, got.URL)
	}
	return tab, nil
}

// pickTab returns the agent's current tab if it is still among tabs, else the
// group's active tab, else its last; it becomes current. 0 when tabs is empty.
func (c *call) pickTab(tabs []browser.Tab) int {
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

// heldByPerson refuses a tab the person holds: the agent and the person
// must not fight over the page. A question waiting for the person holds its
// tab as a handoff does: the person is marking up that very page.
func (e *Engine) heldByPerson(tab int) error {
	if id := e.questions.Holding(tab); id != "" {
		return protocol.Errorf(protocol.CodeConflict, "a person is answering a question on tab %d (request %s)", tab, id).
			WithHint("wait for that browser_request_feedback call to return, or cancel it")
	}
	if e.handoffs == nil {
		return nil
	}
	if id := e.handoffs.Holding(tab); id != "" {
		return protocol.Errorf(protocol.CodeConflict, "a person has tab %d (handoff %s) until they press Finish or Cancel", tab, id).
			WithHint("call oc_handoff_status with wait_ms to wait for them, then read_page")
	}
	return nil
}
