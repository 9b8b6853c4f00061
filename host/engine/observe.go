package engine

import (
	"context"
	"encoding/json"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/ledger"
)

// readEvents reads a tab's observed entries from since on, redacted.
func (c *call) readEvents(ctx context.Context, tab, since int, kinds ...string) (browser.Events, error) {
	p, err := browser.ObserveEvents(tab, since, kinds...).Run(ctx, c)
	if err != nil {
		return p, err
	}
	return p.Masked(c.engine.red.Text, c.engine.red.URL), nil
}

// writeJSON writes v indented to name, private to the user.
func writeJSON(name string, v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return b, writeFile(name, b)
}

// writeFile writes an artifact file, private to the user.
func writeFile(name string, b []byte) error { return ledger.WriteFile(name, b, 0o600) }
