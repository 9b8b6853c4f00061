package crawl

import (
	"unicode/utf8"

	"github.com/openchrome/openchrome/protocol"
)

// Brief is a crawl's result cut to what one tool answer can carry: every
// page, its content shortened to an equal share of the room, its links
// counted. The whole result is kept in a file beside it.
type Brief struct {
	Start   string      `json:"start"`
	Pages   []BriefPage `json:"pages"`
	Stopped string      `json:"stopped"`
	Left    int         `json:"left"`
}

// BriefPage is a [Page] with its content cut to Shown of its Chars
// characters, and its links counted.
type BriefPage struct {
	URL     string          `json:"url"`
	Status  int             `json:"status,omitempty"`
	Title   string          `json:"title,omitempty"`
	Content string          `json:"content,omitempty"`
	Chars   int             `json:"chars"`
	Links   int             `json:"links,omitempty"`
	Depth   int             `json:"depth"`
	Error   *protocol.Error `json:"error,omitempty"`
}

// pageOverhead is about what a page's line costs in a Brief's JSON beside
// its URL, title and content.
const pageOverhead = 90

// Brief returns r within about max bytes of JSON.
func (r Result) Brief(max int) Brief {
	b := Brief{Start: r.Start, Stopped: r.Stopped, Left: r.Left, Pages: make([]BriefPage, len(r.Pages))}
	room := max - len(r.Start) - 100
	for _, p := range r.Pages {
		room -= len(p.URL) + len(p.Title) + pageOverhead
	}
	share := 0
	if len(r.Pages) > 0 && room > 0 {
		share = room / len(r.Pages)
	}
	for i, p := range r.Pages {
		b.Pages[i] = BriefPage{URL: p.URL, Status: p.Status, Title: p.Title, Content: cut(p.Content, share),
			Chars: utf8.RuneCountInString(p.Content), Links: len(p.Links), Depth: p.Depth, Error: p.Error}
	}
	return b
}

// cut shortens s to at most n bytes, on a rune boundary, marking the cut;
// JSON's escapes of quotes and newlines are allowed for.
func cut(s string, n int) string {
	n = n * 4 / 5
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	if n == 0 {
		return ""
	}
	return s[:n] + "…"
}
