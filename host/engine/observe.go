package engine

import (
	"context"
	"encoding/json"

	"github.com/openchrome/openchrome/host/browser"
)

// readEvents reads a tab's observed entries from since on, redacted.
func (c *call) readEvents(ctx context.Context, tab, since int, kinds ...string) (browser.Events, error) {
	p, err := browser.ObserveEvents(tab, since, kinds...).Run(ctx, c)
	if err != nil {
		return p, err
	}
	return p.Masked(c.engine.red.Text, c.engine.red.URL), nil
}

// writeJSON writes v indented to name, redacted and private to the user,
// and returns what it wrote.
func (e *Engine) writeJSON(name string, v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return e.files.Text(name, b)
}
