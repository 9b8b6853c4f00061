package engine

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/pagetree"
	"github.com/openchrome/openchrome/protocol"
)

// defaultMaxChars bounds one read: about 10,000 tokens, a page a model can
// take in without crowding out its task. cursor reads on.
const defaultMaxChars = 40_000

type readPageIn struct {
	tabArgs
	Mode     string `json:"mode,omitempty" jsonschema:"text: the main content as Markdown"`
	Filter   string `json:"filter,omitempty" jsonschema:"interactive: what can be acted on, and headings"`
	Ref      string `json:"ref,omitempty" jsonschema:"only this element's subtree"`
	Depth    int    `json:"depth,omitempty"`
	MaxChars int    `json:"maxChars,omitempty" jsonschema:"default 40000"`
	Cursor   string `json:"cursor,omitempty" jsonschema:"read on from a cut read"`
}

// Reading on from a cursor touches no tab: the read is kept.
func (in readPageIn) target() target {
	return target{tab: in.TabID, none: in.Cursor != "", sent: true}
}

func (in *readPageIn) validate() error {
	if in.MaxChars == 0 {
		in.MaxChars = defaultMaxChars
	}
	switch {
	case in.Cursor != "" && (in.Ref != "" || in.Mode != "" || in.Filter != "" || in.Depth != 0):
		return protocol.Errorf(protocol.CodeBadRequest, "a cursor reads on with the options it was made with").
			WithHint("pass only cursor (and maxChars)")
	case in.Mode == "text" && (in.Ref != "" || in.Filter != "" || in.Depth != 0):
		return protocol.Errorf(protocol.CodeBadRequest, "ref, filter and depth apply to mode tree").
			WithHint("drop them, or use mode tree")
	case in.Ref != "":
		if _, err := pagetree.ParseRef(in.Ref); err != nil {
			return err
		}
	}
	return nil
}

func readPageTool() Tool {
	return defineTab("read_page", GroupCore,
		"Read a tab as a compact tree whose refs (e12) interact acts on, or as Markdown.",
		readPage,
		func(s *jsonschema.Schema) {
			enum(s, "mode", "tree", "text")
			enum(s, "filter", "all", "interactive")
			positive(s, "depth")
			between(s, "maxChars", 500, 2_000_000)
		})
}

func readPage(ctx context.Context, c *call, tab int, in readPageIn) (*protocol.ToolResult, error) {
	if in.Cursor != "" {
		id, start, err := pagetree.ParseCursor(in.Cursor)
		if err != nil {
			return nil, err
		}
		snap := c.engine.snaps.Get(id)
		if snap == nil || start > len(snap.Lines) {
			return nil, protocol.Errorf(protocol.CodeBadRequest, "cursor %q has expired", in.Cursor).
				WithHint("call read_page again")
		}
		c.touched = snap.Tab
		return pageResult(snap, start, in.MaxChars)
	}
	var snap *pagetree.Snapshot
	var err error
	if in.Mode == "text" {
		snap, err = c.readText(ctx, tab)
	} else {
		snap, err = c.readTree(ctx, tab, treeRead{ref: in.Ref, filter: in.Filter, depth: in.Depth})
	}
	if err != nil {
		return nil, err
	}
	return pageResult(snap, 0, in.MaxChars)
}

// treeRead is what part of a tab's tree to read, and how.
type treeRead struct {
	ref      string
	filter   string
	depth    int
	noValues bool // for evidence on disk: no control values
}

// readTree takes the tab's tree and keeps it as a snapshot.
func (c *call) readTree(ctx context.Context, tab int, r treeRead) (*pagetree.Snapshot, error) {
	pt, err := browser.WithSecrets(browser.PageSnapshot(tab)).Run(ctx, c)
	if err != nil {
		return nil, err
	}
	c.touch(tab, pt.URL)
	c.keepSecrets(tab, pt)
	// A read of one element is a look up close: its links are written whole.
	f := pagetree.Options{Interactive: r.filter == "interactive", MaxDepth: r.depth, NoValues: r.noValues, FullLinks: r.ref != "", AllOptions: r.ref != ""}
	if u, err := url.Parse(pt.URL); err == nil {
		f.Base = u
	}
	nodes := pt.Tree
	if r.ref != "" {
		ref, err := pagetree.ParseRef(r.ref)
		if err != nil {
			return nil, err
		}
		n := pagetree.FindRef(pt.Tree, ref)
		if n == nil {
			// Say why: a stale ref gets stale_ref from the extension.
			if _, err := browser.ElementLocate(tab, r.ref).Run(ctx, c); err != nil {
				return nil, err
			}
			return nil, protocol.Errorf(protocol.CodeNotFound, "ref %s is not a part of the page's tree (it is hidden or not a container)", r.ref).
				WithHint("call read_page without ref")
		}
		nodes = []pagetree.Node{*n}
	}
	lines := pagetree.Format(nodes, f)
	if pt.PDF && r.ref == "" {
		lines = append([]string{pdfShown}, lines...)
	}
	if provider, ref, ok := captchaShown(pt.Tree); ok && r.ref == "" {
		lines = append([]string{captchaLine(provider, ref)}, lines...)
	}
	if pt.Truncated {
		lines = append(lines, "[the page has more elements than one read takes; read a part with ref]")
	}
	if len(lines) == 0 {
		lines = []string{"(nothing to show)"}
	}
	return c.engine.snaps.Add(tab, pageHeader(pt.Title, pt.URL, tab), lines), nil
}

// readText takes the tab's main content as Markdown.
func (c *call) readText(ctx context.Context, tab int) (*pagetree.Snapshot, error) {
	out, err := browser.PageText(tab).Run(ctx, c)
	if err != nil {
		return nil, err
	}
	c.touch(tab, out.URL)
	lines := strings.Split(out.Markdown, "\n")
	switch {
	case out.PDF:
		lines = []string{pdfShown}
	case out.Markdown == "":
		lines = []string{"(no text)"}
	}
	return c.engine.snaps.AddText(tab, pageHeader(out.Title, out.URL, tab), lines), nil
}

// pdfShown is what a read says of a PDF: Chrome's viewer draws it in a
// frame of its own, which no read reaches, and the way to its text is the
// file, which an agent's own tools read.
const pdfShown = "(a PDF in Chrome's viewer: no read reaches its text. page_screenshot shows its pages; " +
	`to read it, save it with javascript_tool "Object.assign(document.createElement('a'), {href: location.href, download: ''}).click()" ` +
	"and open the file downloads names)"

func pageHeader(title, url string, tab int) string {
	return fmt.Sprintf("page %s %s tab=%d", strconv.Quote(title), url, tab)
}

// pageResult answers with one page of a snapshot, and the cursor to read on.
func pageResult(snap *pagetree.Snapshot, start, maxChars int) (*protocol.ToolResult, error) {
	text, next := snap.Render(start, maxChars)
	return textResult(text, struct {
		TabID    int    `json:"tabId"`
		Snapshot string `json:"snapshot"`
		Text     string `json:"text"`
		Cursor   string `json:"cursor,omitempty"`
	}{snap.Tab, snap.ID, text, next})
}
