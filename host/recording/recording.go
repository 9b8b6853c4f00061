// Package recording records a tab over time for the recording tool:
// screenshots, navigations, titles and console errors, kept under one
// folder with a self-contained report.html timeline a person can open. It
// sends its commands through any browser.Doer and reports to a task.Sink,
// so it runs the same called directly or as a background task.
package recording

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/openchrome/openchrome/bridge"
	"github.com/openchrome/openchrome/host/artifact"
	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/redact"
	"github.com/openchrome/openchrome/host/task"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// Options say what to record and how.
type Options struct {
	ID       string // names the recording
	Dir      string // where its files go
	Tab      int
	Duration time.Duration
	Interval time.Duration // between screenshots
	Now      func() time.Time
	Redactor *redact.Redactor
	Log      *slog.Logger
}

// Result is what the recording tool returns, directly or as a task.
type Result struct {
	RecordingID string    `json:"recording_id"`
	Dir         string    `json:"dir"`
	Report      string    `json:"report"`
	Started     time.Time `json:"started"`
	Ended       time.Time `json:"ended"`
	Frames      int       `json:"frames"`
	// Skipped frames and why the last was: the tab was hidden (Chrome draws
	// nothing of a tab its window does not show), a dialog held the page.
	Skipped    int             `json:"skipped,omitempty"`
	SkippedWhy string          `json:"skipped_why,omitempty"`
	Events     int             `json:"events"`
	Errors     int             `json:"errors"`  // console errors and uncaught exceptions
	Stopped    string          `json:"stopped"` // duration, cancelled, timeout or failed
	Timeline   []browser.Event `json:"-"`
}

// Files are the recording's report and the timeline behind it.
func (r *Result) Files() []artifact.File {
	return []artifact.File{
		artifact.Verify(r.Report, "text/html", -1),
		artifact.Verify(r.Dir+"/events.json", "application/json", -1),
	}
}

// frame is one screenshot of a recording.
type frame struct {
	At    time.Time `json:"at"`
	File  string    `json:"file"`
	URL   string    `json:"url"`
	Title string    `json:"title"`
	data  []byte    // the JPEG, for the report
}

// Record records opts.Tab until opts.Duration has passed or ctx ends, and
// keeps what it recorded however it ended: its screenshots, and what the tab
// logged meanwhile (the extension keeps an agent tab's events from when it
// joined the group).
func Record(ctx context.Context, do browser.Doer, s *task.Sink, opts Options) (*Result, error) {
	r := &recorder{do: do, opts: opts}
	if r.opts.Now == nil {
		r.opts.Now = time.Now
	}
	if r.opts.Redactor == nil {
		r.opts.Redactor = new(redact.Redactor)
	}
	r.files = ledger.Files{Scrub: r.opts.Redactor.File}
	if r.opts.Log == nil {
		r.opts.Log = slog.New(slog.DiscardHandler)
	}
	first, err := r.events(ctx, 0, "navigation")
	if err != nil {
		return nil, err
	}
	return r.record(ctx, s, first.Next)
}

type recorder struct {
	do    browser.Doer
	opts  Options
	files ledger.Files // the report redacted; screenshots as they are
}

func (r *recorder) record(ctx context.Context, s *task.Sink, since int) (*Result, error) {
	o := r.opts
	res := &Result{RecordingID: o.ID, Dir: o.Dir, Report: o.Dir + "/report.html", Started: o.Now().UTC(), Stopped: "duration"}
	var frames []frame
	// At most this many frames, whatever the clock says.
	last := int(o.Duration/o.Interval) + 1
	tick := time.NewTicker(o.Interval)
	defer tick.Stop()
	var stopErr error
	for n := 1; n <= last; n++ {
		f, shotErr := r.frame(ctx, n)
		if shotErr == nil {
			frames = append(frames, f)
		}
		err := shotErr
		ev, evErr := r.events(ctx, since)
		if evErr == nil {
			res.Timeline = append(res.Timeline, ev.Events...)
			since = ev.Next
		}
		if err == nil {
			err = evErr
		}
		if err != nil {
			if ctx.Err() == nil && !isGone(err) {
				// One bad frame (a dialog open, a page loading, the tab
				// hidden) is skipped; the recording goes on.
				o.Log.Debug("recording frame skipped", "err", err)
				if shotErr != nil {
					res.Skipped, res.SkippedWhy = res.Skipped+1, o.Redactor.Text(protocol.AsError(shotErr).Message)
				}
			} else {
				stopErr = err
				break
			}
		}
		now := o.Now().UTC()
		elapsed := now.Sub(res.Started)
		res.Frames, res.Ended = len(frames), now
		s.Progress(float64(min(elapsed, o.Duration).Milliseconds()), float64(o.Duration.Milliseconds()), "frame %d", n)
		if n == last || elapsed+o.Interval > o.Duration {
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
	res.Ended, res.Frames, res.Events = o.Now().UTC(), len(frames), len(res.Timeline)
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
	if err := write(r.files, o.Dir, res, frames); err != nil {
		return nil, err
	}
	return res, stopErr
}

// isGone reports whether err means the tab or the browser went away.
func isGone(err error) bool {
	switch protocol.AsError(err).Code {
	case protocol.CodeTabNotFound, protocol.CodeTabNotAllowed, protocol.CodeBrowserNotConnected:
		return true
	}
	return false
}

// frame takes the nth screenshot of the tab into dir/frames.
func (r *recorder) frame(ctx context.Context, n int) (frame, error) {
	shot, err := browser.PageScreenshot(r.opts.Tab, browser.Shot{Format: "jpeg", Quality: 60, Background: true}).Run(ctx, r.do)
	if err != nil {
		return frame{}, err
	}
	f := frame{At: r.opts.Now().UTC(), File: fmt.Sprintf("frames/%04d.jpg", n), data: shot.Data}
	if err := r.files.Binary(r.opts.Dir+"/"+f.File, shot.Data); err != nil {
		return frame{}, err
	}
	if tab, err := browser.TabGet(r.opts.Tab).Run(ctx, r.do); err == nil {
		f.URL, f.Title = r.opts.Redactor.URL(tab.URL), r.opts.Redactor.Text(tab.Title)
	}
	return f, nil
}

// events reads the tab's observed entries after since, redacted.
func (r *recorder) events(ctx context.Context, since int, kinds ...string) (browser.Events, error) {
	p, err := browser.ObserveEvents(r.opts.Tab, since, kinds...).Run(ctx, r.do)
	if err != nil {
		return p, err
	}
	return p.Masked(r.opts.Redactor.Text, r.opts.Redactor.URL), nil
}
