package ledger

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

func TestAppendAndEvents(t *testing.T) {
	ctx := context.Background()
	s, _ := openStore(t, TaskLifecycle())
	m, err := s.Create("crawl", "", nil)
	require.NoError(t, err)
	require.NoError(t, s.Append(ctx, m.ID, "page", map[string]any{"url": "/a", "n": 1}))
	require.NoError(t, s.Append(ctx, m.ID, "note", nil))
	assert.ErrorIs(t, s.Append(ctx, m.ID, "", nil), protocol.ErrBadRequest)
	assert.ErrorIs(t, s.Append(ctx, m.ID, "bad", make(chan int)), protocol.ErrBadRequest)

	events, err := s.Events(m.ID)
	require.NoError(t, err)
	require.Len(t, events, 3)
	assert.Equal(t, "page", events[1].Kind)
	assert.JSONEq(t, `{"url":"/a","n":1}`, string(events[1].Data))
	assert.Nil(t, events[2].Data)

	raw, err := os.ReadFile(s.file(m.ID, eventsFile))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	require.Len(t, lines, 3, "one object a line")
	assert.Contains(t, lines[1], `"ts":`)
	st, err := os.Stat(s.file(m.ID, eventsFile))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
}

func TestATornLastEventIsSkipped(t *testing.T) {
	tests := []struct {
		name string
		tail string // what a crash left after the last whole line
	}{
		{"half an object", `{"ts":"2026-05-12T10:00:00Z","kind":"pa`},
		{"a lone brace", `{`},
		{"a whole object without its newline", `{"ts":"2026-05-12T10:00:00Z","kind":"page"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s, _ := openStore(t, TaskLifecycle())
			m, err := s.Create("crawl", "", nil)
			require.NoError(t, err)
			f, err := os.OpenFile(s.file(m.ID, eventsFile), os.O_WRONLY|os.O_APPEND, 0)
			require.NoError(t, err)
			_, err = f.WriteString(tt.tail)
			require.NoError(t, err)
			require.NoError(t, f.Close())

			events, err := s.Events(m.ID)
			require.NoError(t, err, "a torn tail is not an error")
			assert.Equal(t, EventCreated, events[0].Kind)
			whole := len(events)

			// The next append must not be glued onto the fragment.
			require.NoError(t, s.Append(ctx, m.ID, "after", nil))
			events, err = s.Events(m.ID)
			require.NoError(t, err)
			require.Len(t, events, whole+1)
			assert.Equal(t, "after", events[len(events)-1].Kind)
		})
	}
}

func TestParseEventsSkipsBrokenLines(t *testing.T) {
	in := "{\"ts\":\"2026-05-12T10:00:00Z\",\"kind\":\"a\"}\n\n{\"kind\":\n[1,2]\n{\"ts\":\"2026-05-12T10:00:01Z\",\"kind\":\"b\",\"data\":{\"x\":1}}\n{\"ts\":"
	events := parseEvents([]byte(in))
	require.Len(t, events, 2)
	assert.Equal(t, "a", events[0].Kind)
	assert.Equal(t, "b", events[1].Kind)
}
