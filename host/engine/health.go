package engine

import (
	"context"
	"os"
	"time"

	"github.com/openchrome/openchrome/bridge"
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
		_, err := c.browser() // the registry's browser_not_connected, with its hint
		return nil, err
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
		if info.ExtensionVersion != protocol.Version {
			b.Problem = "extension " + info.ExtensionVersion + " differs from openchrome " + protocol.Version +
				": reload the extension (chrome://extensions) after `openchrome install`"
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
