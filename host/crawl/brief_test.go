package crawl

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestABriefKeepsEveryPageWithinItsRoom(t *testing.T) {
	var r Result
	r.Start, r.Stopped = "http://127.0.0.1/", "maxPages"
	for i := range 20 {
		r.Pages = append(r.Pages, Page{URL: "http://127.0.0.1/p" + strings.Repeat("x", i), Status: 200, Title: "Page",
			Content: strings.Repeat("Text \"quoted\"\nand é. ", 3000), Links: []string{"a", "b"}, Depth: 1})
	}
	whole, err := json.Marshal(r)
	require.NoError(t, err)
	require.Greater(t, len(whole), 1_000_000)
	b := r.Brief(30_000)
	brief, err := json.Marshal(b)
	require.NoError(t, err)
	assert.LessOrEqual(t, len(brief), 30_000)
	require.Len(t, b.Pages, 20, "every page is there")
	for i, p := range b.Pages {
		assert.Equal(t, r.Pages[i].URL, p.URL)
		assert.True(t, strings.HasSuffix(p.Content, "…"), "cut, and says so")
		assert.True(t, utf8.ValidString(p.Content))
		assert.Equal(t, utf8.RuneCountInString(r.Pages[i].Content), p.Chars)
		assert.Equal(t, 2, p.Links)
	}
	small := Result{Start: "s", Pages: []Page{{URL: "u", Content: "short"}}}
	assert.Equal(t, "short", small.Brief(30_000).Pages[0].Content, "what fits is whole")
	crowd := Result{Start: "s"}
	for range 2000 {
		crowd.Pages = append(crowd.Pages, Page{URL: "http://127.0.0.1/a/long/path", Content: "words"})
	}
	assert.Empty(t, crowd.Brief(30_000).Pages[0].Content, "no room: the pages without their content")
}
