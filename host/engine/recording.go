package engine

import (
	"context"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/artifact"
	"github.com/openchrome/openchrome/host/recording"
	"github.com/openchrome/openchrome/host/task"
	"github.com/openchrome/openchrome/protocol"
)

type recordingIn struct {
	tabArgs
	DurationMs int `json:"durationMs,omitempty" jsonschema:"default 30000"`
	IntervalMs int `json:"intervalMs,omitempty"`
}

func recordingTool() Tool {
	return defineTabJob("recording",
		"Record a tab's screenshots, navigations and errors over time, with an HTML report.",
		record,
		func(s *jsonschema.Schema) {
			between(s, "durationMs", 1000, float64(protocol.MaxCommandTimeout.Milliseconds()))
			between(s, "intervalMs", 250, 60000)
		})
}

func record(ctx context.Context, c *call, tab int, in recordingIn, s *task.Sink) (any, error) {
	id := artifact.NewID()
	return recording.Record(ctx, c, s, recording.Options{
		ID: id, Dir: c.engine.home.Path("recordings", id), Tab: tab,
		Duration: time.Duration(orDefault(in.DurationMs, 30_000)) * time.Millisecond,
		Interval: time.Duration(orDefault(in.IntervalMs, 1000)) * time.Millisecond,
		Now:      c.engine.now, Redactor: c.engine.red, Log: c.engine.log,
	})
}
