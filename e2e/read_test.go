package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

// openTab opens url in a new tab of the agent's group and returns its id.
func openTab(t testing.TB, cs *mcp.ClientSession, url string) int {
	t.Helper()
	var p page
	okJSON(t, cs, "tabs_create", map[string]any{"url": url}, &p)
	return p.TabID
}

// refOf returns the ref read_page's tree gives the element whose line starts
// with label, e.g. `button "Login"`.
func refOf(t testing.TB, tree, label string) string {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(label) + ` (e\d+)\b`).FindStringSubmatch(tree)
	require.NotNil(t, m, "no %s in:\n%s", label, tree)
	return m[1]
}

// status reads a fixture page's #status.
func status(t testing.TB, cs *mcp.ClientSession, tab int) string {
	t.Helper()
	return ok(t, cs, "javascript_tool", map[string]any{"code": `document.querySelector("#status").textContent`, "tabId": tab})
}

func TestReadPage(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")

	t.Run("the login page's tree", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/login.html")
		tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
		assert.Regexp(t, `^page "Login Page" http://127\.0\.0\.1:\d+/login\.html tab=\d+ snapshot=s\d+\n`, tree)
		for _, line := range []string{`h1 "Login Page"`, `textbox "Username" e`, `textbox "Password" e`, `button "Login" e`} {
			assert.Contains(t, tree, line)
		}
		assert.Regexp(t, `textbox "Password" e\d+ password`, tree, "a password field says so, and never its value")
		assert.NotContains(t, tree, "\nUsername\n", "a label's text is its control's name, said once")

		again := ok(t, cs, "read_page", map[string]any{"tabId": tab})
		strip := regexp.MustCompile(`snapshot=s\d+`)
		assert.Equal(t, strip.ReplaceAllString(tree, ""), strip.ReplaceAllString(again, ""),
			"two reads of an unchanged page give the same refs")
	})

	t.Run("filters, subtrees and depth", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/form.html")
		all := ok(t, cs, "read_page", map[string]any{"tabId": tab})
		assert.Contains(t, all, `combobox "Country"`)
		assert.Regexp(t, `combobox "Country" e\d+ value="Sweden"`, all)
		assert.Regexp(t, `radio "Free" e\d+ checked`, all)
		assert.Regexp(t, `checkbox "Subscribe" e\d+ unchecked`, all)
		assert.Regexp(t, `button "Archive" e\d+ disabled`, all)
		assert.Regexp(t, `listbox "Languages" e\d+`, all)
		assert.Regexp(t, `option "Rust" e\d+`, all)

		interactive := ok(t, cs, "read_page", map[string]any{"tabId": tab, "filter": "interactive"})
		assert.Contains(t, interactive, `button "Save"`)
		for _, line := range strings.Split(interactive, "\n")[1:] {
			// Only what can be acted on, and the headings and landmarks around it.
			assert.Regexp(t, `( e\d+|^\s*h\d ")`, line)
		}

		main := refOf(t, all, "main")
		sub := ok(t, cs, "read_page", map[string]any{"tabId": tab, "ref": main})
		assert.Contains(t, sub, `button "Save"`)
		shallow := ok(t, cs, "read_page", map[string]any{"tabId": tab, "depth": 1})
		assert.NotContains(t, shallow, `button "Save"`, "depth 1 stops at the top level")

		err := fails(t, cs, "read_page", map[string]any{"tabId": tab, "ref": "e99999"}, protocol.CodeBadRequest)
		assert.Contains(t, err.Hint, "read_page")
	})

	t.Run("frames and shadow roots are read in place", func(t *testing.T) {
		a, b := fixtureSites(t)
		cross := siteOnLocalhost(b, "/frame-inner.html")
		tab := openTab(t, cs, a.URL+"/frames.html?cross="+cross)
		tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
		assert.Regexp(t, `iframe "Same origin frame" e\d+`, tree)
		assert.Regexp(t, `iframe "Cross origin frame" e\d+ -> http://localhost:\d+/frame-inner\.html`, tree)
		assert.Equal(t, 2, strings.Count(tree, `textbox "Inner field" e`), "both frames' content, each with refs:\n%s", tree)

		tab = openTab(t, cs, site.URL+"/shadow.html")
		tree = ok(t, cs, "read_page", map[string]any{"tabId": tab})
		assert.Regexp(t, `button "Shadow button" e\d+`, tree)
		assert.Regexp(t, `textbox "Shadow input" e\d+`, tree)
		assert.Regexp(t, `button "Hidden in closed shadow" e\d+`, tree, "a closed shadow root hides from scripts, not from the person")
		assert.Regexp(t, `"Closed tile" e\d+ clickable`, tree, "its listeners are found too")
		// A button whose words a slot places in it is named by them.
		m := regexp.MustCompile(`button "Publish now" (e\d+)`).FindStringSubmatch(tree)
		require.NotNil(t, m, "a slotted name:\n%s", tree)
		interact(t, cs, map[string]any{"ref": m[1], "action": "click", "tabId": tab})
		assert.Equal(t, `"published"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "document.getElementById('status').textContent"}))
	})

	t.Run("long pages page with a cursor", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/list.html")
		first := ok(t, cs, "read_page", map[string]any{"tabId": tab, "maxChars": 1000})
		m := regexp.MustCompile(`\[truncated: lines 1-(\d+) of (\d+) shown; read on with cursor "(s\d+:\d+)"\]`).FindStringSubmatch(first)
		require.NotNil(t, m, first)
		assert.LessOrEqual(t, len(first), 1300)
		next := ok(t, cs, "read_page", map[string]any{"cursor": m[3], "maxChars": 1000})
		assert.Contains(t, next, "from line")
		assert.NotEqual(t, first, next)

		var seen []string
		cursor := ""
		for range 100 {
			args := map[string]any{"tabId": tab, "maxChars": 20000}
			if cursor != "" {
				args = map[string]any{"cursor": cursor, "maxChars": 20000}
			}
			page := ok(t, cs, "read_page", args)
			seen = append(seen, page)
			mm := regexp.MustCompile(`cursor "(s\d+:\d+)"`).FindStringSubmatch(page)
			if mm == nil {
				break
			}
			cursor = mm[1]
		}
		whole := strings.Join(seen, "\n")
		assert.Contains(t, whole, `link "Item 1" e`)
		assert.Contains(t, whole, `link "Item 500" e`, "the cursor reads to the end")

		fails(t, cs, "read_page", map[string]any{"cursor": "nonsense"}, protocol.CodeBadRequest)
		fails(t, cs, "read_page", map[string]any{"cursor": "s999999:1"}, protocol.CodeBadRequest)
		fails(t, cs, "read_page", map[string]any{"cursor": m[3], "mode": "text"}, protocol.CodeBadRequest)
	})

	t.Run("a documentation page: code as written, links as short as they stay true", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/docs.html")
		tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
		assert.Contains(t, tree, " ```\n class Greeter:\n     def greet(self, name):\n         if name:\n", "code keeps its lines and indentation:\n%s", tree)
		assert.Regexp(t, `(?m)^ link "Defining a class" e\d+$`, tree, "a link on the page itself has no target")
		assert.Regexp(t, `link "abs\(\)" e\d+ -> secure\.html#abs`, tree, "a short anchor is written whole")
		assert.Regexp(t, `code: name ::= link "letter" e\d+ \( link "letter" e\d+ \| "_"\)\*`, tree, "brackets between links are code")
		assert.Regexp(t, `(?m)Found a link "bug" e\d+ -> login\.html \? link "\[1\]" e\d+$`, tree,
			"a question keeps its mark, apart from the URL; a footnote's mark is a link")
		assert.Regexp(t, `(?m)^ h2: link "Grammar" e\d+$`, tree, "a heading that is a link says its name once")

		long := regexp.MustCompile(`link "Loader\.exec_module\(\)" (e\d+) -> secure\.html#…`).FindStringSubmatch(tree)
		require.NotNil(t, long, "a long anchor into another page is elided:\n%s", tree)
		up := ok(t, cs, "read_page", map[string]any{"tabId": tab, "ref": long[1]})
		assert.Contains(t, up, `-> secure.html#importlib.abc.Loader.exec_module`, "a read of the link writes it whole")

		// A table of contents nests a page's sections under the page: they
		// go where it does, and say so once.
		assert.Regexp(t, `(?m)^ link "The secure area" e\d+ -> secure\.html\n  link "importlib\.abc\.Loader" e\d+\n   link "load_module\(\)" (e\d+)$`, tree)
		nested := regexp.MustCompile(`link "load_module\(\)" (e\d+)`).FindStringSubmatch(tree)
		require.NotNil(t, nested)
		assert.Contains(t, ok(t, cs, "read_page", map[string]any{"tabId": tab, "ref": nested[1]}), `-> secure.html#importlib.abc.Loader.load_module`)

		ok(t, cs, "interact", map[string]any{"tabId": tab, "ref": long[1], "action": "click"})
		href := ok(t, cs, "javascript_tool", map[string]any{"tabId": tab, "code": "location.href"})
		assert.True(t, strings.HasSuffix(href, `/secure.html#importlib.abc.Loader.exec_module"`), "the ref follows the link exactly: %s", href)
	})

	t.Run("a link drawn in SVG is a link, followed by its ref", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/docs.html")
		tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
		m := regexp.MustCompile(`link "Sign-in page" (e\d+) -> login\.html`).FindStringSubmatch(tree)
		require.NotNil(t, m, "the diagram's box is a link:\n%s", tree)
		assert.Contains(t, tree, "then the secure area")
		a := actedOf(t, call(t, cs, "interact", map[string]any{"tabId": tab, "ref": m[1], "action": "click"}))
		assert.True(t, a.Navigated)
		assert.Equal(t, "Login Page", a.Title)
	})

	t.Run("text mode reads the main content as Markdown", func(t *testing.T) {
		tab := openTab(t, cs, site.URL+"/secure.html?user=tomsmith")
		text := ok(t, cs, "read_page", map[string]any{"tabId": tab, "mode": "text"})
		assert.Contains(t, text, "# Secure Area")
		assert.Contains(t, text, "You logged into a secure area!")
		assert.Contains(t, text, "[Logout](login.html)")
		fails(t, cs, "read_page", map[string]any{"tabId": tab, "mode": "text", "filter": "interactive"}, protocol.CodeBadRequest)
	})
}

// TestCellsThatLightUpAreNoMenus: a table whose every cell listens for
// the pointer (a highlight) gives no cell a ref for it, where one element
// that opens a menu on hover has one.
func TestCellsThatLightUpAreNoMenus(t *testing.T) {
	e := sharedEnv(t)
	srv := siteWith(t, map[string]http.HandlerFunc{
		"/table.html": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>Table</title><table>`)
			for i := range 50 {
				fmt.Fprintf(w, `<tr><td>Row %d</td></tr>`, i)
			}
			fmt.Fprint(w, `</table><script>for (const td of document.querySelectorAll("td")) td.addEventListener("mouseover", () => { td.style.background = "#eee"; });</script>`)
		},
		"/menu.html": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>Menu</title><div id="a">Account</div><div id="m" hidden><button>Sign out</button></div>
<script>document.getElementById("a").addEventListener("mouseenter", () => { document.getElementById("m").hidden = false; });</script>`)
		},
	})
	cs := e.client("e2e")
	table := ok(t, cs, "read_page", map[string]any{"tabId": openTab(t, cs, srv.URL+"/table.html")})
	assert.Contains(t, table, "| Row 49")
	assert.NotContains(t, table, "clickable")
	menu := ok(t, cs, "read_page", map[string]any{"tabId": openTab(t, cs, srv.URL+"/menu.html")})
	assert.Regexp(t, `generic "Account" e\d+ clickable`, menu)
}

// TestAnEmptyCellKeepsItsColumn reads an orders table with a total left
// blank: what follows the blank stays under its own header, not one to the
// left (the agent would read "Failed" as the total).
func TestAnEmptyCellKeepsItsColumn(t *testing.T) {
	e := sharedEnv(t)
	srv := siteWith(t, map[string]http.HandlerFunc{
		"/orders.html": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>Orders</title><table>
<tr><th>Customer</th><th>Total</th><th>Status</th><th></th></tr>
<tr><td>Bo Chan</td><td>$35.50</td><td>Pending</td><td><button>Refund</button></td></tr>
<tr><td>Cy Diaz</td><td></td><td>Failed</td><td></td></tr></table>`)
		},
	})
	cs := e.client("e2e")
	table := ok(t, cs, "read_page", map[string]any{"tabId": openTab(t, cs, srv.URL+"/orders.html")})
	assert.Contains(t, table, "| Customer | Total | Status\n")
	assert.Regexp(t, `\| Bo Chan \| \$35\.50 \| Pending \| button "Refund" e\d+\n`, table)
	assert.True(t, strings.HasSuffix(table, "| Cy Diaz |  | Failed"), table)
}

// TestASourceViewSaysItsLineLinksOnce reads code whose every line starts
// with a link to itself (rustdoc's source view): the code reads as code,
// the links are said in one line, and a line's ref, by that line's rule,
// goes to that line.
func TestASourceViewSaysItsLineLinksOnce(t *testing.T) {
	e := sharedEnv(t)
	srv := siteWith(t, map[string]http.HandlerFunc{
		"/src.html": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>src</title><pre><code>`+
				`<a href="#1" id="1">1</a>fn main() {
<a href="#2" id="2">2</a>    run();
<a href="#3" id="3">3</a>}</code></pre>`)
		},
	})
	cs := e.client("e2e")
	tab := openTab(t, cs, srv.URL+"/src.html")
	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	m := regexp.MustCompile("line numbers 1–3 are links e(\\d+)–e\\d+ \\(line N: eN\\+(\\d+)\\)\n```\nfn main\\(\\) \\{\n    run\\(\\);\n\\}\n```").FindStringSubmatch(tree)
	require.NotNil(t, m, tree)
	by, _ := strconv.Atoi(m[2])
	a := interact(t, cs, map[string]any{"ref": fmt.Sprintf("e%d", 2+by), "action": "click", "tabId": tab})
	assert.True(t, strings.HasSuffix(a.URL, "#2"), a.URL)
}

// TestAChangelogSaysItsIssueLinksOnce: a changelog's issue links, each to
// its own number's page, are said once above the tree, and each is still
// followed by its ref, and written whole by a read of it.
func TestAChangelogSaysItsIssueLinksOnce(t *testing.T) {
	e := sharedEnv(t)
	srv := siteWith(t, map[string]http.HandlerFunc{
		"/changes.html": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>changes</title><ul>`+
				`<li>Faster startup (<a href="/issues/101.html">gh-101</a>)</li>`+
				`<li>Fewer copies (<a href="/issues/204.html">gh-204</a>)</li>`+
				`<li>A crash fixed (<a href="/issues/311.html">gh-311</a>)</li></ul>`)
		},
		"/issues/": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `<!doctype html><title>%s</title><h1>Issue</h1>`, r.URL.Path)
		},
	})
	cs := e.client("e2e")
	tab := openTab(t, cs, srv.URL+"/changes.html")
	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	assert.Contains(t, tree, "\n"+`links "gh-N" go to issues/N.html`+"\n", tree)
	assert.NotContains(t, tree, "-> issues/", "no issue link writes its target again")
	ref := regexp.MustCompile(`link "gh-204" (e\d+)`).FindStringSubmatch(tree)
	require.NotNil(t, ref, tree)
	assert.Contains(t, ok(t, cs, "read_page", map[string]any{"tabId": tab, "ref": ref[1]}), `link "gh-204" `+ref[1]+` -> issues/204.html`)
	a := interact(t, cs, map[string]any{"ref": ref[1], "action": "click", "tabId": tab})
	assert.True(t, strings.HasSuffix(a.URL, "/issues/204.html"), a.URL)
}

// TestABoxInABarRepeatedBelowIsTheFirstOnes: a documentation page repeats
// its navigation bar, search box and all, below its text, and read_page
// writes the second "same as" the first: a query or label that names the
// box types into the first, where a step by query was refused as two alike.
func TestABoxInABarRepeatedBelowIsTheFirstOnes(t *testing.T) {
	e := sharedEnv(t)
	bar := func(id string) string {
		return `<nav aria-label="related navigation"><a href="/genindex.html">index</a> | <a href="/next.html">next</a>` +
			`<form role="search"><input id="` + id + `" aria-label="Quick search"><button type="button">Go</button></form></nav>`
	}
	srv := siteWith(t, map[string]http.HandlerFunc{
		"/doc.html": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>doc</title>`+bar("top")+`<main><h1>Built-in Functions</h1>`+
				`<p>`+strings.Repeat("Text of the page. ", 40)+`</p></main>`+bar("bottom"))
		},
	})
	cs := e.client("e2e")
	tab := openTab(t, cs, srv.URL+"/doc.html")
	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	assert.Regexp(t, `navigation "related navigation" e\d+: same as e1`, tree)
	assert.Regexp(t, `textbox "Quick search" e\d+ same as e\d+`, ok(t, cs, "find", map[string]any{"tabId": tab, "query": "Quick search"}))

	a := interact(t, cs, map[string]any{"query": "Quick search", "action": "type", "text": "zip", "tabId": tab})
	assert.Equal(t, "zip", a.Value)
	r := call(t, cs, "form_input", map[string]any{"tabId": tab, "fields": []map[string]any{{"label": "Quick search", "value": "map"}}})
	require.False(t, r.IsError, textOf(r))
	assert.Equal(t, `"map|"`, ok(t, cs, "javascript_tool", map[string]any{"tabId": tab,
		"code": "document.getElementById('top').value + '|' + document.getElementById('bottom').value"}))
}

func TestFind(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/form.html")

	tests := []struct {
		query string
		want  string // the first candidate
		why   string
	}{
		{"Email", `textbox "Email"`, `name is "Email"`},
		{"button Save", `button "Save"`, `button named "Save"`},
		{`radio "Pro"`, `radio "Pro"`, `radio named "Pro"`},
		{"#nickname", `textbox "Nickname"`, "matches selector #nickname"},
		{"nick", `textbox "Nickname"`, `name contains "nick"`},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			out := ok(t, cs, "find", map[string]any{"query": tt.query, "tabId": tab})
			lines := strings.Split(out, "\n")
			require.GreaterOrEqual(t, len(lines), 2, out)
			assert.Regexp(t, `^`+regexp.QuoteMeta(tt.want)+` e\d+ \(`, lines[1])
			assert.Contains(t, lines[1], tt.why)
		})
	}
	// The ref find gives is one interact takes.
	out := ok(t, cs, "find", map[string]any{"query": "Full name", "tabId": tab})
	ref := regexp.MustCompile(`e\d+`).FindString(strings.Split(out, "\n")[1])
	ok(t, cs, "interact", map[string]any{"ref": ref, "action": "fill", "text": "Grace", "tabId": tab})
	assert.Equal(t, `"Grace"`, ok(t, cs, "javascript_tool", map[string]any{"code": `document.querySelector("#full-name").value`, "tabId": tab}))

	assert.Contains(t, ok(t, cs, "find", map[string]any{"query": "no such thing anywhere", "tabId": tab}), "no match")
	fails(t, cs, "find", map[string]any{"query": "  ", "tabId": tab}, protocol.CodeBadRequest)
	limited := ok(t, cs, "find", map[string]any{"query": "option", "limit": 2, "tabId": tab})
	assert.Equal(t, 3, len(strings.Split(limited, "\n")), "a header and two candidates:\n%s", limited)
}

// TestFindTellsApartButtonsOfOneName finds one of three "Delete" buttons
// of a list whose items have no heading: each is said with its item's
// words, and a query phrased as an agent phrases it ("the Delete button
// for Walk the dog") picks that item's, which interact then clicks.
func TestFindTellsApartButtonsOfOneName(t *testing.T) {
	e := sharedEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/todos.html")

	all := ok(t, cs, "find", map[string]any{"query": "Delete", "tabId": tab})
	for _, item := range []string{"Buy milk", "Walk the dog", "Write report"} {
		assert.Contains(t, all, `near "`+item+`"`, all)
	}
	out := ok(t, cs, "find", map[string]any{"query": "the Delete button for Walk the dog", "tabId": tab})
	lines := strings.Split(out, "\n")
	require.Len(t, lines, 2, out)
	assert.Contains(t, lines[1], `near "Walk the dog"`)
	ref := regexp.MustCompile(`e\d+`).FindString(lines[1])
	interact(t, cs, map[string]any{"ref": ref, "action": "click", "tabId": tab})
	tree := ok(t, cs, "read_page", map[string]any{"tabId": tab})
	assert.NotContains(t, tree, "Walk the dog")
	assert.Contains(t, tree, "Buy milk")
	assert.Contains(t, tree, "Write report")

	// Or by its place among those alike: the last is Write report's.
	last := interact(t, cs, map[string]any{"query": "the last Delete button", "action": "click", "tabId": tab})
	assert.Contains(t, last.Found, "last of 2 alike")
	tree = ok(t, cs, "read_page", map[string]any{"tabId": tab})
	assert.NotContains(t, tree, "Write report")
	assert.Contains(t, tree, "Buy milk")
}

// TestEveryResultIsStructured calls the tools an agent uses most and checks
// each answer has its text and, beside it, the same as structuredContent.
func TestEveryResultIsStructured(t *testing.T) {
	e := newEnv(t)
	site := fixtureSite(t)
	cs := e.client("e2e")
	tab := openTab(t, cs, site.URL+"/login.html")
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"tabs_context", map[string]any{}},
		{"oc_connection_health", map[string]any{}},
		{"navigate", map[string]any{"url": site.URL + "/login.html", "tabId": tab}},
		{"read_page", map[string]any{"tabId": tab}},
		{"read_page", map[string]any{"tabId": tab, "mode": "text"}},
		{"find", map[string]any{"query": "Login", "tabId": tab}},
		{"find", map[string]any{"query": "no such thing anywhere", "tabId": tab}},
		{"interact", map[string]any{"query": "Username", "action": "fill", "text": "tom", "tabId": tab}},
		{"act", map[string]any{"tabId": tab, "steps": []map[string]any{{"query": "Username", "action": "focus"}}}},
		{"form_input", map[string]any{"tabId": tab, "fields": []map[string]any{{"label": "Username", "value": "tomsmith"}}}},
		{"wait_for", map[string]any{"tabId": tab, "text": "Login"}},
		{"javascript_tool", map[string]any{"tabId": tab, "code": "document.title"}},
		{"javascript_tool", map[string]any{"tabId": tab, "code": "undefined"}},
		{"page_screenshot", map[string]any{"tabId": tab}},
		{"computer", map[string]any{"tabId": tab, "action": "screenshot"}},
		{"oc_task_list", map[string]any{}},
	}
	for _, c := range calls {
		t.Run(c.tool, func(t *testing.T) {
			r := call(t, cs, c.tool, c.args)
			require.False(t, r.IsError, "%s", textOf(r))
			assert.NotEmpty(t, textOf(r), "the text is there for every client")
			b, err := json.Marshal(r.StructuredContent)
			require.NoError(t, err)
			var obj map[string]any
			require.NoError(t, json.Unmarshal(b, &obj), "structuredContent is an object: %s", b)
			assert.NotEmpty(t, obj)
		})
	}
}
