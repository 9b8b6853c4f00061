package ledger

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

func TestADamagedRecordSaysSoAndHarmsNoOther(t *testing.T) {
	tests := []struct {
		name string
		meta string
		why  string
	}{
		{"invalid JSON", `{"id":`, "unexpected end of JSON input"},
		{"empty", ``, "unexpected end of JSON input"},
		{"a field of the wrong type", `{"id":"%s","kind":"crawl","status":5}`, "cannot unmarshal number"},
		{"another record's id", `{"id":"20200101-000000-0000","kind":"crawl","status":"RUNNING"}`, "names record"},
		{"an unknown status", `{"id":"%s","kind":"crawl","status":"EXPLODED"}`, `status "EXPLODED"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := openStore(t, TaskLifecycle())
			good, err := s.Create("crawl", "", nil)
			require.NoError(t, err)
			bad, err := s.Create("crawl", "", nil)
			require.NoError(t, err)
			path := filepath.Join(s.Root(), bad.ID, metaFile)
			body := strings.ReplaceAll(tt.meta, "%s", bad.ID)
			require.NoError(t, os.WriteFile(path, []byte(body), 0o600))

			_, err = s.Get(bad.ID)
			require.ErrorIs(t, err, ErrDamaged)
			e := protocol.AsError(err)
			assert.Equal(t, protocol.CodeConflict, e.Code)
			assert.Contains(t, e.Message, path, "the error names the file")
			assert.Contains(t, e.Message, tt.why)
			assert.Contains(t, e.Hint, "cancel it")
			_, err = s.Transition(context.Background(), bad.ID, StatusRunning, nil)
			require.ErrorIs(t, err, ErrDamaged, "nothing writes over it")

			got, err := s.Get(good.ID)
			require.NoError(t, err, "the other record is untouched")
			assert.Equal(t, StatusPending, got.Status)

			list, err := s.List(Filter{})
			require.NoError(t, err)
			require.Len(t, list, 2, "the damaged record is listed, not dropped")
			assert.Equal(t, bad.ID, list[0].ID)
			assert.Contains(t, list[0].Damaged, tt.why)
			assert.Empty(t, list[1].Damaged)
			running, err := s.List(Filter{Status: StatusPending})
			require.NoError(t, err)
			assert.Len(t, running, 1, "a status filter cannot match what has none")

			ended, err := s.EndDamaged(context.Background(), bad.ID)
			require.NoError(t, err)
			assert.Equal(t, StatusCancelled, ended.Status)
			assert.Equal(t, "damaged", ended.Error.Code)
			kept, err := os.ReadFile(path + ".damaged")
			require.NoError(t, err)
			assert.Equal(t, body, string(kept), "the damaged file is kept for whoever looks")
			again, err := s.Get(bad.ID)
			require.NoError(t, err)
			assert.True(t, s.Lifecycle().Terminal(again.Status))
			_, err = s.EndDamaged(context.Background(), good.ID)
			assert.True(t, errors.Is(err, protocol.ErrConflict), "a sound record is cancelled the usual way")
		})
	}
}

func TestEveryWriteGoesThroughScrub(t *testing.T) {
	scrub := func(b []byte) []byte { return []byte(strings.ReplaceAll(string(b), "SECRET", "[X]")) }
	s, err := Open(t.TempDir(), TaskLifecycle(), Options{Scrub: scrub})
	require.NoError(t, err)
	m, err := s.Create("crawl", `{"url":"http://h/?t=SECRET"}`, map[string]string{"start": "SECRET"})
	require.NoError(t, err)
	require.NoError(t, s.Append(context.Background(), m.ID, "page", map[string]string{"url": "http://h/SECRET"}))
	require.NoError(t, s.WriteResult(context.Background(), m.ID, map[string]string{"pages": "SECRET"}))
	_, err = s.Transition(context.Background(), m.ID, StatusRunning, nil)
	require.NoError(t, err)
	for _, f := range []string{metaFile, eventsFile, resultFile} {
		b, err := os.ReadFile(filepath.Join(s.Root(), m.ID, f))
		require.NoError(t, err)
		assert.NotContains(t, string(b), "SECRET", f)
		assert.Contains(t, string(b), "[X]", f)
	}
}
