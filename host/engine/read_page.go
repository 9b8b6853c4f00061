package engine

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/protocol"
)

// defaultMaxChars bounds one read: about 10,000 tokens, a page a model can
// take in without crowding out its task. cursor reads on.
const defaultMaxChars = 40_000

type readPageIn struct {
	TabID    int    `json:"tabId,omitempty" jsonschema:"default: the current tab"`
	Mode     string `json:"mode,omitempty" jsonschema:"tree (default): elements with refs; text: the main content as Markdown"`
	Filter   string `json:"filter,omitempty" jsonschema:"all (default) or interactive: only what can be acted on, with headings and landmarks"`
	Ref      string `json:"ref,omitempty" jsonschema:"read only this element's subtree"`
	Depth    int    `json:"depth,omitempty" jsonschema:"levels of nesting to show"`
	MaxChars int    `json:"maxChars,omitempty" jsonschema:"default 40000; the rest is behind a cursor"`
	Cursor   string `json:"cursor,omitempty" jsonschema:"read on from where an earlier read stopped"`

	noValues bool // for evidence on disk: no control values
}

func readPageTool() Tool {
	return readOnly(define("read_page", GroupCore,
		"Read a tab as a compact tree: role \"name\" ref states -> link target. Refs (e12) are what interact and the others act on. mode text gives Markdown.",
		readPage,
		func(s *jsonschema.Schema) {
			positive(s, "tabId")
			enum(s, "mode", "tree", "text")
			enum(s, "filter", "all", "interactive")
			positive(s, "depth")
			between(s, "maxChars", 500, 2_000_000)
		}))
}

func readPage(ctx context.Context, c *call, in readPageIn) (*protocol.ToolResult, error) {
	maxChars := in.MaxChars
	if maxChars == 0 {
		maxChars = defaultMaxChars
	}
	if in.Cursor != "" {
		if in.Ref != "" || in.Mode != "" || in.Filter != "" || in.Depth != 0 {
			return nil, protocol.Errorf(protocol.CodeBadRequest, "a cursor reads on with the options it was made with").
				WithHint("pass only cursor (and maxChars)")
		}
		id, start, err := parseCursor(in.Cursor)
		if err != nil {
			return nil, err
		}
		snap := c.engine.snaps.get(id)
		if snap == nil || start > len(snap.lines) {
			return nil, protocol.Errorf(protocol.CodeBadRequest, "cursor %q has expired", in.Cursor).
				WithHint("call read_page again")
		}
		return pageResult(snap, start, maxChars), nil
	}
	tab, err := c.needTab(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	var snap *snapshot
	if in.Mode == "text" {
		if in.Ref != "" || in.Filter != "" || in.Depth != 0 {
			return nil, protocol.Errorf(protocol.CodeBadRequest, "ref, filter and depth apply to mode tree").
				WithHint("drop them, or use mode tree")
		}
		snap, err = c.readText(ctx, tab)
	} else {
		snap, err = c.readTree(ctx, tab, in)
	}
	if err != nil {
		return nil, err
	}
	return pageResult(snap, 0, maxChars), nil
}

// readTree takes the tab's tree and keeps it as a snapshot.
func (c *call) readTree(ctx context.Context, tab int, in readPageIn) (*snapshot, error) {
	var pt pageTree
	if err := c.do(ctx, pageSnapshot(tab), &pt); err != nil {
		return nil, err
	}
	f := treeFormat{interactive: in.Filter == "interactive", maxDepth: in.Depth, noValues: in.noValues}
	if u, err := url.Parse(pt.URL); err == nil {
		f.base = u
	}
	nodes := pt.Tree
	if in.Ref != "" {
		ref, err := parseRefArg(in.Ref)
		if err != nil {
			return nil, err
		}
		n := findRef(pt.Tree, ref)
		if n == nil {
			// Say why: a stale ref gets stale_ref from the extension.
			if err := c.do(ctx, elementLocate(tab, in.Ref), nil); err != nil {
				return nil, err
			}
			return nil, protocol.Errorf(protocol.CodeNotFound, "ref %s is not a part of the page's tree (it is hidden or not a container)", in.Ref).
				WithHint("call read_page without ref")
		}
		nodes = []Node{*n}
	}
	lines := formatTree(nodes, f)
	header := fmt.Sprintf("page %s %s tab=%d", strconv.Quote(pt.Title), pt.URL, tab)
	if pt.Truncated {
		lines = append(lines, "[the page has more elements than one read takes; read a part with ref]")
	}
	if len(lines) == 0 {
		lines = []string{"(nothing to show)"}
	}
	snap := c.engine.snaps.add(tab, header, lines)
	return snap, nil
}

// readText takes the tab's main content as Markdown.
func (c *call) readText(ctx context.Context, tab int) (*snapshot, error) {
	var out struct {
		URL      string `json:"url"`
		Title    string `json:"title"`
		Markdown string `json:"markdown"`
	}
	if err := c.do(ctx, pageText(tab), &out); err != nil {
		return nil, err
	}
	header := fmt.Sprintf("page %s %s tab=%d", strconv.Quote(out.Title), out.URL, tab) + textHeaderMark
	lines := strings.Split(out.Markdown, "\n")
	if out.Markdown == "" {
		lines = []string{"(no text)"}
	}
	return c.engine.snaps.add(tab, header, lines), nil
}

// pageResult writes one page of a snapshot, with the cursor to read on.
func pageResult(snap *snapshot, start, maxChars int) *protocol.ToolResult {
	lines, next := snap.page(start, maxChars)
	var b strings.Builder
	b.WriteString(snap.header + " snapshot=" + snap.id)
	if start > 0 {
		fmt.Fprintf(&b, " from line %d", start+1)
	}
	b.WriteByte('\n')
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if next != "" {
		fmt.Fprintf(&b, "[truncated: lines %d-%d of %d shown; read on with cursor %q]\n",
			start+1, start+len(lines), len(snap.lines), next)
	}
	return protocol.TextResult(strings.TrimSuffix(b.String(), "\n"))
}

// parseRefArg reads an agent's ref: "e12" (or "12").
func parseRefArg(ref string) (int, error) {
	s := strings.TrimPrefix(strings.Trim(strings.TrimSpace(ref), "[]"), "e")
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, protocol.Errorf(protocol.CodeBadRequest, "%q is not a ref", ref).
			WithHint("refs look like e12; call read_page or find")
	}
	return n, nil
}
