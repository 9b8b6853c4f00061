package engine

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/artifact"
	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

type downloadsIn struct {
	TabID  int   `json:"tabId,omitempty" jsonschema:"default: every agent tab"`
	WaitMs int64 `json:"waitMs,omitempty" jsonschema:"wait for those in progress"`
	taskArg
}

// downloads is not a tab tool: the tab that started a download may be gone
// (a link that opened a tab to download in), and listing touches no page.
func downloadsTool() Tool {
	return define("downloads", GroupCore,
		"Files the agent's tabs downloaded: path, state, and a size and sha256 check.",
		listDownloads,
		func(s *jsonschema.Schema) {
			positive(s, "tabId")
			between(s, "waitMs", 0, float64(protocol.MaxCommandTimeout.Milliseconds()-10_000))
		})
}

// download is one download as the tool answers it: what the browser says,
// and for a complete file what is on disk.
type download struct {
	browser.Download
	File *artifact.File `json:"verification,omitempty"`
}

func listDownloads(ctx context.Context, c *call, in downloadsIn) (*protocol.ToolResult, error) {
	got, err := browser.DownloadList(in.TabID, time.Duration(in.WaitMs)*time.Millisecond).Run(ctx, c)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	switch {
	case len(got.Downloads) == 0 && in.TabID != 0:
		fmt.Fprintf(&b, "tab %d started no download", in.TabID)
	case len(got.Downloads) == 0:
		b.WriteString("the agent's tabs started no download")
	default:
		fmt.Fprintf(&b, "%d downloads:", len(got.Downloads))
	}
	out := make([]download, 0, len(got.Downloads))
	var files []artifact.File
	for _, d := range got.Downloads {
		d.URL = c.engine.red.URL(d.URL)
		row := download{Download: d}
		fmt.Fprintf(&b, "\n%d %s (tab %d): %s", d.ID, d.Name, d.TabID, strings.ReplaceAll(d.State, "_", " "))
		switch {
		case d.State == "complete":
			want := d.TotalBytes
			if want <= 0 {
				want = d.Bytes
			}
			f := artifact.Verify(d.Path, d.MimeType, want)
			row.File, files = &f, append(files, f)
			fmt.Fprintf(&b, ", %s, %s: %s", bytesText(f.Bytes), f.State, d.Path)
		case d.State == "interrupted":
			fmt.Fprintf(&b, " (%s) after %s", d.Error, bytesText(d.Bytes))
		case d.Paused:
			fmt.Fprintf(&b, ", paused at %s: the person may be choosing where to save it", bytesText(d.Bytes))
		default:
			fmt.Fprintf(&b, ", %s", progressText(d))
		}
		out = append(out, row)
	}
	if !got.Settled && in.WaitMs > 0 {
		fmt.Fprintf(&b, "\n(still waiting after %dms: call downloads again with waitMs)", in.WaitMs)
	}
	r, err := textResult(b.String(), struct {
		Downloads []download `json:"downloads"`
		Settled   bool       `json:"settled"`
	}{out, got.Settled})
	if err != nil {
		return nil, err
	}
	r.Content = append(r.Content, artifact.Links(files...)...)
	return r, nil
}

func progressText(d browser.Download) string {
	if d.TotalBytes > 0 {
		return fmt.Sprintf("%s of %s", bytesText(d.Bytes), bytesText(d.TotalBytes))
	}
	return bytesText(d.Bytes) + " so far"
}
