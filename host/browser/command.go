package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/openchrome/openchrome/protocol"
)

// Doer sends one command to a browser and returns its data. *bridge.Link is
// one; so is a tool call, which picks the link and logs the command.
type Doer interface {
	Do(ctx context.Context, cmd protocol.Command) (json.RawMessage, error)
}

// Command is one extension action whose answer decodes into T.
type Command[T any] struct {
	protocol.Command
}

// None is the answer of a command whose data nobody reads.
type None struct{}

// Run sends c through d and decodes what the extension answered. A failed
// command returns the extension's coded error unchanged.
func (c Command[T]) Run(ctx context.Context, d Doer) (T, error) {
	var out T
	data, err := d.Do(ctx, c.Command)
	if err != nil {
		return out, err
	}
	if err := json.Unmarshal(data, &out); err != nil {
		// The cause (which may quote the page) is for the log only.
		return out, protocol.Errorf(protocol.CodeInternal, "the extension's answer to %s is malformed", c.Action).
			WithCause(fmt.Errorf("browser: %s answered %.100s: %w", c.Action, data, err))
	}
	return out, nil
}

// WithTimeout returns c with its own timeout; 0 keeps the default.
func (c Command[T]) WithTimeout(d time.Duration) Command[T] {
	c.TimeoutMs = d.Milliseconds()
	return c
}

func command[T any](action string, params any, timeout time.Duration) Command[T] {
	b, err := json.Marshal(params)
	if err != nil {
		panic("browser: params of " + action + ": " + err.Error()) // params are our own structs
	}
	return Command[T]{protocol.Command{Action: action, Params: b, TimeoutMs: timeout.Milliseconds()}}
}

// tabParams are the params of an action on a tab and nothing else.
type tabParams struct {
	TabID int `json:"tabId"`
}
