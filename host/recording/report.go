package recording

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"strings"
	"time"

	"github.com/openchrome/openchrome/ledger"
)

// write writes the recording's frames.json, events.json and report.html
// into dir, through files.
func write(files ledger.Files, dir string, res *Result, frames []frame) error {
	for name, v := range map[string]any{"frames.json": frames, "events.json": nonNil(res.Timeline)} {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		if _, err := files.Text(dir+"/"+name, b); err != nil {
			return err
		}
	}
	var b strings.Builder
	if err := reportTemplate.Execute(&b, reportData(res, frames)); err != nil {
		return fmt.Errorf("recording: report: %w", err)
	}
	_, err := files.Text(dir+"/report.html", []byte(b.String()))
	return err
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// reportRow is one line of the report's timeline: a frame or an event.
type reportRow struct {
	At     time.Time
	Offset string
	Kind   string
	Text   string
	Image  template.URL // a data: URL, for frames
}

func reportData(res *Result, frames []frame) any {
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
// escaped by html/template. It is parsed once and never changed.
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
