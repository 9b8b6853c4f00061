package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

func TestPickChoosesOneOrRefuses(t *testing.T) {
	box := browser.Candidate{Ref: 1, Role: "searchbox", Name: "Search", Score: 95}
	go1 := browser.Candidate{Ref: 2, Role: "button", Name: "Search", Score: 95}
	cart := func(ref int, near string) browser.Candidate {
		return browser.Candidate{Ref: ref, Role: "button", Name: "Add to cart", Score: 95, Near: near}
	}
	next := func(ref int, href string) browser.Candidate {
		return browser.Candidate{Ref: ref, Role: "link", Name: "Next", Score: 95, Href: href}
	}
	tests := []struct {
		name    string
		action  string
		cs      []browser.Candidate
		want    int    // the ref picked
		refused string // what the error says, when it refuses
	}{
		{"one best", "click", []browser.Candidate{go1, {Ref: 3, Role: "button", Name: "Search all", Score: 65}}, 2, ""},
		{"a click wants the button", "click", []browser.Candidate{box, go1}, 2, ""},
		{"typing wants the box", "fill", []browser.Candidate{go1, box}, 1, ""},
		{"a check wants a checkbox", "check", []browser.Candidate{go1, {Ref: 4, Role: "checkbox", Name: "Search", Score: 95}}, 4, ""},
		{"a better match wins over a fitting one", "click", []browser.Candidate{box, {Ref: 3, Role: "region", Name: "Search results", Score: 60}}, 1, ""},
		{"none fits the action: the best of all", "select", []browser.Candidate{go1, {Ref: 3, Role: "link", Name: "Search x", Score: 65}}, 2, ""},
		{"typing that the best match cannot take goes to the best field", "fill",
			[]browser.Candidate{{Ref: 3, Role: "rowheader", Name: "First name", Score: 90}, {Ref: 4, Role: "textbox", Score: 45}}, 4, ""},
		{"a click on the same matches keeps the best", "click",
			[]browser.Candidate{{Ref: 3, Role: "rowheader", Name: "First name", Score: 90}, {Ref: 4, Role: "textbox", Score: 45}}, 3, ""},
		{"links to one place are one choice", "click", []browser.Candidate{next(5, "http://a/2"), next(6, "http://a/2")}, 5, ""},
		{"links to two places are not", "click", []browser.Candidate{next(5, "http://a/2"), next(6, "http://a/3")}, 0,
			`"q" matches 2 elements on the page of tab 7 alike: e5 (link "Next"), e6 (link "Next"); nothing was done`},
		{"one name in several cards", "click", []browser.Candidate{cart(7, "Blue shirt"), cart(8, "Red shirt"), {Ref: 9, Role: "button", Name: "Add to cart", Score: 60}}, 0,
			`"q" matches 2 elements on the page of tab 7 alike: e7 (button "Add to cart" near "Blue shirt"), e8 (button "Add to cart" near "Red shirt"); nothing was done`},
		{"a box the page repeats in a bar below is the first one's", "fill", []browser.Candidate{
			{Ref: 10, Role: "textbox", Name: "Quick search", Score: 95},
			{Ref: 11, Role: "textbox", Name: "Quick search", Score: 95, Near: "This Page", Repeats: 10}}, 10, ""},
		{"a repeat of a match less good is no help", "fill", []browser.Candidate{
			cart(7, "Blue shirt"), cart(8, "Red shirt"), {Ref: 9, Role: "button", Name: "Add to cart", Score: 95, Repeats: 3}}, 0,
			`"q" matches 3 elements on the page of tab 7 alike: e7 (button "Add to cart" near "Blue shirt"), e8 (button "Add to cart" near "Red shirt"), e9 (button "Add to cart"); nothing was done`},
		{"hover has no preference", "hover", []browser.Candidate{box, go1}, 0,
			`"q" matches 2 elements on the page of tab 7 alike: e1 (searchbox "Search"), e2 (button "Search"); nothing was done`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := pick(7, "q", tt.action, tt.cs)
			if tt.refused != "" {
				require.Error(t, err)
				e := protocol.AsError(err)
				assert.Equal(t, protocol.CodeConflict, e.Code)
				assert.Equal(t, tt.refused, e.Message)
				assert.Contains(t, e.Hint, "by its ref")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, c.Ref)
		})
	}
}

func TestAlikeSaysHowToNameWhereItIs(t *testing.T) {
	cart := func(ref int, near string) browser.Candidate {
		return browser.Candidate{Ref: ref, Role: "button", Name: "Add to cart", Score: 95, Near: near}
	}
	_, err := pick(7, "Add to cart", "click", []browser.Candidate{cart(7, "Blue shirt"), cart(8, "Red shirt")})
	assert.Equal(t, `act on the one you mean by its ref, or say where it is, like "Add to cart near Blue shirt"`, protocol.AsError(err).Hint)
	_, err = pick(7, "Add to cart", "click", []browser.Candidate{cart(7, "Shirts"), cart(8, "Shirts")})
	assert.Equal(t, `act on the one you mean by its ref, or use more of its words, or its place: "the second Add to cart"`, protocol.AsError(err).Hint)
}
