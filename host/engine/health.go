package engine

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/extension"
	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

type healthIn struct{}

func healthTool() Tool {
	return define("oc_connection_health", GroupCore,
		"Check the link to the browser: daemon, browsers, versions.",
		health)
}

type browserHealthOut struct {
	protocol.BrowserInfo
	GroupTabs    int    `json:"groupTabs"`
	AttachedTabs int    `json:"attachedTabs"`
	LatencyMs    int64  `json:"latencyMs"`
	Problem      string `json:"problem,omitempty"`
}

func health(ctx context.Context, c *call, _ healthIn) (*protocol.ToolResult, error) {
	if c.engine.browsers == nil {
		return nil, bridge.ErrNoDaemon
	}
	infos := c.engine.browsers.List()
	if len(infos) == 0 {
		if _, err := c.browser(); err != nil {
			return nil, err // the registry's browser_not_connected, with its hint
		}
		// A browser joined between the two looks: it is listed now.
		infos = c.engine.browsers.List()
	}
	out := struct {
		OK       bool               `json:"ok"`
		Daemon   any                `json:"daemon"`
		Browsers []browserHealthOut `json:"browsers"`
	}{OK: true}
	out.Daemon = struct {
		Version   string `json:"version"`
		PID       int    `json:"pid"`
		UptimeSec int64  `json:"uptimeSec"`
	}{protocol.Version, os.Getpid(), int64(c.engine.now().Sub(c.engine.started) / time.Second)}

	for _, info := range infos {
		b := browserHealthOut{BrowserInfo: info}
		if b.Problem = versionProblem(info.ExtensionVersion, c.engine.extension); b.Problem != "" {
			out.OK = false
		}
		l, err := c.engine.browsers.Browser(info.ID)
		if err == nil {
			start := c.engine.now()
			var data browser.Health
			data, err = browser.BrowserHealth().Run(ctx, l)
			b.LatencyMs = c.engine.now().Sub(start).Milliseconds()
			b.GroupTabs, b.AttachedTabs = data.GroupTabs, data.AttachedTabs
		}
		if err != nil {
			b.Problem = protocol.AsError(err).Message
			out.OK = false
		}
		out.Browsers = append(out.Browsers, b)
	}
	return jsonResult(out)
}

// versionProblem says what is wrong with a browser that runs extension
// version running, when the installed build is want: another release, or
// another build of this one. Chrome keeps running the service worker it
// stored until the extension is reloaded, even across restarts (launch
// makes its own profile forget it). An extension loaded from its source
// folder has no build; its release is enough.
func versionProblem(running, want string) string {
	switch {
	case extension.Release(running) != protocol.Version:
		return "extension " + running + " differs from openchrome " + protocol.Version +
			": reload the extension (chrome://extensions) after `openchrome install`"
	case want != "" && strings.Count(running, ".") == 3 && running != want:
		return "the browser runs extension build " + running + ", not the installed " + want +
			": reload the extension at chrome://extensions (a restart keeps the old one running); " +
			"a browser from `openchrome launch`: close it and launch again"
	}
	return ""
}
