package engine

import (
	"context"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

type navigateIn struct {
	URL string `json:"url" jsonschema:"URL, or back, forward, reload"`
	tabArgs
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
}

// navigate opens a tab when the agent has none.
func (in navigateIn) target() target { return target{tab: in.TabID, open: true, sent: true} }

func (in *navigateIn) validate() error {
	switch in.URL {
	case "back", "forward", "reload":
		return nil
	}
	url, err := checkURL(in.URL)
	in.URL = url
	return err
}

func navigateTool() Tool {
	return defineTab("navigate", GroupCore,
		"Load a URL and wait for it; returns the final URL, title and status.",
		navigate,
		func(s *jsonschema.Schema) {
			between(s, "timeoutMs", 1, float64(protocol.MaxCommandTimeout.Milliseconds()))
		})
}

func navigate(ctx context.Context, c *call, tab int, in navigateIn) (*protocol.ToolResult, error) {
	timeout := time.Duration(in.TimeoutMs) * time.Millisecond
	var cmd browser.Command[browser.Page]
	switch in.URL {
	case "back", "forward", "reload":
		if tab == 0 {
			return nil, protocol.Errorf(protocol.CodeNotFound, "the agent has no tab to go %s in", in.URL).
				WithHint("call navigate with a url first")
		}
		cmd = browser.TabGo(tab, in.URL, timeout)
	default:
		if err := c.checkURL(in.URL); err != nil {
			return nil, err
		}
		if tab == 0 {
			cmd = browser.TabCreate(in.URL, true, timeout)
		} else {
			cmd = browser.TabNavigate(tab, in.URL, timeout)
		}
	}
	p, err := browser.WithSecrets(cmd).Run(ctx, c)
	if err != nil {
		return nil, navigateTimedOut(err, in.URL, tab == 0, protocol.ClampTimeout(in.TimeoutMs))
	}
	c.landed(p)
	if len(p.Downloads) == 0 {
		return jsonResult(p)
	}
	// A URL that is a file: the answer says so as an acting tool's does,
	// with the call that waits for the file.
	ch, next := changeOf(p.TabID, effects{downloads: p.Downloads})
	return jsonResult(struct {
		browser.Page
		Change      change       `json:"change"`
		NextActions []nextAction `json:"nextActions"`
	}{p, ch, next})
}

// pageUnanswered begins the timeout the extension's router gives a command
// whose page's own script holds it (extension/lib/router.js watch): it says
// why already, and the site is not slow.
const pageUnanswered = "the page has not answered"

// navigateTimedOut says, of a navigation that timed out, that the page
// showed nothing in that time (a page whose document was ready would have
// been answered as still loading), and where that leaves the tab. Other
// errors pass as they are.
func navigateTimedOut(err error, url string, created bool, after time.Duration) error {
	if e := protocol.AsError(err); e.Code != protocol.CodeTimeout || strings.HasPrefix(e.Message, pageUnanswered) {
		return err
	}
	switch url {
	case "back", "forward", "reload":
		url = "the page (" + url + ")"
	}
	where := "the tab goes on loading it"
	if created {
		where = "its tab was closed"
	}
	return protocol.Errorf(protocol.CodeTimeout, "%s showed nothing in %s: %s", url, after, where).
		WithHint("the site may be slow or down: navigate again later, or with a larger timeoutMs")
}
