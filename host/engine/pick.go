package engine

import (
	"fmt"
	"strings"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

// How many of a query's matches a step looks at to choose one.
const pickFrom = 5

// Roles by what a step does with the element: a step that writes text
// wants a field, one that clicks wants what is clicked, where a query names
// both ("Search": the box and its button).
var (
	textRoles   = map[string]bool{"textbox": true, "searchbox": true, "combobox": true, "spinbutton": true}
	selectRoles = map[string]bool{"combobox": true, "listbox": true}
	checkRoles  = map[string]bool{"checkbox": true, "radio": true, "switch": true, "menuitemcheckbox": true, "menuitemradio": true}
	// strictActions fail on an element not of their roles.
	strictActions = map[string]bool{"fill": true, "type": true, "clear": true, "select": true, "check": true, "uncheck": true}
)

// pick chooses the element a step by query acts on among its ranked
// matches (best first): the best, and among matches as good as each other,
// the one the action can use. Two left alike are refused, not guessed at:
// on a person's real page the first "Add to cart" of a list may be the
// wrong product, and only the agent knows which it meant. Links that go to
// the same place are one choice.
func pick(tab int, query, action string, cs []browser.Candidate) (browser.Candidate, error) {
	var tied []browser.Candidate
	for _, c := range cs {
		if c.Score == cs[0].Score {
			tied = append(tied, c)
		}
	}
	if fit := fitting(action, tied); len(fit) > 0 {
		tied = fit
	} else if fit := fitting(action, cs); len(fit) > 0 && strictActions[action] {
		// None as good can take it, and the action fails on what cannot
		// ("First name", a table's row header, for fill): the best of
		// those that can, as the field beside the header.
		tied = tied[:0]
		for _, c := range fit {
			if c.Score == fit[0].Score {
				tied = append(tied, c)
			}
		}
	}
	tied = withoutRepeats(tied)
	best := tied[0]
	if len(tied) == 1 || sameLinks(tied) {
		return best, nil
	}
	return best, alike(tab, query, tied)
}

// withoutRepeats drops the matches that stand for another in a landmark
// the page repeats (the search box of a navigation bar above and below the
// page): read_page writes the second bar "same as" the first, and what its
// controls do, the first's do.
func withoutRepeats(cs []browser.Candidate) []browser.Candidate {
	in := map[int]bool{}
	for _, c := range cs {
		in[c.Ref] = true
	}
	var out []browser.Candidate
	for _, c := range cs {
		if !in[c.Repeats] {
			out = append(out, c)
		}
	}
	return out
}

// alike is the error of a query or label that several elements answer as
// well as each other: each by ref, and where it is.
func alike(tab int, query string, cs []browser.Candidate) *protocol.Error {
	refs := make([]string, len(cs))
	for i, c := range cs {
		refs[i] = describeCandidate(c)
	}
	hint := fmt.Sprintf("act on the one you mean by its ref, or use more of its words, or its place: %q", "the second "+query)
	if near := cs[0].Near; near != "" && cs[1].Near != near {
		hint = fmt.Sprintf("act on the one you mean by its ref, or say where it is, like %q", query+" near "+near)
	}
	return protocol.Errorf(protocol.CodeConflict, "%q matches %d elements on the page of tab %d alike: %s; nothing was done",
		query, len(cs), tab, strings.Join(refs, ", ")).WithHint(hint)
}

// fitting keeps the matches action can use, by role.
func fitting(action string, cs []browser.Candidate) []browser.Candidate {
	var keep func(role string) bool
	switch action {
	case "fill", "type", "clear":
		keep = func(r string) bool { return textRoles[r] }
	case "select":
		keep = func(r string) bool { return selectRoles[r] }
	case "check", "uncheck":
		keep = func(r string) bool { return checkRoles[r] }
	case "click", "double_click", "right_click":
		keep = func(r string) bool { return r != "textbox" && r != "searchbox" }
	default:
		return nil
	}
	var out []browser.Candidate
	for _, c := range cs {
		if keep(c.Role) {
			out = append(out, c)
		}
	}
	return out
}

// sameLinks reports whether every candidate is a link to one place: a
// page's Next at its top and at its bottom.
func sameLinks(cs []browser.Candidate) bool {
	for _, c := range cs {
		if c.Role != "link" || c.Href == "" || c.Href != cs[0].Href {
			return false
		}
	}
	return true
}

// describeCandidate is `e4 (button "Add to cart" near "Red shirt")`.
func describeCandidate(c browser.Candidate) string {
	what := c.Role
	if c.Name != "" {
		what += fmt.Sprintf(" %q", c.Name)
	}
	if c.Near != "" {
		what += fmt.Sprintf(" near %q", c.Near)
	}
	return fmt.Sprintf("e%d (%s)", c.Ref, what)
}
