package engine

import (
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/protocol"
)

// appearingBrowser is pageBrowser on a page where nothing matches a query
// until the find after the one misses have run.
func appearingBrowser(misses int32, finds *atomic.Int32) func(protocol.Command) (any, *protocol.Error) {
	return tabs([]browser.Tab{{TabID: 7, URL: "http://127.0.0.1/login", Active: true}}, func(cmd protocol.Command) (any, *protocol.Error) {
		if cmd.Action == "element.find" && finds.Add(1) <= misses {
			return browser.Found{}, nil
		}
		return pageBrowser(cmd)
	})
}

func TestAQueryWaitsForItsElementToAppear(t *testing.T) {
	var finds atomic.Int32
	e, fb := newEngine(t, protocol.Version, appearingBrowser(2, &finds))
	r := run(t, e, "interact", `{"query":"Login","action":"click","tabId":7}`)
	require.False(t, r.IsError, textOf(t, r))
	assert.EqualValues(t, 3, finds.Load(), "asked until it matched")
	acts := 0
	for _, a := range fb.actions() {
		if a == "element.act" {
			acts++
		}
	}
	assert.Equal(t, 1, acts, "and acted once")
}

// steppingClock is a clock each look at which is a second later: a wait
// for something to appear ends after a few looks, not after five seconds.
func steppingClock() func() time.Time {
	var mu sync.Mutex
	now := time.Unix(0, 0)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}
}

func TestAQueryThatNeverMatchesIsNotFoundAfterTheWait(t *testing.T) {
	var finds atomic.Int32
	e, fb := newEngineWith(t, Options{Now: steppingClock()}, protocol.Version, appearingBrowser(1000, &finds))
	r := run(t, e, "interact", `{"query":"Nothing like it","action":"click","tabId":7}`)
	err := wantError(t, r, protocol.CodeNotFound)
	assert.Contains(t, err.Message, `nothing on the page of tab 7 matches "Nothing like it" (waited 5s)`)
	assert.Greater(t, finds.Load(), int32(1), "looked again")
	assert.NotContains(t, fb.actions(), "element.act", "nothing was done")
}

func TestAFormFieldIsWaitedForByItsLabel(t *testing.T) {
	var looks atomic.Int32
	e, _ := newEngine(t, protocol.Version, tabs([]browser.Tab{{TabID: 7, URL: "http://127.0.0.1/login", Active: true}},
		func(cmd protocol.Command) (any, *protocol.Error) {
			switch cmd.Action {
			case "element.field":
				if looks.Add(1) <= 2 {
					return nil, protocol.Errorf(protocol.CodeNotFound, `no form field labelled "Email"`)
				}
				return browser.Field{Ref: 4, Role: "textbox", Name: "Email"}, nil
			case "element.act":
				return browser.Acted{Action: "fill", Ref: "e4", Target: `textbox "Email"`}, nil
			}
			return pageBrowser(cmd)
		}))
	r := run(t, e, "form_input", `{"tabId":7,"fields":[{"label":"Email","value":"ada@example.com"}]}`)
	require.False(t, r.IsError, textOf(t, r))
	assert.EqualValues(t, 3, looks.Load(), "looked until the form was there")
}

// TestAFormFieldIsFilledOnce: a call that names a field twice, by one ref
// or one label, sends nothing; a label that finds the control a ref filled
// earlier in the call fills nothing more, and says which field did.
func TestAFormFieldIsFilledOnce(t *testing.T) {
	var filled []string
	e, fb := newEngine(t, protocol.Version, tabs([]browser.Tab{{TabID: 7, URL: "http://127.0.0.1/login", Active: true}},
		func(cmd protocol.Command) (any, *protocol.Error) {
			switch cmd.Action {
			case "element.field":
				return browser.Field{Ref: 4, Role: "textbox", Name: "Email"}, nil
			case "element.act":
				var p browser.Act
				if err := json.Unmarshal(cmd.Params, &p); err != nil {
					return nil, protocol.Errorf(protocol.CodeInternal, "%v", err)
				}
				filled = append(filled, p.Ref+" "+*p.Text)
				return browser.Acted{Action: "fill", Ref: p.Ref}, nil
			}
			return pageBrowser(cmd)
		}))
	for _, args := range []string{
		`{"tabId":7,"fields":[{"ref":"e4","value":"a"},{"ref":"e4","value":"b"}]}`,
		`{"tabId":7,"fields":[{"label":"Email","value":"a"},{"label":" email ","value":"b"}]}`,
	} {
		err := wantError(t, run(t, e, "form_input", args), protocol.CodeBadRequest)
		assert.Contains(t, err.Message, "fields[1] names the field of fields[0] again")
	}
	assert.Empty(t, fb.actions(), "nothing was sent")

	r := run(t, e, "form_input", `{"tabId":7,"fields":[{"ref":"e4","value":"a"},{"label":"Email","value":"b"}]}`)
	require.True(t, r.IsError)
	assert.Equal(t, []string{"e4 a"}, filled, "the label found e4, which the ref filled")
	assert.Contains(t, textOf(t, r), "e4 is the field e4 filled above")
}

func TestAQueryThatMatchesNothingSaysWhatItsWordsLessOneMatch(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	e, fb := newEngineWith(t, Options{Now: steppingClock()}, protocol.Version, tabs([]browser.Tab{{TabID: 7, URL: "http://127.0.0.1/docs", Active: true}},
		func(cmd protocol.Command) (any, *protocol.Error) {
			if cmd.Action == "element.find" {
				var p struct{ Query string }
				_ = json.Unmarshal(cmd.Params, &p)
				mu.Lock()
				asked = append(asked, p.Query)
				mu.Unlock()
				if p.Query == "retain" {
					return browser.Found{Total: 14, Candidates: []browser.Candidate{{Ref: 1, Role: "link", Name: "retain", Near: "Methods"}}}, nil
				}
				return browser.Found{}, nil
			}
			return pageBrowser(cmd)
		}))

	found := textOf(t, run(t, e, "find", `{"query":"retain method","tabId":7}`))
	assert.Equal(t, `no match for "retain method" in tab 7; without "method": e1 (link "retain" near "Methods"), 14 in all: if one is meant, use its ref`, found)

	err := wantError(t, run(t, e, "interact", `{"query":"retain method","action":"click","tabId":7}`), protocol.CodeNotFound)
	assert.Contains(t, err.Message, `without "method": e1 (link "retain" near "Methods"), 14 in all`)
	assert.NotContains(t, fb.actions(), "element.act", "what the words less one match is only said")

	mu.Lock()
	asked = nil
	mu.Unlock()
	run(t, e, "find", `{"query":"Nothing like it","tabId":7}`)
	assert.Equal(t, []string{"Nothing like it", "Nothing like", "Nothing it", "like it"}, asked, "the last word left out first")
}

func TestAFieldThatKeptAnotherValueSaysWhatToDo(t *testing.T) {
	no := false
	tests := []struct {
		name  string
		acted browser.Acted
		hint  string
	}{
		{"a field that cut the text", browser.Acted{Unkept: "it keeps at most 5 characters"}, "shorten the value"},
		{"a slider its keys left elsewhere", browser.Acted{Unkept: "it moves in steps of 5: 610 is the nearest it takes", Keys: 3},
			"give a value its steps reach, or drag it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := newEngine(t, protocol.Version, tabs([]browser.Tab{{TabID: 7, URL: "http://127.0.0.1/form", Active: true}},
				func(cmd protocol.Command) (any, *protocol.Error) {
					if cmd.Action == "element.act" {
						a := tt.acted
						a.Action, a.Ref, a.Verified = "fill", "e1", &no
						return a, nil
					}
					return pageBrowser(cmd)
				}))
			out := textOf(t, run(t, e, "form_input", `{"tabId":7,"fields":[{"ref":"e1","value":"612"}]}`))
			assert.Contains(t, out, tt.acted.Unkept)
			assert.Contains(t, out, tt.hint)
		})
	}
}

func TestAFormValueMayBeABooleanANumberOrAList(t *testing.T) {
	var got []string
	e, _ := newEngine(t, protocol.Version, tabs([]browser.Tab{{TabID: 7, URL: "http://127.0.0.1/form", Active: true}},
		func(cmd protocol.Command) (any, *protocol.Error) {
			if cmd.Action == "element.act" {
				var p browser.Act
				if err := json.Unmarshal(cmd.Params, &p); err != nil {
					return nil, protocol.Errorf(protocol.CodeInternal, "%v", err)
				}
				if p.Text != nil {
					got = append(got, p.Action+" "+*p.Text)
				} else {
					got = append(got, p.Action+" "+strings.Join(p.Values, "|"))
				}
				return browser.Acted{Action: p.Action, Ref: "e1"}, nil
			}
			return pageBrowser(cmd)
		}))
	r := run(t, e, "form_input", `{"tabId":7,"fields":[{"ref":"e1","value":true},{"ref":"e2","value":3},{"ref":"e3","value":"x"},{"ref":"e4","value":["Go","Python"]}]}`)
	require.False(t, r.IsError, textOf(t, r))
	assert.Equal(t, []string{"fill true", "fill 3", "fill x", "select Go|Python"}, got,
		"a list is the options a multi-select keeps")

	for _, bad := range []string{`{}`, `[1]`, `[]`, `null`} {
		r := run(t, e, "form_input", `{"tabId":7,"fields":[{"ref":"e1","value":`+bad+`}]}`)
		wantError(t, r, protocol.CodeBadRequest)
	}
}

func TestAQueryIsLookedUpAgainWhenThePageChangesUnderIt(t *testing.T) {
	tests := []struct {
		name      string
		args      string
		failures  []protocol.Code // what element.act answers first, in turn
		wantActs  int
		wantError protocol.Code
	}{
		{"a query is found again after a stale ref", `{"query":"Next","action":"click","tabId":7}`,
			[]protocol.Code{protocol.CodeStaleRef}, 2, ""},
		{"a page that keeps changing is given up on", `{"query":"Next","action":"click","tabId":7}`,
			[]protocol.Code{protocol.CodeStaleRef, protocol.CodeStaleRef, protocol.CodeStaleRef}, 3, protocol.CodeStaleRef},
		{"a ref is the agent's: never another element", `{"ref":"e4","action":"click","tabId":7}`,
			[]protocol.Code{protocol.CodeStaleRef}, 1, protocol.CodeStaleRef},
		{"an action that may have reached the page is never sent again", `{"query":"Next","action":"click","tabId":7}`,
			[]protocol.Code{protocol.CodeConflict}, 1, protocol.CodeConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var acts atomic.Int32
			e, _ := newEngine(t, protocol.Version, tabs([]browser.Tab{{TabID: 7, URL: "http://127.0.0.1/wizard", Active: true}},
				func(cmd protocol.Command) (any, *protocol.Error) {
					if cmd.Action == "element.act" {
						n := int(acts.Add(1))
						if n <= len(tt.failures) {
							return nil, protocol.Errorf(tt.failures[n-1], "no")
						}
						return browser.Acted{Action: "click", Ref: "e9"}, nil
					}
					return pageBrowser(cmd)
				}))
			r := run(t, e, "interact", tt.args)
			assert.EqualValues(t, tt.wantActs, acts.Load())
			if tt.wantActs == maxRefinds {
				assert.Contains(t, textOf(t, r), "the page drew the element anew 3 times as the action waited for it, and nothing was sent (no)")
			}
			if tt.wantError != "" {
				wantError(t, r, tt.wantError)
			} else {
				require.False(t, r.IsError, textOf(t, r))
			}
		})
	}
}

func TestAFormFieldDrawnAnewIsFoundAgainByItsLabel(t *testing.T) {
	var acts, fields atomic.Int32
	e, _ := newEngine(t, protocol.Version, tabs([]browser.Tab{{TabID: 7, URL: "http://127.0.0.1/signup", Active: true}},
		func(cmd protocol.Command) (any, *protocol.Error) {
			switch cmd.Action {
			case "element.field":
				return browser.Field{Ref: int(4 + fields.Add(1)), Role: "textbox", Name: "Email"}, nil
			case "element.act":
				if acts.Add(1) == 1 {
					return nil, protocol.Errorf(protocol.CodeStaleRef, "ref e5 is gone: the element was removed from the page")
				}
				return browser.Acted{Action: "fill", Ref: "e6"}, nil
			}
			return pageBrowser(cmd)
		}))
	r := run(t, e, "form_input", `{"tabId":7,"fields":[{"label":"Email","value":"ada@example.com"},{"ref":"e9","value":"x"}]}`)
	assert.EqualValues(t, 2, fields.Load(), "the label was looked up again")
	assert.EqualValues(t, 3, acts.Load())
	assert.Contains(t, textOf(t, r), `"ref":"e6"`)
}

func TestAGroupOfBoxesIsSetToAList(t *testing.T) {
	boxes := []browser.Choice{{Ref: 1, Role: "checkbox", Name: "Cheese"}, {Ref: 2, Role: "checkbox", Name: "Ham", On: true},
		{Ref: 3, Role: "checkbox", Name: "Olives", On: true}}
	radios := []browser.Choice{{Ref: 4, Role: "radio", Name: "Free"}, {Ref: 5, Role: "radio", Name: "Pro", On: true}}
	delivered := true
	tests := []struct {
		name      string
		value     string
		field     browser.Field
		blockedAt string // the ref whose act something covers
		wantActs  []string
		wantValue string
		wantError protocol.Code
	}{
		{"each box is set, the ones named checked and the others not", `["Ham","Olives"]`,
			browser.Field{Ref: 2, Role: "checkbox", InGroup: true, Boxes: boxes}, "",
			[]string{"uncheck e1", "check e2", "check e3"}, "Ham, Olives", ""},
		{"a name no box has changes no box", `["Ham","Anchovies"]`,
			browser.Field{Ref: 2, Role: "checkbox", InGroup: true, Boxes: boxes, Missing: []string{"Anchovies"}}, "",
			nil, "", protocol.CodeNotFound},
		{"a radio group takes one option", `["Free","Pro"]`,
			browser.Field{Ref: 4, Role: "radio", InGroup: true, Boxes: radios}, "",
			nil, "", protocol.CodeBadRequest},
		{"a list of one picks a radio", `["Pro"]`,
			browser.Field{Ref: 5, Role: "radio", InGroup: true, Boxes: radios}, "",
			[]string{"check e5"}, "", ""},
		{"a box something covers stops the boxes after it", `["Ham","Olives"]`,
			browser.Field{Ref: 2, Role: "checkbox", InGroup: true, Boxes: boxes}, "e2",
			[]string{"uncheck e1", "check e2"}, "", protocol.CodeConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var acts []string
			e, _ := newEngine(t, protocol.Version, tabs([]browser.Tab{{TabID: 7, URL: "http://127.0.0.1/form", Active: true}},
				func(cmd protocol.Command) (any, *protocol.Error) {
					switch cmd.Action {
					case "element.field":
						return tt.field, nil
					case "element.act":
						var p browser.Act
						if err := json.Unmarshal(cmd.Params, &p); err != nil {
							return nil, protocol.Errorf(protocol.CodeInternal, "%v", err)
						}
						acts = append(acts, p.Action+" "+p.Ref)
						if p.Ref == tt.blockedAt {
							return browser.Acted{Action: p.Action, Ref: p.Ref, Target: "checkbox", Blocked: &browser.Blocked{}}, nil
						}
						return browser.Acted{Action: p.Action, Ref: p.Ref, Delivered: &delivered, Changes: "now checked"}, nil
					}
					return pageBrowser(cmd)
				}))
			r := run(t, e, "form_input", `{"tabId":7,"fields":[{"label":"Toppings","value":`+tt.value+`}]}`)
			assert.Equal(t, tt.wantActs, acts)
			var out struct {
				Fields []struct {
					Value any             `json:"value"`
					Error *protocol.Error `json:"error"`
				} `json:"fields"`
			}
			require.NoError(t, json.Unmarshal([]byte(textOf(t, r)), &out))
			require.Len(t, out.Fields, 1)
			if tt.wantError != "" {
				require.NotNil(t, out.Fields[0].Error, textOf(t, r))
				assert.Equal(t, tt.wantError, out.Fields[0].Error.Code)
				return
			}
			require.Nil(t, out.Fields[0].Error, textOf(t, r))
			if tt.wantValue != "" {
				assert.Equal(t, tt.wantValue, out.Fields[0].Value)
			}
		})
	}
}

// A click whose request the server refused says so, with the request's URL
// masked as every URL the agent reads is; the extension's own account of it
// is not passed on.
func TestAFailedRequestIsSaidWithItsURLMasked(t *testing.T) {
	delivered := true
	e, _ := newEngine(t, protocol.Version, tabs([]browser.Tab{{TabID: 7, URL: "http://127.0.0.1/app/form", Active: true}},
		func(cmd protocol.Command) (any, *protocol.Error) {
			if cmd.Action != "element.act" {
				return pageBrowser(cmd)
			}
			url, title := "http://127.0.0.1/app/form", "Form"
			return browser.Acted{Action: "click", Ref: "e3", Target: `button "Save"`, Delivered: &delivered, URL: &url, Title: &title,
				Changes: "no visible change", FailedRequests: []browser.FailedRequest{
					{Method: "POST", URL: "http://127.0.0.1/api/save?token=abc123", Status: 500, Error: "Internal Server Error"},
					{Method: "GET", URL: "https://cdn.example/x.js", Error: "net::ERR_NAME_NOT_RESOLVED"},
				}}, nil
		}))
	r := run(t, e, "interact", `{"ref":"e3","action":"click","tabId":7}`)
	require.False(t, r.IsError, textOf(t, r))
	var out struct {
		RequestErrors  []string        `json:"requestErrors"`
		FailedRequests json.RawMessage `json:"failedRequests"`
		Change         change          `json:"change"`
	}
	require.NoError(t, json.Unmarshal([]byte(textOf(t, r)), &out))
	assert.Equal(t, []string{
		"POST /api/save?token=[redacted]: 500 Internal Server Error",
		"GET https://cdn.example/x.js: net::ERR_NAME_NOT_RESOLVED",
	}, out.RequestErrors)
	assert.Nil(t, out.FailedRequests)
	assert.Equal(t, "none", out.Change.Type)
	assert.Equal(t, "input delivered; no visible change; 2 requests it sent failed, the first POST /api/save?token=[redacted]: 500 Internal Server Error (requestErrors)",
		out.Change.Summary)
}

// A ref whose element the page drew anew is refused, never acted on; the
// hint names the look-alike's ref when exactly one element has the name and
// role the last read gave the gone one.
func TestAStaleRefNamesTheElementDrawnInItsPlace(t *testing.T) {
	tests := []struct {
		name     string
		message  string
		found    browser.Found
		wantHint string
	}{
		{"one look-alike", "ref e5 is gone: the element was removed from the page",
			browser.Found{Candidates: []browser.Candidate{{Ref: 12, Role: "button", Name: "Alpha"}, {Ref: 13, Role: "link", Name: "Alpha"}}, Total: 2},
			`the page drew button "Alpha" anew: it is e12 now; act on e12 if it is the one, or call read_page`},
		{"two look-alikes", "ref e5 is gone: the element was removed from the page",
			browser.Found{Candidates: []browser.Candidate{{Ref: 12, Role: "button", Name: "Alpha"}, {Ref: 14, Role: "button", Name: "Alpha"}}, Total: 2},
			"call read_page for fresh refs"},
		{"more found than weighed", "ref e5 is gone: the element was removed from the page",
			browser.Found{Candidates: []browser.Candidate{{Ref: 12, Role: "button", Name: "Alpha"}}, Total: 60},
			"call read_page for fresh refs"},
		{"another name", "ref e5 is gone: the element was removed from the page",
			browser.Found{Candidates: []browser.Candidate{{Ref: 12, Role: "button", Name: "Alpha 2"}}, Total: 1},
			"call read_page for fresh refs"},
		{"the tab left the page", "ref e5 is from a page this tab has left (it navigated or reloaded)",
			browser.Found{Candidates: []browser.Candidate{{Ref: 12, Role: "button", Name: "Alpha"}}, Total: 1},
			"call read_page for fresh refs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var acts atomic.Int32
			e, _ := newEngine(t, protocol.Version, tabs([]browser.Tab{{TabID: 7, URL: "http://127.0.0.1/app", Active: true}},
				func(cmd protocol.Command) (any, *protocol.Error) {
					switch cmd.Action {
					case "element.act":
						acts.Add(1)
						return nil, protocol.Errorf(protocol.CodeStaleRef, "%s", tt.message).WithHint("call read_page for fresh refs")
					case "element.find":
						return tt.found, nil
					}
					return pageBrowser(cmd)
				}))
			e.snaps.Add(7, "page", []string{`main e1`, ` button "Alpha" e5 link "Alpha" e6`})
			r := run(t, e, "interact", `{"ref":"e5","action":"click","tabId":7}`)
			require.True(t, r.IsError)
			assert.Equal(t, "stale_ref: "+tt.message+"\nhint: "+tt.wantHint, textOf(t, r))
			assert.EqualValues(t, 1, acts.Load(), "the look-alike is not acted on")
		})
	}
}

// form_input's field named by a ref the page drew anew is told the same.
func TestAStaleFieldRefNamesTheFieldDrawnInItsPlace(t *testing.T) {
	e, _ := newEngine(t, protocol.Version, tabs([]browser.Tab{{TabID: 7, URL: "http://127.0.0.1/app", Active: true}},
		func(cmd protocol.Command) (any, *protocol.Error) {
			switch cmd.Action {
			case "element.act":
				return nil, protocol.Errorf(protocol.CodeStaleRef, "ref e5 is gone: the element was removed from the page")
			case "element.find":
				return browser.Found{Candidates: []browser.Candidate{{Ref: 9, Role: "textbox", Name: "Email"}}, Total: 1}, nil
			}
			return pageBrowser(cmd)
		}))
	e.snaps.Add(7, "page", []string{`form e1: textbox "Email" e5`})
	out := textOf(t, run(t, e, "form_input", `{"fields":[{"ref":"e5","value":"ada@example.com"}],"tabId":7}`))
	assert.Contains(t, out, `the page drew textbox \"Email\" anew: it is e9 now`)
}
