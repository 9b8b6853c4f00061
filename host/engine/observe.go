package engine

import (
	"context"

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
