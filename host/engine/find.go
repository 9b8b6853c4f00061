package engine

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/host/pagetree"
	"github.com/openchrome/openchrome/protocol"
)

type findIn struct {
	Query string `json:"query" jsonschema:"name, text, label, role and name (button Save), or CSS selector"`
	tabArgs
	Limit int `json:"limit,omitempty"`
}

func (in findIn) target() target { return in.sentTarget() }

func (in *findIn) validate() error {
	if strings.TrimSpace(in.Query) == "" {
		return protocol.Errorf(protocol.CodeBadRequest, "query is empty").
			WithHint(`pass what to look for: a name ("Sign in"), a role and a name ("button Save"), or a CSS selector`)
	}
	if in.Limit == 0 {
		in.Limit = 10
	}
	return nil
}

func findTool() Tool {
	return defineTab("find", GroupCore,
		"Find elements by name, text, label, role or CSS selector; ranked, with refs.",
		find,
		func(s *jsonschema.Schema) { between(s, "limit", 1, 100) })
}

// match is one match as find's structured result lists it.
type match struct {
	Ref  string `json:"ref"`
	Role string `json:"role"`
	Name string `json:"name,omitempty"`
	Near string `json:"near,omitempty"` // the heading of the part of the page it is in, when another match reads the same
	Why  string `json:"why"`
	// Gesture: the one that reaches it when a click does not.
	Gesture string `json:"gesture,omitempty"`
}

func find(ctx context.Context, c *call, tab int, in findIn) (*protocol.ToolResult, error) {
	r, err := browser.ElementFind(tab, in.Query, in.Limit).Run(ctx, c)
	if err != nil {
		return nil, err
	}
	structured := struct {
		TabID   int     `json:"tabId"`
		Total   int     `json:"total"`
		Matches []match `json:"matches"`
	}{tab, r.Total, []match{}}
	if len(r.Candidates) == 0 && r.Hidden != nil {
		return textResult(fmt.Sprintf("no visible match for %q in tab %d: %s; %s", in.Query, tab, hiddenWhere(r.Hidden), hiddenHint(r.Hidden)), structured)
	}
	if len(r.Candidates) == 0 && r.Elsewhere != nil {
		return textResult(fmt.Sprintf("no match for %q in tab %d: %s; %s", in.Query, tab, elsewhereWhat(r.Elsewhere), elsewhereHint), structured)
	}
	if len(r.Candidates) == 0 {
		if fewer := c.fewerWords(ctx, tab, in.Query); fewer != "" {
			return textResult(fmt.Sprintf("no match for %q in tab %d; %s: if one is meant, use its ref", in.Query, tab, fewer), structured)
		}
		return textResult(fmt.Sprintf("no match for %q in tab %d; try other words, or read_page", in.Query, tab), structured)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d matches for %q in tab %d:\n", len(r.Candidates), r.Total, in.Query, tab)
	// Matches of one role and name are told apart by where they are.
	seen := map[string]int{}
	for _, m := range r.Candidates {
		seen[m.Role+"\x00"+m.Name]++
	}
	for _, m := range r.Candidates {
		name := ""
		if m.Name != "" {
			name = " " + strconv.Quote(m.Name)
		}
		mm := match{Ref: fmt.Sprintf("e%d", m.Ref), Role: m.Role, Name: m.Name, Why: m.Why}
		near := ""
		if seen[m.Role+"\x00"+m.Name] > 1 && m.Near != "" {
			mm.Near, near = m.Near, " near "+strconv.Quote(m.Near)
		}
		gesture := ""
		if pagetree.KnownGesture(m.Gesture) {
			mm.Gesture, gesture = m.Gesture, " clickable ("+m.Gesture+")"
		}
		if m.Repeats != 0 {
			// As read_page writes the landmark it is in.
			near = fmt.Sprintf(" same as e%d", m.Repeats)
		}
		fmt.Fprintf(&b, "%s%s e%d%s%s (%s)\n", m.Role, name, m.Ref, gesture, near, m.Why)
		structured.Matches = append(structured.Matches, mm)
	}
	return textResult(strings.TrimSuffix(b.String(), "\n"), structured)
}

// fewerWords says what matches a query that matched nothing once one of
// its words is left out, the last first ("retain method": a kind of thing
// the page does not call so), as a clause: `without "method": e1 (link
// "retain"), e2 (link "retain_mut"), 14 in all`; "" when no word left out
// finds anything. It is only said, never acted on: the word left out may be
// the one that told the element apart ("Delete account").
func (c *call) fewerWords(ctx context.Context, tab int, query string) string {
	words := strings.Fields(query)
	if len(words) < 2 || len(words) > fewerWordsMax {
		return ""
	}
	for i := len(words) - 1; i >= 0; i-- {
		rest := strings.Join(slices.Concat(words[:i], words[i+1:]), " ")
		if len([]rune(rest)) < 3 {
			continue
		}
		r, err := browser.ElementFind(tab, rest, fewerWordsShown).Run(ctx, c)
		if err != nil || len(r.Candidates) == 0 {
			continue
		}
		said := make([]string, len(r.Candidates))
		for j, cand := range r.Candidates {
			said[j] = describeCandidate(cand)
		}
		return fmt.Sprintf("without %q: %s, %d in all", words[i], strings.Join(said, ", "), r.Total)
	}
	return ""
}

// How many words a query may have for fewerWords to try it without each,
// and how many of what it finds it names.
const (
	fewerWordsMax   = 6
	fewerWordsShown = 3
)

// elsewhereWhat says that the controls a query named are on the page, but
// none in the place it named, as a clause: `2 "Add to cart" are on the
// page, none near "Green mug": e5 near "Blue mug", e9 near "Red mug"`.
func elsewhereWhat(e *browser.Elsewhere) string {
	verb := "are"
	if e.Count == 1 {
		verb = "is"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %q %s on the page, none near %q:", e.Count, e.Name, verb, e.Where)
	for i, a := range e.Alike {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " e%d", a.Ref)
		if a.Near != "" {
			fmt.Fprintf(&b, " near %q", a.Near)
		}
	}
	if more := e.Count - len(e.Alike); more > 0 {
		fmt.Fprintf(&b, " and %d more", more)
	}
	return b.String()
}

// elsewhereHint is what to do when the place a query named is not on the page.
const elsewhereHint = "the place may not be on this page: act on the one you mean by its ref, or call read_page"

// hiddenWhere says where a hidden control is, as a clause:
// `link "Widgets" is there but hidden, inside div "Products" e3`.
func hiddenWhere(h *browser.HiddenMatch) string {
	if h.ClosedIn != "" {
		return fmt.Sprintf("%s is there but hidden, in %s, which is not open", h.Name, h.ClosedIn)
	}
	if h.Holder == nil {
		return h.Name + " is there but hidden"
	}
	return fmt.Sprintf("%s is there but hidden, inside %s %s", h.Name, h.Holder.Name, h.Holder.Ref)
}

// hiddenHint names the call that may show a hidden control.
func hiddenHint(h *browser.HiddenMatch) string {
	if h.ClosedIn != "" {
		return fmt.Sprintf("open %s first (the page's control that opens it), then act again", h.ClosedIn)
	}
	if h.Holder == nil {
		return "do what shows it first (open its menu or section); read_page shows what is visible now"
	}
	if name, ok := strings.CutPrefix(h.Name, "option "); ok &&
		(strings.HasPrefix(h.Holder.Name, "combobox") || strings.HasPrefix(h.Holder.Name, "listbox")) {
		// The list a combobox draws: select opens it and picks.
		return fmt.Sprintf("interact select with ref %s and values [%s] opens its list and picks it", h.Holder.Ref, name)
	}
	return fmt.Sprintf("hover or click %s to show it, then act again", h.Holder.Ref)
}
