package engine

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFormatTree(t *testing.T) {
	yes := true
	base, err := url.Parse("http://127.0.0.1:8080/library/index.html")
	require.NoError(t, err)
	tests := []struct {
		name  string
		nodes []Node
		f     treeFormat
		want  string
	}{
		{
			name: "elements with states",
			nodes: []Node{
				{Role: "heading", Name: "Login Page", Level: 2},
				{Role: "textbox", Name: "Username", Ref: 4, Value: "tom", Required: true},
				{Role: "textbox", Name: "Password", Ref: 5, Secret: "password", Value: "never shown"},
				{Role: "checkbox", Name: "Remember", Ref: 6, Checked: "false"},
				{Role: "button", Name: "More", Ref: 7, Expanded: &yes, Disabled: true},
				{Role: "option", Name: "Go", Ref: 8, Selected: true},
			},
			want: `h2 "Login Page"
textbox "Username" e4 required value="tom"
textbox "Password" e5 password
checkbox "Remember" e6 unchecked
button "More" e7 expanded disabled
option "Go" e8 selected`,
		},
		{
			name: "text and inline links share a line",
			nodes: []Node{
				{Text: "See "},
				{Role: "link", Name: "History", Ref: 9, Href: "http://127.0.0.1:8080/license.html", Inline: true},
				{Text: " for more.\nNext paragraph."},
			},
			f: treeFormat{base: base},
			want: `See link "History" e9 -> ../license.html for more.
Next paragraph.`,
		},
		{
			name: "punctuation between links says nothing",
			nodes: []Node{
				{Role: "link", Name: "index", Ref: 1, Href: "http://127.0.0.1:8080/genindex.html", Inline: true},
				{Text: " | "},
				{Role: "link", Name: "modules", Ref: 2, Href: "http://127.0.0.1:8080/py-modindex.html", Inline: true},
				{Text: " »"},
				{Text: "\n»\n"},
			},
			f:    treeFormat{base: base},
			want: `link "index" e1 -> ../genindex.html link "modules" e2 -> ../py-modindex.html`,
		},
		{
			name: "a list reads as an outline",
			nodes: []Node{{Role: "list", Kids: []Node{
				{Role: "listitem", Kids: []Node{
					{Role: "link", Name: "Built-in Functions", Ref: 3, Href: "http://127.0.0.1:8080/library/functions.html"},
					{Role: "list", Kids: []Node{
						{Role: "listitem", Kids: []Node{{Role: "link", Name: "abs()", Ref: 4, Href: "http://127.0.0.1:8080/library/functions.html#abs"}}},
					}},
				}},
				{Role: "listitem", Kids: []Node{{Text: "plain item"}}},
			}}},
			f: treeFormat{base: base},
			want: `link "Built-in Functions" e3 -> functions.html
  link "abs()" e4 -> functions.html#abs
plain item`,
		},
		{
			name: "one line of content goes after a colon",
			nodes: []Node{
				{Role: "heading", Name: "Truth Value Testing", Level: 2, Kids: []Node{
					{Role: "link", Name: "¶", Ref: 5, Href: "http://127.0.0.1:8080/library/index.html#truth", Inline: true},
				}},
				{Role: "alert", Kids: []Node{{Text: "Saved."}}},
			},
			f: treeFormat{base: base},
			want: `h2 "Truth Value Testing": link "¶" e5 -> #truth
alert: Saved.`,
		},
		{
			name: "rows are one line each",
			nodes: []Node{{Role: "table", Ref: 6, Kids: []Node{
				{Role: "row", Kids: []Node{{Role: "columnheader", Name: "Name"}, {Role: "columnheader", Name: "Value"}}},
				{Role: "row", Kids: []Node{{Role: "cell", Name: "a"}, {Role: "cell", Kids: []Node{{Role: "button", Name: "Edit", Ref: 7}}}}},
			}}},
			want: `table e6
  | Name | Value
  | a | button "Edit" e7`,
		},
		{
			name: "interactive keeps controls, headings and landmarks",
			nodes: []Node{
				{Role: "navigation", Name: "main", Ref: 1, Kids: []Node{
					{Role: "heading", Name: "Menu", Level: 3},
					{Text: "prose"},
					{Role: "paragraph-ish", Kids: []Node{{Role: "link", Name: "Home", Ref: 2, Href: "http://127.0.0.1:8080/"}}},
				}},
			},
			f: treeFormat{interactive: true},
			want: `navigation "main" e1
  h3 "Menu"
  link "Home" e2 -> http://127.0.0.1:8080/`,
		},
		{
			name: "depth stops nesting",
			nodes: []Node{
				{Role: "main", Ref: 1, Kids: []Node{
					{Role: "heading", Name: "Top", Level: 1},
					{Role: "button", Name: "Deep", Ref: 2},
				}},
			},
			f:    treeFormat{maxDepth: 1},
			want: `main e1`,
		},
		{
			name:  "frames show where they come from",
			nodes: []Node{{Role: "iframe", Name: "Ads", Ref: 3, Frame: &FrameInfo{URL: "http://ads.example/x", CrossOrigin: true, Unreadable: true}}},
			f:     treeFormat{base: base},
			want:  `iframe "Ads" e3 -> http://ads.example/x (content not readable)`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, strings.Join(formatTree(tt.nodes, tt.f), "\n"))
		})
	}
}

func TestRelativeURL(t *testing.T) {
	base, err := url.Parse("http://127.0.0.1:8080/library/index.html?x=1")
	require.NoError(t, err)
	tests := []struct{ target, want string }{
		{"http://127.0.0.1:8080/library/index.html?x=1#top", "#top"},
		{"http://127.0.0.1:8080/library/index.html", "index.html"},
		{"http://127.0.0.1:8080/library/intro.html", "intro.html"},
		{"http://127.0.0.1:8080/library/sub/a.html", "sub/a.html"},
		{"http://127.0.0.1:8080/tutorial/index.html#s", "../tutorial/index.html#s"},
		{"http://127.0.0.1:8080/", "../"},
		{"http://127.0.0.1:8080/library/", "./"},
		{"https://127.0.0.1:8080/library/a.html", "https://127.0.0.1:8080/library/a.html"},
		{"http://other.example/a", "http://other.example/a"},
		{"http://127.0.0.1:8080/library/a.html?q=2", "a.html?q=2"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, relativeURL(base, tt.target), tt.target)
	}
	assert.Equal(t, "x", relativeURL(nil, "x"))
}

func TestSnapshotPagesAndDiffs(t *testing.T) {
	var s snapshots
	snap := s.add(7, "page", []string{"aaaa", "bbbb", "cccc", "dddd"})
	lines, next := snap.page(0, 10)
	assert.Equal(t, []string{"aaaa", "bbbb"}, lines)
	assert.Equal(t, snap.id+":2", next)
	lines, next = snap.page(2, 100)
	assert.Equal(t, []string{"cccc", "dddd"}, lines)
	assert.Empty(t, next)
	lines, _ = snap.page(0, 1)
	assert.Len(t, lines, 1, "a page holds at least one line")
	assert.Same(t, snap, s.get(snap.id))
	assert.Same(t, snap, s.last(7))
	assert.Nil(t, s.last(8))

	for range keptSnapshots {
		s.add(8, "page", nil)
	}
	assert.Nil(t, s.get(snap.id), "old snapshots are dropped")

	added, removed, more := diffLines([]string{"a", "  b", "c"}, []string{"a", "c", "b", "d"}, 10)
	assert.Equal(t, []string{"d"}, added, "moved lines are not news")
	assert.Empty(t, removed)
	assert.Zero(t, more)
	_, _, more = diffLines(nil, []string{"1", "2", "3"}, 2)
	assert.Equal(t, 1, more)

	for _, c := range []string{"x", "s1", "s1:-2", "t1:3", ":"} {
		_, _, err := parseCursor(c)
		assert.Error(t, err, c)
	}
	id, n, err := parseCursor("s3:120")
	require.NoError(t, err)
	assert.Equal(t, "s3", id)
	assert.Equal(t, 120, n)
}
