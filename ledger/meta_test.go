package ledger

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestArgsSummaryIsTruncatedOnARuneBoundary(t *testing.T) {
	tests := []struct {
		name string
		in   string
		cut  bool
	}{
		{"short", "url=https://example.com maxPages=5", false},
		{"exactly the limit", strings.Repeat("a", MaxArgsSummary), false},
		{"one byte over", strings.Repeat("a", MaxArgsSummary+1), true},
		{"two-byte runes", strings.Repeat("é", 1100), true},
		{"three-byte runes", strings.Repeat("€", 1000), true},
		{"four-byte runes", strings.Repeat("🦊", 600), true},
		{"mixed, a rune across the cut", "a" + strings.Repeat("🦊", 600), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := openStore(t, TaskLifecycle())
			m, err := s.Create("crawl", tt.in, nil)
			require.NoError(t, err)
			got := m.ArgsSummary
			stored, err := s.Get(m.ID)
			require.NoError(t, err)
			assert.Equal(t, got, stored.ArgsSummary)

			assert.LessOrEqual(t, len(got), MaxArgsSummary)
			assert.True(t, utf8.ValidString(got))
			if !tt.cut {
				assert.Equal(t, tt.in, got)
				return
			}
			require.True(t, strings.HasSuffix(got, "…"))
			kept := strings.TrimSuffix(got, "…")
			assert.True(t, strings.HasPrefix(tt.in, kept))
			assert.Greater(t, len(kept), MaxArgsSummary-len("…")-utf8.UTFMax, "cut no earlier than needed")
		})
	}
}
