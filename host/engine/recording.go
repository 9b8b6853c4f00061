package engine

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/protocol"
)

type recordingIn struct {
	TabID      int `json:"tabId,omitempty" jsonschema:"default: the current tab"`
	DurationMs int `json:"durationMs,omitempty" jsonschema:"default 30000; as a task, until oc_task_cancel or this ends"`
	IntervalMs int `json:"intervalMs,omitempty" jsonschema:"between screenshots; default 1000"`
}

func recordingTool() Tool {
	return defineJob("recording",
		"Record a tab: screenshots, navigations, titles and console errors over time, with a report.html timeline a person can open.",
		recording,
		func(s *jsonschema.Schema) {
			positive(s, "tabId")
			between(s, "durationMs", 1000, float64(protocol.MaxCommandTimeout.Milliseconds()))
			between(s, "intervalMs", 250, 60000)
		})
}

// frame is one screenshot of a recording.
type frame struct {
	At    time.Time `json:"at"`
	File  string    `json:"file"`
	URL   string    `json:"url"`
	Title string    `json:"title"`
	data  []byte    // the JPEG, for the report
}

// recordingResult is what recording returns, directly or as a task.
type recordingResult struct {
	RecordingID string      `json:"recording_id"`
	Dir         string      `json:"dir"`
	Report      string      `json:"report"`
	Started     time.Time   `json:"started"`
	Ended       time.Time   `json:"ended"`
	Frames      int         `json:"frames"`
	Events      int         `json:"events"`
	Errors      int         `json:"errors"`  // console errors and uncaught exceptions
	Stopped     string      `json:"stopped"` // duration, cancelled, timeout or failed
	Timeline    []pageEvent `json:"-"`
}

func recording(ctx context.Context, c *call, in recordingIn, s *sink) (any, error) {
	tab, err := c.needTab(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	duration := time.Duration(orDefault(in.DurationMs, 30_000)) * time.Millisecond
	interval := time.Duration(orDefault(in.IntervalMs, 1000)) * time.Millisecond
	id := newArtifactID()
	dir := c.engine.home.Path("recordings", id)
	stopObserving, err := c.observe(ctx, tab)
	if err != nil {
		return nil, err
	}
	defer stopObserving()
	first, err := c.readEvents(ctx, tab, 0, "navigation")
	if err != nil {
		return nil, err
	}
	since := first.Next

	res := &recordingResult{RecordingID: id, Dir: dir, Report: dir + "/report.html", Started: c.engine.now().UTC(), Stopped: "duration"}
	var frames []frame
	end := time.Now().Add(duration)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	var stopErr error
	for n := 1; ; n++ {
		f, err := c.recordFrame(ctx, tab, dir, n)
		if err == nil {
			frames = append(frames, f)
		}
		ev, evErr := c.readEvents(ctx, tab, since)
		if evErr == nil {
			res.Timeline = append(res.Timeline, ev.Events...)
			since = ev.Next
		}
		if err == nil {
			err = evErr
		}
		if err != nil {
			if ctx.Err() == nil && !isGone(err) {
				// One bad frame (a dialog open, a page loading) is
				// skipped; the recording goes on.
				c.engine.log.Debug("recording frame skipped", "err", err)
			} else {
				stopErr = err
				break
			}
		}
		res.Frames, res.Ended = len(frames), c.engine.now().UTC()
		s.Progress(float64(min(time.Since(res.Started), duration).Milliseconds()), float64(duration.Milliseconds()), "frame %d", n)
		if time.Now().Add(interval).After(end) {
			break
		}
		select {
		case <-ctx.Done():
			stopErr = bridge.ContextError(ctx, "the recording")
		case <-tick.C:
		}
		if stopErr != nil {
			break
		}
	}
	res.Ended, res.Frames, res.Events = c.engine.now().UTC(), len(frames), len(res.Timeline)
	for _, ev := range res.Timeline {
		if ev.Kind == "exception" || ev.Kind == "console" && ev.Level == "error" {
			res.Errors++
		}
	}
	switch {
	case stopErr == nil:
	case errors.Is(stopErr, protocol.ErrCancelled):
		res.Stopped = "cancelled"
	case errors.Is(stopErr, protocol.ErrTimeout):
		res.Stopped = "timeout"
	default:
		res.Stopped = "failed"
	}
	// What was recorded is kept however the recording ended.
	if err := c.writeRecording(dir, res, frames); err != nil {
		return nil, err
	}
	return res, stopErr
}

// isGone reports whether err means the tab or the browser went away.
func isGone(err error) bool {
	e := protocol.AsError(err)
	return e.Code == protocol.CodeTabNotFound || e.Code == protocol.CodeTabNotAllowed || e.Code == protocol.CodeBrowserNotConnected
}

// recordFrame takes one screenshot of tab into dir/frames.
func (c *call) recordFrame(ctx context.Context, tab int, dir string, n int) (frame, error) {
	var shot struct {
		Data string `json:"data"`
	}
	if err := c.do(ctx, pageScreenshot(tab, "jpeg", 60, false), &shot); err != nil {
		return frame{}, err
	}
	img, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		return frame{}, fmt.Errorf("engine: recording: screenshot is not base64: %w", err)
	}
	f := frame{At: c.engine.now().UTC(), File: fmt.Sprintf("frames/%04d.jpg", n), data: img}
	if err := writeFile(dir+"/"+f.File, img); err != nil {
		return frame{}, err
	}
	tabs, err := c.listTabs(ctx)
	if err == nil {
		for _, t := range tabs {
			if t.TabID == tab {
				f.URL, f.Title = c.engine.red.URL(t.URL), c.engine.red.Text(t.Title)
			}
		}
	}
	return f, nil
}

// writeRecording writes the recording's frames.json, events.json and
// report.html into dir.
func (c *call) writeRecording(dir string, res *recordingResult, frames []frame) error {
	if _, err := writeJSON(dir+"/frames.json", frames); err != nil {
		return err
	}
	if _, err := writeJSON(dir+"/events.json", res.Timeline); err != nil {
		return err
	}
	var b strings.Builder
	if err := reportTemplate.Execute(&b, reportData(res, frames)); err != nil {
		return fmt.Errorf("engine: recording report: %w", err)
	}
	return writeFile(dir+"/report.html", []byte(b.String()))
}

// reportRow is one line of the report's timeline: a frame or an event.
type reportRow struct {
	At     time.Time
	Offset string
	Kind   string
	Text   string
	Image  template.URL // a data: URL, for frames
}

func reportData(res *recordingResult, frames []frame) any {
	var rows []reportRow
	offset := func(t time.Time) string { return fmt.Sprintf("+%.1fs", t.Sub(res.Started).Seconds()) }
	for _, f := range frames {
		rows = append(rows, reportRow{At: f.At, Offset: offset(f.At), Kind: "frame", Text: f.Title + " — " + f.URL,
			Image: template.URL("data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(f.data))})
	}
	for _, ev := range res.Timeline {
		at := time.UnixMilli(ev.TS).UTC()
		row := reportRow{At: at, Offset: offset(at), Kind: ev.Kind}
		switch ev.Kind {
		case "console":
			row.Kind, row.Text = "console "+ev.Level, ev.Text
		case "exception":
			row.Text = ev.Text
		case "navigation":
			row.Text = ev.URL
		case "request":
			if ev.Error == "" && ev.Status < 400 {
				continue // the report shows failures; events.json has every request
			}
			row.Kind, row.Text = "request failed", fmt.Sprintf("%s %s %d %s", ev.Method, ev.URL, ev.Status, ev.Error)
		}
		rows = append(rows, row)
	}
	slices.SortStableFunc(rows, func(a, b reportRow) int { return a.At.Compare(b.At) })
	return map[string]any{"R": res, "Rows": rows}
}

// reportTemplate is report.html: one self-contained page (images inlined),
// escaped by html/template.
var reportTemplate = template.Must(template.New("report").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>OpenChrome recording {{.R.RecordingID}}</title>
<style>
body{font:14px system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;width:100%}td{border-top:1px solid #ddd;padding:.4em;vertical-align:top}
.t{color:#666;white-space:nowrap}.k{font-weight:600;white-space:nowrap}
.err{color:#b00020}img{max-width:640px;border:1px solid #ccc}
</style></head><body>
<h1>Recording {{.R.RecordingID}}</h1>
<p>{{.R.Started.Format "2006-01-02 15:04:05 UTC"}} to {{.R.Ended.Format "15:04:05"}}: {{.R.Frames}} frames,
{{.R.Events}} events, {{.R.Errors}} errors; stopped: {{.R.Stopped}}.</p>
<table>{{range .Rows}}
<tr><td class="t">{{.Offset}}</td><td class="k{{if or (eq .Kind "exception") (eq .Kind "console error") (eq .Kind "request failed")}} err{{end}}">{{.Kind}}</td>
<td>{{.Text}}{{if .Image}}<br><img src="{{.Image}}" alt="screenshot at {{.Offset}}">{{end}}</td></tr>{{end}}
</table></body></html>
`))
