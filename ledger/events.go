package ledger

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"time"

	"github.com/openchrome/openchrome/protocol"
)

// Event is one line of a record's events.jsonl: what happened and when.
type Event struct {
	TS   time.Time       `json:"ts"`
	Kind string          `json:"kind"`
	Data json.RawMessage `json:"data,omitempty"`
}

// Append adds an event to a record's history. Like every change, it is
// refused on a terminal record (conflict): the history of a finished record
// is as immutable as its meta. data (nil for none) is marshaled as is; it
// must already be redacted.
func (s *Store) Append(ctx context.Context, id, kind string, data any) error {
	if kind == "" {
		return protocol.Errorf(protocol.CodeBadRequest, "%s %s: event kind is required", s.life.Noun, id)
	}
	var payload any // nil stays nil, so the line has no "data"
	if data != nil {
		b, err := json.Marshal(data)
		if err != nil {
			return protocol.Errorf(protocol.CodeBadRequest, "%s %s: event data is not JSON-encodable", s.life.Noun, id).WithCause(err)
		}
		payload = json.RawMessage(b)
	}
	lock, err := s.lock(ctx, id)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	m, err := s.readMeta(id)
	if err != nil {
		return err
	}
	if s.life.Terminal(m.Status) {
		return protocol.Errorf(protocol.CodeConflict, "%s %s is %s and can no longer change", s.life.Noun, id, m.Status)
	}
	return s.appendLocked(id, s.clock(), kind, payload)
}

// appendLocked writes one event line; the caller holds the record's lock.
//
// The line goes out in one O_APPEND write. A crash can still leave a torn
// last line with no newline; the next append then starts with a newline of
// its own, so the torn fragment stays a line by itself (which [Store.Events]
// skips) instead of swallowing the new event.
//
// The store's own events (created, status, ...) are written after meta.json
// and their errors are dropped: meta.json is the truth and has already
// changed, so failing the call would only invite a retry that conflicts.
func (s *Store) appendLocked(id string, ts time.Time, kind string, data any) error {
	line, err := json.Marshal(struct {
		TS   time.Time `json:"ts"`
		Kind string    `json:"kind"`
		Data any       `json:"data,omitempty"`
	}{ts, kind, data})
	if err != nil {
		return s.wrap(id, err)
	}
	f, err := os.OpenFile(s.file(id, eventsFile), os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return s.wrap(id, err)
	}
	defer f.Close()
	if torn, err := endsTorn(f); err != nil {
		return s.wrap(id, err)
	} else if torn {
		line = append([]byte{'\n'}, line...)
	}
	if _, err := f.Write(append(s.scrub(line), '\n')); err != nil {
		return s.wrap(id, err)
	}
	return nil
}

// endsTorn reports whether f is non-empty and its last byte is not a newline.
func endsTorn(f *os.File) (bool, error) {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return false, err
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, st.Size()-1); err != nil {
		return false, err
	}
	return last[0] != '\n', nil
}

// Events returns a record's history, oldest first. It takes no lock. A line
// that is not a whole event (the torn tail a crash mid-append leaves) is
// skipped, not an error: the events before it are still good.
func (s *Store) Events(id string) ([]Event, error) {
	if _, err := s.Get(id); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(s.file(id, eventsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return []Event{}, nil
	}
	if err != nil {
		return nil, s.wrap(id, err)
	}
	return parseEvents(b), nil
}

func parseEvents(b []byte) []Event {
	events := []Event{}
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		var e Event
		if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &e) != nil || e.Kind == "" {
			continue
		}
		events = append(events, e)
	}
	return events
}
