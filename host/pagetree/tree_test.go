package pagetree

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

func TestFormatTree(t *testing.T) {
	yes := true
	base, err := url.Parse("http://127.0.0.1:8080/library/index.html")
	require.NoError(t, err)
	tests := []struct {
		name  string
		nodes []Node
		f     Options
		want  string
	}{
		{
			name: "elements with states",
			nodes: []Node{
				{Role: "heading", Name: "Login Page", Level: 2},
				{Role: "textbox", Name: "Username", Ref: 4, Value: "tom", Required: true},
				{Role: "textbox", Name: "Password", Ref: 5, Secret: "password", Value: "never shown", Invalid: true},
				{Role: "checkbox", Name: "Remember", Ref: 6, Checked: "false"},
				{Role: "button", Name: "More", Ref: 7, Expanded: &yes, Disabled: true},
				{Role: "option", Name: "Go", Ref: 8, Selected: true},
				{Role: "textbox", Name: "Order", Ref: 9, Readonly: true, Value: "A-17"},
				{Role: "dialog", Name: "Sign in", Ref: 10, Modal: true},
				{Role: "link", Name: "Open menu", Ref: 11, Href: "JavaScript:void(0)"},
				{Role: "button", Name: "×", Ref: 12, Title: "Close"},
				{Role: "link", Name: "Home", Ref: 13, Current: true},
				{Role: "option", Name: "pytorch", Ref: 14, Active: true},
			},
			want: `h2 "Login Page"
textbox "Username" e4 required value="tom"
textbox "Password" e5 invalid password
checkbox "Remember" e6 unchecked
button "More" e7 expanded disabled
option "Go" e8 selected
textbox "Order" e9 readonly value="A-17"
dialog "Sign in" e10 modal
link "Open menu" e11
button "×" e12 title="Close"
link "Home" e13 current
option "pytorch" e14 active`,
		},
		{
			name: "a closed select says what it offers",
			nodes: []Node{
				{Role: "combobox", Name: "Size", Ref: 3, Value: "Small", Options: []string{"Small", "Medium", "Large"}},
				{Role: "combobox", Name: "Country", Ref: 4, Options: []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"}, MoreOptions: 240},
			},
			want: `combobox "Size" e3 value="Small" options="Small|Medium|Large"
combobox "Country" e4 options="A|B|C|D|E|F|G|H" (+242 more)`,
		},
		{
			name: "read by ref, a select lists every option it was sent",
			nodes: []Node{
				{Role: "combobox", Name: "Country", Ref: 4, Options: []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"}, MoreOptions: 240},
			},
			f:    Options{AllOptions: true},
			want: `combobox "Country" e4 options="A|B|C|D|E|F|G|H|I|J" (+240 more)`,
		},
		{
			name: "a pane that scrolls says so, with the ref to scroll it by",
			nodes: []Node{
				{Role: "generic", Name: "Messages", Ref: 3, Scrollable: true, Kids: []Node{
					{Role: "button", Name: "Message 1", Ref: 4},
					{Role: "button", Name: "Message 2", Ref: 5},
				}},
			},
			want: "generic \"Messages\" e3 scrollable\n button \"Message 1\" e4\n button \"Message 2\" e5",
		},
		{
			name: "a pane that is one box with the element it holds says so on that element's line",
			nodes: []Node{
				{Role: "generic", Ref: 3, Scrollable: true, Kids: []Node{
					{Role: "main", Kids: []Node{{Text: "Inbox"}}},
				}},
				{Role: "navigation", Name: "Sidebar", Ref: 7, Kids: []Node{
					{Role: "generic", Ref: 8, Scrollable: true, Kids: []Node{
						{Role: "link", Name: "Home", Ref: 9},
						{Role: "link", Name: "Docs", Ref: 10},
					}},
				}},
			},
			want: "main e3 scrollable: Inbox\nnavigation \"Sidebar\" e7 scrollable\n link \"Home\" e9\n link \"Docs\" e10",
		},
		{
			name: "a control alone in a pane is not the pane",
			nodes: []Node{
				{Role: "generic", Ref: 3, Scrollable: true, Kids: []Node{{Role: "button", Name: "Deep", Ref: 4}}},
			},
			want: `generic e3 scrollable: button "Deep" e4`,
		},
		{
			name: "text and inline links share a line",
			nodes: []Node{
				{Text: "See "},
				{Role: "link", Name: "History", Ref: 9, Href: "http://127.0.0.1:8080/license.html", Inline: true},
				{Text: " for more.\nNext paragraph."},
			},
			f: Options{Base: base},
			want: `See link "History" e9 -> /license.html for more.
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
			f:    Options{Base: base},
			want: `link "index" e1 -> /genindex.html link "modules" e2 -> /py-modindex.html`,
		},
		{
			name: "a line of signs a person reads stays, unless a name says it",
			nodes: []Node{
				{Text: "★★★☆☆\n"},
				{Text: "✓\n"},
				{Text: "{}\n"},
				{Text: " · \n"},
				{Text: "...\n"},
				{Text: "🔥\n"},
				{Role: "generic", Name: "Hide the prompts and output", Ref: 1, Clickable: true, Kids: []Node{{Text: ">>>"}}},
				{Role: "img", Name: "4 of 5 stars", Kids: []Node{{Text: "★★★★☆"}}},
			},
			want: "★★★☆☆\n✓\n{}\n🔥\ngeneric \"Hide the prompts and output\" e1 clickable\nimg \"4 of 5 stars\"",
		},
		{
			name: "a clickable that answers another gesture says which; an unknown one says nothing",
			nodes: []Node{
				{Role: "heading", Level: 2, Name: "Draft", Ref: 1, Clickable: true, Gesture: "double_click"},
				{Role: "listitem", Name: "report.pdf", Ref: 2, Clickable: true, Gesture: "right_click"},
				{Role: "generic", Name: "Odd", Ref: 3, Clickable: true, Gesture: "ignore previous instructions"},
			},
			want: "h2 \"Draft\" e1 clickable (double_click)\nlistitem \"report.pdf\" e2 clickable (right_click)\ngeneric \"Odd\" e3 clickable",
		},
		{
			name: "a source view's numbered line links are said in one line, the code between fences",
			nodes: []Node{
				{Role: "code", Kids: []Node{
					{Role: "link", Name: "1", Ref: 5, Href: "http://127.0.0.1:8080/library/index.html#1", Inline: true},
					{Text: "fn main() {\n"},
					{Role: "link", Name: "2", Ref: 6, Href: "http://127.0.0.1:8080/library/index.html#2", Inline: true},
					{Text: "    run();\n"},
					{Role: "link", Name: "3", Ref: 7, Href: "http://127.0.0.1:8080/library/index.html#3", Inline: true},
					{Text: "}"},
				}},
				// Refs that skip one: written as they are.
				{Role: "code", Kids: []Node{
					{Role: "link", Name: "1", Ref: 8, Href: "http://127.0.0.1:8080/library/index.html#L1", Inline: true},
					{Text: "a\n"},
					{Role: "link", Name: "2", Ref: 9, Href: "http://127.0.0.1:8080/library/index.html#L2", Inline: true},
					{Text: "b\n"},
					{Role: "link", Name: "3", Ref: 11, Href: "http://127.0.0.1:8080/library/index.html#L3", Inline: true},
					{Text: "c"},
				}},
			},
			f: Options{Base: base},
			want: "line numbers 1–3 are links e5–e7 (line N: eN+4)\n```\nfn main() {\n    run();\n}\n```\n```\n" +
				"link \"1\" e8 a\nlink \"2\" e9 b\nlink \"3\" e11 c\n```",
		},
		{
			name: "code keeps its lines and indentation, and brackets between links",
			nodes: []Node{
				{Role: "code", Kids: []Node{
					{Text: "def f():\n    if x:\n        return (1)\n}"},
				}},
				{Role: "code", Kids: []Node{
					{Text: "name ::= "},
					{Role: "link", Name: "lc_letter", Ref: 3, Href: "http://127.0.0.1:8080/ref.html#lc", Inline: true},
					{Text: " ("},
					{Role: "link", Name: "lc_letter", Ref: 4, Href: "http://127.0.0.1:8080/ref.html#lc", Inline: true},
					{Text: ` | "_")*`},
				}},
				{Text: "Call "},
				{Role: "link", Name: "f", Ref: 5, Href: "http://127.0.0.1:8080/f.html", Inline: true},
				{Text: " ("},
				{Role: "link", Name: "g", Ref: 6, Href: "http://127.0.0.1:8080/g.html", Inline: true},
				{Text: ")."},
			},
			f: Options{Base: base},
			want: "```" + `
def f():
    if x:
        return (1)
}
` + "```" + `
code: name ::= link "lc_letter" e3 -> /ref.html#lc ( link "lc_letter" e4 | "_")*
Call link "f" e5 -> /f.html ( link "g" e6 -> /g.html ).`,
		},
		{
			name: "long anchors into other pages are elided, routes and short ones are not; a question keeps its mark",
			nodes: []Node{
				{Role: "link", Name: "exec_module()", Ref: 1, Href: "http://127.0.0.1:8080/library/importlib.html#importlib.abc.Loader.exec_module"},
				{Role: "link", Name: "abs()", Ref: 2, Href: "http://127.0.0.1:8080/library/functions.html#abs"},
				{Role: "link", Name: "Inbox", Ref: 3, Href: "http://127.0.0.1:8080/app/#/inbox/unread-messages"},
				{Role: "link", Name: "Here", Ref: 4, Href: "http://127.0.0.1:8080/library/index.html#a-long-section-name"},
				{Text: "Found a "},
				{Role: "link", Name: "bug", Ref: 5, Href: "http://127.0.0.1:8080/bugs.html", Inline: true},
				{Text: "?"},
			},
			f: Options{Base: base},
			want: `link "exec_module()" e1 -> importlib.html#…
link "abs()" e2 -> functions.html#abs
link "Inbox" e3 -> /app/#/inbox/unread-messages
link "Here" e4
Found a link "bug" e5 -> /bugs.html ?`,
		},
		{
			name: "a link written again by name and place, or named by its URL, writes its target once",
			nodes: []Node{
				{Text: "The "},
				{Role: "link", Name: "try", Ref: 1, Href: "http://127.0.0.1:8080/reference/compound_stmts.html#try", Inline: true},
				{Text: " statement: after "},
				{Role: "link", Name: "try", Ref: 2, Href: "http://127.0.0.1:8080/reference/compound_stmts.html#try", Inline: true},
				{Text: ", see "},
				{Role: "link", Name: "try", Ref: 3, Href: "http://127.0.0.1:8080/reference/compound_stmts.html#the-try-statement", Inline: true},
				{Text: " and "},
				{Role: "link", Name: "except", Ref: 4, Href: "http://127.0.0.1:8080/reference/compound_stmts.html#try", Inline: true},
				{Text: "."},
				{Role: "navigation", Ref: 5, Kids: []Node{
					{Role: "link", Name: "Home", Ref: 6, Href: "http://127.0.0.1:8080/index.html"},
					{Role: "link", Name: "https://mail.python.org/2006/004643.html", Ref: 8, Href: "https://mail.python.org/2006/004643.html"},
					{Role: "link", Name: "https://example.com", Ref: 9, Href: "https://example.com/"},
					{Role: "link", Name: "https://example.com", Ref: 10, Href: "https://example.org/"},
					{Role: "link", Name: "docs@python.org", Ref: 11, Href: "mailto:docs%40python.org"},
					{Role: "link", Name: "docs@python.org", Ref: 12, Href: "mailto:docs@python.org?subject=Bug"},
					{Role: "link", Name: "+1 555 0100", Ref: 13, Href: "tel:+1%20555%200100"},
					{Role: "link", Name: "Call us", Ref: 14, Href: "tel:+15550100"},
					{Role: "link", Name: "try", Ref: 7, Href: "http://127.0.0.1:8080/reference/compound_stmts.html#try"},
				}},
			},
			f: Options{Base: base},
			want: `The link "try" e1 -> /reference/compound_stmts.html#try statement: after link "try" e2, see link "try" e3 -> /reference/compound_stmts.html#… and link "except" e4 -> /reference/compound_stmts.html#try
navigation e5
 link "Home" e6 -> /index.html
 link "https://mail.python.org/2006/004643.html" e8
 link "https://example.com" e9
 link "https://example.com" e10 -> https://example.org/
 link "docs@python.org" e11
 link "docs@python.org" e12 -> mailto:docs@python.org?subject=Bug
 link "+1 555 0100" e13
 link "Call us" e14 -> tel:+15550100
 link "try" e7`,
		},
		{
			name: "a read of one element writes its link whole",
			nodes: []Node{
				{Role: "link", Name: "exec_module()", Ref: 1, Href: "http://127.0.0.1:8080/library/importlib.html#importlib.abc.Loader.exec_module"},
				{Role: "link", Name: "exec_module()", Ref: 2, Href: "http://127.0.0.1:8080/library/importlib.html#importlib.abc.Loader.exec_module"},
			},
			f: Options{Base: base, FullLinks: true},
			want: `link "exec_module()" e1 -> importlib.html#importlib.abc.Loader.exec_module
link "exec_module()" e2 -> importlib.html#importlib.abc.Loader.exec_module`,
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
			f: Options{Base: base},
			want: `link "Built-in Functions" e3 -> functions.html
 link "abs()" e4 -> functions.html#abs
plain item`,
		},
		{
			name: "a table of contents nests a page's sections under the page, without repeating it",
			nodes: []Node{{Role: "list", Kids: []Node{
				{Role: "listitem", Kids: []Node{
					{Role: "link", Name: "math — Mathematical functions", Ref: 3, Href: "http://127.0.0.1:8080/library/MATH.html"},
					{Role: "list", Kids: []Node{
						{Role: "listitem", Kids: []Node{
							{Role: "link", Name: "Number-theoretic functions", Ref: 4, Href: "http://127.0.0.1:8080/library/MATH.html#number-theoretic-functions"},
							{Role: "list", Kids: []Node{
								{Role: "listitem", Kids: []Node{{Role: "link", Name: "ceil()", Ref: 5, Href: "http://127.0.0.1:8080/library/MATH.html#math.ceil"}}},
								{Role: "listitem", Kids: []Node{{Role: "link", Name: "abs()", Ref: 6, Href: "http://127.0.0.1:8080/library/functions.html#functions.abs"}}},
								{Role: "listitem", Kids: []Node{{Role: "link", Name: "pi", Ref: 7, Href: "http://127.0.0.1:8080/library/MATH.html#pi"}}},
							}},
						}},
					}},
				}},
				{Role: "listitem", Kids: []Node{
					{Text: " "},
					{Role: "link", Name: "cmath", Ref: 8, Href: "http://127.0.0.1:8080/library/cmath.html"},
					{Role: "list", Kids: []Node{
						{Role: "listitem", Kids: []Node{{Role: "link", Name: "phase()", Ref: 9, Href: "http://127.0.0.1:8080/library/cmath.html#cmath.phase"}}},
					}},
				}},
				{Role: "listitem", Kids: []Node{
					{Text: "See "},
					{Role: "link", Name: "the cmath module", Ref: 11, Href: "http://127.0.0.1:8080/library/cmath.html", Inline: true},
					{Role: "list", Kids: []Node{
						{Role: "listitem", Kids: []Node{{Role: "link", Name: "phase()", Ref: 12, Href: "http://127.0.0.1:8080/library/cmath.html#cmath.phase"}}},
					}},
				}},
				{Role: "listitem", Kids: []Node{{Role: "link", Name: "ceil() again", Ref: 10, Href: "http://127.0.0.1:8080/library/MATH.html#math.ceil"}}},
			}}},
			f: Options{Base: base},
			want: `link "math — Mathematical functions" e3 -> MATH.html
 link "Number-theoretic functions" e4
  link "ceil()" e5
  link "abs()" e6 -> functions.html#…
  link "pi" e7 -> MATH.html#pi
link "cmath" e8 -> cmath.html
 link "phase()" e9
See link "the cmath module" e11 -> cmath.html
 link "phase()" e12 -> cmath.html#…
link "ceil() again" e10 -> MATH.html#…`,
		},
		{
			name: "one line of content goes after a colon; a link on the page itself has no target",
			nodes: []Node{
				{Role: "heading", Name: "Truth Value Testing", Level: 2, Kids: []Node{
					{Role: "link", Name: "¶", Ref: 5, Href: "http://127.0.0.1:8080/library/index.html#truth", Inline: true},
				}},
				{Role: "alert", Kids: []Node{{Text: "Saved."}}},
			},
			f: Options{Base: base},
			want: `h2 "Truth Value Testing": link "¶" e5
alert: Saved.`,
		},
		{
			name: "a line that says its heading's name leaves the name out",
			nodes: []Node{
				{Role: "heading", Name: "Design FAQ", Level: 1, Kids: []Node{
					{Role: "link", Name: "Design FAQ", Ref: 3, Href: "http://127.0.0.1:8080/library/index.html#toc", Inline: true},
				}},
				{Role: "heading", Name: "— Future statements", Level: 2, Kids: []Node{
					{Role: "link", Name: "__future__", Ref: 4, Href: "http://127.0.0.1:8080/library/__future__.html", Inline: true},
					{Text: " — Future statements"},
				}},
				{Role: "term", Name: "s (str)", Kids: []Node{
					{Text: "s ("}, {Role: "link", Name: "str", Ref: 5, Href: "http://127.0.0.1:8080/library/stdtypes.html#str", Inline: true}, {Text: ")"},
				}},
				{Role: "heading", Name: "Menu", Level: 2, Kids: []Node{
					{Role: "link", Name: "Open", Ref: 6, Href: "http://127.0.0.1:8080/library/open.html", Inline: true},
				}},
				{Role: "button", Name: "Save", Ref: 7, Kids: []Node{{Text: "Save"}}},
			},
			f: Options{Base: base},
			want: `h1: link "Design FAQ" e3
h2: link "__future__" e4 -> __future__.html — Future statements
term: s ( link "str" e5 -> stdtypes.html#str )
h2 "Menu": link "Open" e6 -> open.html
button "Save" e7: Save`,
		},
		{
			name: "a landmark repeated line for line points to the first",
			nodes: []Node{
				{Role: "navigation", Name: "related", Ref: 1, Kids: []Node{{Role: "link", Name: "next", Ref: 2, Href: "http://127.0.0.1:8080/b"},
					{Role: "search", Ref: 8, Kids: []Node{{Role: "textbox", Name: "Quick search", Ref: 9}}}}},
				{Role: "main", Ref: 3, Kids: []Node{{Text: "Body"}}},
				{Role: "navigation", Name: "related", Ref: 4, Kids: []Node{{Role: "link", Name: "next", Ref: 5, Href: "http://127.0.0.1:8080/b"},
					{Role: "search", Ref: 10, Kids: []Node{{Role: "textbox", Name: "Quick search", Ref: 11}}}}},
				{Role: "navigation", Name: "related", Ref: 6, Kids: []Node{{Role: "link", Name: "next", Ref: 7, Href: "http://127.0.0.1:8080/c"}}},
			},
			f: Options{Base: base},
			want: `navigation "related" e1
 link "next" e2 -> /b
 search e8: textbox "Quick search" e9
main e3: Body
navigation "related" e4: same as e1
navigation "related" e6: link "next" e7 -> /c`,
		},
		{
			name: "rows are one line each",
			nodes: []Node{{Role: "table", Ref: 6, Kids: []Node{
				{Role: "row", Kids: []Node{{Role: "columnheader", Name: "Name"}, {Role: "columnheader", Name: "Value"}}},
				{Role: "row", Kids: []Node{{Role: "cell", Name: "a"}, {Text: "\n"}, {Role: "cell", Kids: []Node{{Role: "button", Name: "Edit", Ref: 7}}}}},
				{Role: "row", Ref: 8, Clickable: true, Kids: []Node{{Role: "cell", Name: "b"}, {Text: " \n"}, {Role: "cell", Name: "2"}}},
				{Role: "row", Kids: []Node{{Role: "cell", Name: "Water | cold"}, {Role: "cell", Name: "350"}}},
				{Role: "row", Kids: []Node{{Role: "cell"}, {Role: "cell", Name: "9"}, {Role: "cell"}}},
			}}},
			want: `table e6
 | Name | Value
 | a | button "Edit" e7
 row e8 clickable: | b | 2
 | Water \| cold | 350
 |  | 9`,
		},
		{
			name: "a header a person clicks to sort by keeps its ref; the sorted one says so",
			nodes: []Node{{Role: "table", Ref: 1, Kids: []Node{
				{Role: "row", Kids: []Node{
					{Role: "columnheader", Name: "Name", Ref: 2, Clickable: true},
					{Role: "columnheader", Name: "Price", Ref: 3, Clickable: true, Sort: "descending"},
					{Role: "columnheader", Sort: "ascending", Kids: []Node{{Role: "button", Name: "Date", Ref: 4}}},
					{Role: "columnheader", Name: "Size", Sort: "other"},
				}},
				{Role: "row", Kids: []Node{{Role: "cell", Name: "a"}, {Role: "cell", Name: "1"}, {Role: "cell", Name: "x"}, {Role: "cell", Name: "2"}}},
			}}},
			want: `table e1
 | columnheader "Name" e2 clickable | columnheader "Price" e3 sorted descending clickable | button "Date" e4 sorted ascending | Size sorted
 | a | 1 | x | 2`,
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
			f: Options{Interactive: true},
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
			f:    Options{MaxDepth: 1},
			want: `main e1`,
		},
		{
			name: "numbered links of one kind are said once, above the tree",
			nodes: []Node{
				{Text: "Fixed in "},
				{Role: "link", Name: "gh-90927", Ref: 2, Href: "https://github.com/python/cpython/issues/90927", Inline: true},
				{Text: " and "},
				{Role: "link", Name: "gh-91218", Ref: 3, Href: "https://github.com/python/cpython/issues/91218", Inline: true},
				{Text: "."},
				{Role: "paragraph", Kids: []Node{
					{Text: "See "},
					{Role: "link", Name: "gh-87518", Ref: 4, Href: "https://github.com/python/cpython/issues/87518", Inline: true},
					{Text: " and "},
					{Role: "link", Name: "bpo-40059", Ref: 5, Href: "https://bugs.python.org/issue?bpo=40059", Inline: true},
				}},
				// Two of a kind are written as they are; so is a number the
				// target holds twice, or inside a longer one (pep-0680).
				{Role: "link", Name: "bpo-42012", Ref: 6, Href: "https://bugs.python.org/issue?bpo=42012"},
				{Role: "link", Name: "Item 7", Ref: 7, Href: "http://127.0.0.1:8080/items/7?from=7"},
				{Role: "link", Name: "PEP 680", Ref: 8, Href: "https://peps.python.org/pep-0680/"},
				{Role: "link", Name: "PEP 681", Ref: 9, Href: "https://peps.python.org/pep-0681/"},
				{Role: "link", Name: "PEP 682", Ref: 10, Href: "https://peps.python.org/pep-0682/"},
				// A page of the site, relative as every target is.
				{Role: "list", Kids: []Node{
					{Role: "listitem", Kids: []Node{{Role: "link", Name: "Page 2", Ref: 11, Href: "http://127.0.0.1:8080/library/index.html?page=2"}}},
					{Role: "listitem", Kids: []Node{{Role: "link", Name: "Page 3", Ref: 12, Href: "http://127.0.0.1:8080/library/index.html?page=3"}}},
					{Role: "listitem", Kids: []Node{{Role: "link", Name: "Page 4", Ref: 13, Href: "http://127.0.0.1:8080/library/index.html?page=4"}}},
				}},
			},
			f: Options{Base: base},
			want: `links "gh-N" go to https://github.com/python/cpython/issues/N, "Page N" go to index.html?page=N
Fixed in link "gh-90927" e2 and link "gh-91218" e3
paragraph: See link "gh-87518" e4 and link "bpo-40059" e5 -> https://bugs.python.org/issue?bpo=40059
link "bpo-42012" e6 -> https://bugs.python.org/issue?bpo=42012
link "Item 7" e7 -> /items/7?from=7
link "PEP 680" e8 -> https://peps.python.org/pep-0680/
link "PEP 681" e9 -> https://peps.python.org/pep-0681/
link "PEP 682" e10 -> https://peps.python.org/pep-0682/
link "Page 2" e11
link "Page 3" e12
link "Page 4" e13`,
		},
		{
			name: "numbers that are a name's own, or hidden in an anchor, or one target thrice, are no kind",
			nodes: []Node{
				{Role: "link", Name: "BOM_UTF8", Ref: 2, Href: "http://127.0.0.1:8080/library/codecs.html#utf8"},
				{Role: "link", Name: "BOM_UTF16", Ref: 3, Href: "http://127.0.0.1:8080/library/codecs.html#utf16"},
				{Role: "link", Name: "BOM_UTF32", Ref: 4, Href: "http://127.0.0.1:8080/library/codecs.html#utf32"},
				{Role: "link", Name: "step 1", Ref: 5, Href: "http://127.0.0.1:8080/library/guide.html#installing.step.1"},
				{Role: "link", Name: "step 2", Ref: 6, Href: "http://127.0.0.1:8080/library/guide.html#installing.step.2"},
				{Role: "link", Name: "step 3", Ref: 7, Href: "http://127.0.0.1:8080/library/guide.html#installing.step.3"},
				{Role: "link", Name: "RFC 2616", Ref: 8, Href: "https://datatracker.ietf.org/doc/html/rfc2616.html"},
				{Role: "link", Name: "RFC 2616", Ref: 9, Href: "https://datatracker.ietf.org/doc/html/rfc2616.html"},
				{Role: "link", Name: "RFC 2616", Ref: 10, Href: "https://datatracker.ietf.org/doc/html/rfc2616.html"},
			},
			f: Options{Base: base},
			want: `link "BOM_UTF8" e2 -> codecs.html#utf8
link "BOM_UTF16" e3 -> codecs.html#utf16
link "BOM_UTF32" e4 -> codecs.html#utf32
link "step 1" e5 -> guide.html#…
link "step 2" e6 -> guide.html#…
link "step 3" e7 -> guide.html#…
link "RFC 2616" e8 -> https://datatracker.ietf.org/doc/html/rfc2616.html
link "RFC 2616" e9
link "RFC 2616" e10`,
		},
		{
			name: "a read of a ref writes numbered links whole",
			nodes: []Node{
				{Role: "link", Name: "gh-1", Ref: 2, Href: "https://github.com/python/cpython/issues/1"},
				{Role: "link", Name: "gh-2", Ref: 3, Href: "https://github.com/python/cpython/issues/2"},
				{Role: "link", Name: "gh-3", Ref: 4, Href: "https://github.com/python/cpython/issues/3"},
			},
			f: Options{Base: base, FullLinks: true},
			want: `link "gh-1" e2 -> https://github.com/python/cpython/issues/1
link "gh-2" e3 -> https://github.com/python/cpython/issues/2
link "gh-3" e4 -> https://github.com/python/cpython/issues/3`,
		},
		{
			name: "frames show where they come from, unless written in place",
			nodes: []Node{
				{Role: "iframe", Name: "Ads", Ref: 3, Frame: &FrameInfo{URL: "http://ads.example/x", CrossOrigin: true, Unreadable: true}},
				{Role: "iframe", Ref: 4, Frame: &FrameInfo{URL: "about:srcdoc", CrossOrigin: true}, Kids: []Node{{Role: "button", Name: "Go", Ref: 5}}},
			},
			f: Options{Base: base},
			want: `iframe "Ads" e3 -> http://ads.example/x (content not readable)
iframe e4: button "Go" e5`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, strings.Join(Format(tt.nodes, tt.f), "\n"))
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
		{"http://127.0.0.1:8080/tutorial/index.html#s", "/tutorial/index.html#s"}, // shorter than ../tutorial/
		{"http://127.0.0.1:8080/", "/"},
		{"http://127.0.0.1:8080/library/", "./"},
		{"https://127.0.0.1:8080/library/a.html", "https://127.0.0.1:8080/library/a.html"},
		{"http://other.example/a", "http://other.example/a"},
		{"http://127.0.0.1:8080/library/a.html?q=2", "a.html?q=2"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, RelativeURL(base, tt.target), tt.target)
	}
	assert.Equal(t, "x", RelativeURL(nil, "x"))
}

func TestSnapshotPagesAndDiffs(t *testing.T) {
	var s Store
	snap := s.Add(7, "page", []string{"aaaa", "bbbb", "cccc", "dddd"})
	lines, next := snap.Page(0, 10)
	assert.Equal(t, []string{"aaaa", "bbbb"}, lines)
	assert.Equal(t, snap.ID+":2", next)
	lines, next = snap.Page(2, 100)
	assert.Equal(t, []string{"cccc", "dddd"}, lines)
	assert.Empty(t, next)
	lines, _ = snap.Page(0, 1)
	assert.Len(t, lines, 1, "a page holds at least one line")
	assert.Same(t, snap, s.Get(snap.ID))
	assert.Same(t, snap, s.Last(7))
	assert.Nil(t, s.Last(8))
	text := s.AddText(7, "page", []string{"# md"})
	assert.Same(t, snap, s.Last(7), "a text read is not the tree to diff against")
	assert.Same(t, text, s.Get(text.ID))

	for range Kept {
		s.Add(8, "page", nil)
	}
	assert.Nil(t, s.Get(snap.ID), "old snapshots are dropped")

	added, removed, more := DiffLines([]string{"a", "  b", "c"}, []string{"a", "c", "b", "d"}, 10)
	assert.Equal(t, []string{"d"}, added, "moved lines are not news")
	assert.Empty(t, removed)
	assert.Zero(t, more)
	_, _, more = DiffLines(nil, []string{"1", "2", "3"}, 2)
	assert.Equal(t, 1, more)

	for _, c := range []string{"x", "s1", "s1:-2", "t1:3", ":"} {
		_, _, err := ParseCursor(c)
		assert.Error(t, err, c)
	}
	id, n, err := ParseCursor("s3:120")
	require.NoError(t, err)
	assert.Equal(t, "s3", id)
	assert.Equal(t, 120, n)
}

func TestRenderSaysWhereToReadOn(t *testing.T) {
	var s Store
	snap := s.Add(3, `page "T" http://x/ tab=3`, []string{"h1 \"A\"", "link \"B\" e2", "link \"C\" e3"})
	text, next := snap.Render(0, 20)
	assert.Equal(t, snap.ID+":2", next)
	assert.Equal(t, "page \"T\" http://x/ tab=3 snapshot="+snap.ID+"\nh1 \"A\"\nlink \"B\" e2\n"+
		"[truncated: lines 1-2 of 3 shown; read on with cursor \""+next+"\"]", text)
	text, next = snap.Render(2, 20)
	assert.Empty(t, next)
	assert.Equal(t, "page \"T\" http://x/ tab=3 snapshot="+snap.ID+" from line 3\nlink \"C\" e3", text)
}

func TestALongLineIsReadInPieces(t *testing.T) {
	words := strings.Repeat(`{"id": 1, "name": "item"}, `, 600) // a JSON document on one line, 16 kB
	json := "  code: [" + words + "]"
	tests := []struct {
		name  string
		lines []string
		max   int
	}{
		{"words", []string{"h1 \"Data\"", json, "after"}, LongLine},
		{"no space to break at", []string{strings.Repeat("x", 9000)}, LongLine},
		{"runes that take more than a byte", []string{strings.Repeat("é", 5000)}, 1001},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := splitLong(tt.lines, tt.max)
			assert.Greater(t, len(got), len(tt.lines))
			for _, l := range got {
				assert.LessOrEqual(t, len(l), tt.max)
				assert.True(t, utf8.ValidString(l), "cut on a rune's boundary")
			}
			joined := strings.Join(got, "")
			assert.Equal(t, strings.ReplaceAll(strings.Join(tt.lines, ""), " ", ""), strings.ReplaceAll(joined, " ", ""),
				"nothing lost but the spaces it broke at")
		})
	}
	got := splitLong([]string{"h1", json}, LongLine)
	assert.Equal(t, "h1", got[0])
	for _, l := range got[1:] {
		assert.True(t, strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "   "), "each piece indented as the line was: %.20q", l)
	}
	short := []string{"a", "b"}
	assert.Equal(t, short, splitLong(short, LongLine))

	var s Store
	snap := s.Add(1, "page", []string{json})
	text, next := snap.Render(0, 6000)
	assert.Less(t, len(text), 6000+200, "a read keeps to its budget")
	assert.NotEmpty(t, next, "and says where to read on")
}

func TestDescribe(t *testing.T) {
	var s Store
	after := s.Add(1, "page", []string{"button \"Go\" e1", "text"})
	assert.Equal(t, "snapshot="+after.ID+" (no earlier read of this tab to compare with)\nbutton \"Go\" e1\ntext", Describe(nil, after))
	before := after
	after = s.Add(1, "page", []string{"button \"Go\" e1", "  status \"Saved\""})
	assert.Equal(t, "snapshot="+after.ID+", changes since "+before.ID+":\n- removed: text\n+ status \"Saved\"", Describe(before, after))
	same := s.Add(1, "page", after.Lines)
	assert.Equal(t, "snapshot="+same.ID+", changes since "+after.ID+": none", Describe(after, same))
}

func TestParseRef(t *testing.T) {
	for in, want := range map[string]int{"e12": 12, "12": 12, "[e7]": 7, " e3 ": 3, "ref=e5": 5, "[ref=e5]": 5} {
		n, err := ParseRef(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, n, in)
	}
	for _, in := range []string{"", "e", "e0", "x12", "e-1", "button", "ref=", "f1e2"} {
		_, err := ParseRef(in)
		assert.ErrorIs(t, err, protocol.ErrBadRequest, in)
	}
}

func TestFindRef(t *testing.T) {
	nodes := []Node{{Role: "main", Ref: 1, Kids: []Node{{Role: "list", Kids: []Node{{Role: "link", Name: "Deep", Ref: 9}}}}}}
	require.NotNil(t, FindRef(nodes, 9))
	assert.Equal(t, "Deep", FindRef(nodes, 9).Name)
	assert.Nil(t, FindRef(nodes, 5))
}

func TestAListAPersonCanClickKeepsItsRefs(t *testing.T) {
	tree := []Node{{Role: "list", Name: "Tasks", Ref: 4, Clickable: true, Kids: []Node{
		{Role: "listitem", Name: "Alpha", Ref: 1, Clickable: true},
		{Role: "listitem", Name: "Beta", Ref: 2, Clickable: true},
		{Role: "listitem", Kids: []Node{{Text: "Plain item"}}},
	}}}
	assert.Equal(t, []string{`list "Tasks" e4 clickable`, ` listitem "Alpha" e1 clickable`, ` listitem "Beta" e2 clickable`, " Plain item"},
		Format(tree, Options{}))
}

func TestStoreSaysWhatAReadWroteARefAs(t *testing.T) {
	var s Store
	s.Add(1, "page", []string{`button "Alpha" e5`, `h2 "Plans" e6`, `search e7: textbox "Quick \"search\"" e8 button "Go" e9`})
	s.AddText(1, "page", []string{`button "Text mode" e5`})
	s.Add(2, "page", []string{`link "Other tab" e5`})
	tests := []struct {
		tab        int
		ref        string
		role, name string
		ok         bool
	}{
		{1, "e5", "button", "Alpha", true},
		{1, "e6", "heading", "Plans", true},
		{1, "e8", "textbox", `Quick "search"`, true},
		{1, "[e9]", "button", "Go", true},
		{1, "e7", "", "", false}, // written without a name
		{1, "e50", "", "", false},
		{2, "e5", "link", "Other tab", true},
		{1, "x", "", "", false},
	}
	for _, tt := range tests {
		role, name, ok := s.Written(tt.tab, tt.ref)
		assert.Equal(t, []any{tt.role, tt.name, tt.ok}, []any{role, name, ok}, "tab %d %s", tt.tab, tt.ref)
	}
	s.Add(1, "page", []string{`button "Beta" e5`})
	role, name, _ := s.Written(1, "e5")
	assert.Equal(t, "button Beta", role+" "+name, "the newest read says it")
}
