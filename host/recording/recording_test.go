package recording

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/redact"
	"github.com/openchrome/openchrome/protocol"
)

// tab is a fake browser tab that logs a console error on every screenshot
// and whose clock moves one interval per screenshot.
type tab struct {
	mu    sync.Mutex
	now   time.Time
	step  time.Duration
	shots int
	fail  func(shot int) error
}

func (t *tab) clock() time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.now
}

func (t *tab) Do(_ context.Context, cmd protocol.Command) (json.RawMessage, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch cmd.Action {
	case "page.screenshot":
		t.shots++
		t.now = t.now.Add(t.step)
		if t.fail != nil {
			if err := t.fail(t.shots); err != nil {
				return nil, err
			}
		}
		return json.Marshal(browser.Image{Data: []byte{0xff, 0xd8, byte(t.shots)}, MimeType: "image/jpeg"})
	case "tab.get":
		return json.Marshal(browser.Tab{TabID: 4, URL: "http://x/?token=s3cr3t-value", Title: "<Shop>"})
	case "observe.events":
		var p struct{ Since int }
		_ = json.Unmarshal(cmd.Params, &p)
		evs := browser.Events{Observing: true, Next: t.shots + 1}
		if p.Since > 0 && p.Since <= t.shots {
			evs.Events = []browser.Event{{Seq: t.shots, Kind: "console", Level: "error", Text: "boom api_key=abcd1234abcd1234", TS: t.now.UnixMilli()}}
		}
		return json.Marshal(evs)
	}
	return nil, protocol.Errorf(protocol.CodeBadRequest, "unexpected %s", cmd.Action)
}

func TestARecordingKeepsFramesEventsAndAReport(t *testing.T) {
	dir := t.TempDir()
	tb := &tab{now: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC), step: 250 * time.Millisecond}
	res, err := Record(context.Background(), tb, nil, Options{ID: "r1", Dir: dir, Tab: 4,
		Duration: time.Second, Interval: 250 * time.Millisecond, Now: tb.clock, Redactor: new(redact.Redactor)})
	require.NoError(t, err)
	assert.Equal(t, "duration", res.Stopped)
	assert.Equal(t, 4, res.Frames, "a second of frames at 4 a second, by the injected clock")
	assert.Equal(t, res.Frames, res.Errors)

	report, err := os.ReadFile(filepath.Join(dir, "report.html"))
	require.NoError(t, err)
	assert.Contains(t, string(report), "&lt;Shop&gt;", "titles are escaped")
	assert.NotContains(t, string(report), "s3cr3t-value", "URLs are redacted")
	assert.NotContains(t, string(report), "abcd1234abcd1234", "console text is redacted")
	assert.Equal(t, 4, strings.Count(string(report), "<img "))
	var frames []frame
	b, err := os.ReadFile(filepath.Join(dir, "frames.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &frames))
	require.Len(t, frames, 4)
	assert.FileExists(t, filepath.Join(dir, frames[3].File))
}

func TestARecordingWhoseTabGoesKeepsWhatItHad(t *testing.T) {
	dir := t.TempDir()
	tb := &tab{now: time.Now(), step: 250 * time.Millisecond, fail: func(shot int) error {
		switch shot {
		case 2:
			return protocol.Errorf(protocol.CodeConflict, "a dialog is open") // skipped
		case 4:
			return protocol.Errorf(protocol.CodeTabNotFound, "no tab 4")
		}
		return nil
	}}
	res, err := Record(context.Background(), tb, nil, Options{ID: "r2", Dir: dir, Tab: 4,
		Duration: time.Minute, Interval: 250 * time.Millisecond, Now: tb.clock})
	require.ErrorIs(t, err, protocol.ErrTabNotFound)
	assert.Equal(t, "failed", res.Stopped)
	assert.Equal(t, 2, res.Frames, "one bad frame skipped, then the tab went")
	assert.Equal(t, 1, res.Skipped, "the tab's going is not a skipped frame")
	assert.Equal(t, "a dialog is open", res.SkippedWhy)
	assert.FileExists(t, filepath.Join(dir, "report.html"))
}

func TestARecordingOfAHiddenTabGoesOnToItsEnd(t *testing.T) {
	// Chrome draws nothing of a hidden tab: its frames are skipped, and
	// said so, and the recording ends when its time is up.
	hidden := protocol.Errorf(protocol.CodeConflict, "the tab is hidden")
	tb := &tab{now: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC), step: 250 * time.Millisecond, fail: func(shot int) error {
		if shot >= 2 {
			return hidden
		}
		return nil
	}}
	res, err := Record(context.Background(), tb, nil, Options{ID: "r3", Dir: t.TempDir(), Tab: 4,
		Duration: time.Second, Interval: 250 * time.Millisecond, Now: tb.clock, Redactor: new(redact.Redactor)})
	require.NoError(t, err)
	assert.Equal(t, "duration", res.Stopped)
	assert.Equal(t, 1, res.Frames)
	assert.Equal(t, 3, res.Skipped)
	assert.Equal(t, "the tab is hidden", res.SkippedWhy)
}
