package browser

import (
	"encoding/json"
	"time"

	"github.com/openchrome/openchrome/protocol"
)

// Act is one action on one element (element.act's params).
type Act struct {
	TabID     int       `json:"tabId"`
	Ref       string    `json:"ref,omitempty"`
	Action    string    `json:"action"`
	Text      *string   `json:"text,omitempty"`
	Key       string    `json:"key,omitempty"`
	Values    []string  `json:"values,omitempty"`
	Direction string    `json:"direction,omitempty"`
	Amount    int       `json:"amount,omitempty"`
	Target    string    `json:"target,omitempty"` // drag: the ref to drop on
	To        []float64 `json:"to,omitempty"`     // drag: [x, y] in the viewport
	// Pick: fill a combobox that draws its own list by picking the option
	// named Text, as select does: how form_input gives a field its value.
	Pick bool `json:"pick,omitempty"`
}

// Acted is what an action did (docs/wire.md, element.act). Fields are in
// the order of their names, as results have always listed them; absent
// fields stay absent.
type Acted struct {
	Action string `json:"action,omitempty"`
	// Answered: the dialog accept_dialog or dismiss_dialog answered; Dialog
	// is then the next one the page opened, if it did.
	Answered  string   `json:"answered,omitempty"`
	Box       *Box     `json:"box,omitempty"`
	Changes   string   `json:"changes,omitempty"`
	Blocked   *Blocked `json:"blocked,omitempty"` // nothing was done: something covers the element
	Checked   *bool    `json:"checked,omitempty"`
	Closed    bool     `json:"closed,omitempty"`    // the page closed its own tab
	Opener    int      `json:"opener,omitempty"`    // the tab that opened the one that closed
	Delivered *bool    `json:"delivered,omitempty"` // the input reached the element, once
	Dialog    string   `json:"dialog,omitempty"`
	// Focused: where the focus went when a key moved it (Tab, an arrow in
	// a menu), so the next keys' target is known without a read.
	Focused *Control `json:"focused,omitempty"`
	// FrameNavigated: where the element's frame went when the input took
	// it to another document; the page around it stayed.
	FrameNavigated string `json:"frameNavigated,omitempty"`
	// Gesture: a click went to an element a script listens on only for
	// this one ("double_click", "right_click"); the engine's change says
	// so when the click changed nothing, and the field is not shown.
	Gesture    string       `json:"gesture,omitempty"`
	Downloads  []Started    `json:"downloads,omitempty"` // downloads the action started
	Chooser    *FileChooser `json:"fileChooser,omitempty"`
	HITL       *HITL        `json:"hitl,omitempty"`
	InViewport *bool        `json:"inViewport,omitempty"`
	Key        string       `json:"key,omitempty"`
	// Keys: how many keys fill sent a slider the page draws, one at a
	// time, to bring it to the value.
	Keys      int   `json:"keys,omitempty"`
	Navigated *bool `json:"navigated,omitempty"`
	// Navigating: where the navigation the action started is going, when
	// the server had not answered it by the time the extension stopped
	// waiting (a slow form post); URL and Title are still the page it leaves.
	Navigating string `json:"navigating,omitempty"`
	// NavigationBlocked: the navigation the action started was stopped by
	// the person's site policy before it left the browser.
	NavigationBlocked *Refused `json:"navigationBlocked,omitempty"`
	// Status: the server answered the navigation the action started with
	// this status of 400 or more (a link to a page that is gone, a form
	// it turned down); the page shown is its error page.
	Status int   `json:"status,omitempty"`
	OK     *bool `json:"ok,omitempty"`
	Opened []int `json:"opened,omitempty"` // tabs the action opened, now the agent's
	// Options: a closed select was clicked; its list is the browser's
	// own, which no call sees. These are what it offers.
	Options []string `json:"options,omitempty"`
	// Picked: select on a list the page draws clicked this option of it;
	// Offers and Unpicked, when it has none of the name asked for, what it
	// shows and why nothing was picked. After fill or type in a combobox,
	// Offers are the options its list shows for the text (MoreOffers past
	// those named), for the click that comes next.
	Picked     *Control  `json:"picked,omitempty"`
	Offers     []Control `json:"offers,omitempty"`
	MoreOffers int       `json:"moreOffers,omitempty"`
	Unpicked   string    `json:"unpicked,omitempty"`
	// PageErrors: what the page threw while it acted on the input (an
	// uncaught exception in the click's handler), one line each.
	PageErrors []string `json:"pageErrors,omitempty"`
	// FailedRequests: requests the input started that the server refused
	// (a status of 400 or more) or the network failed, as the extension
	// saw them; the engine says them as RequestErrors, their URLs masked.
	FailedRequests []FailedRequest `json:"failedRequests,omitempty"`
	// RequestErrors: FailedRequests, one line each, as the agent reads
	// them: "POST /api/save: 500 Internal Server Error".
	RequestErrors []string `json:"requestErrors,omitempty"`
	Ref           string   `json:"ref,omitempty"`
	Strategy      string   `json:"strategy,omitempty"`
	Target        string   `json:"target,omitempty"`
	Title         *string  `json:"title,omitempty"`
	To            string   `json:"to,omitempty"` // drag: what it was dropped on
	Tried         []Tried  `json:"tried,omitempty"`
	// Typed: how much of type's text went to the page before the page
	// opened a dialog on a key; the rest was not typed.
	Typed    string          `json:"typed,omitempty"`
	URL      *string         `json:"url,omitempty"`
	Value    json.RawMessage `json:"value,omitempty"` // a string, or a list for a multiple select
	ValueSet bool            `json:"value_set,omitempty"`
	Verified *bool           `json:"verified,omitempty"`
	// Formatted: fill's text was kept as the page writes it ("(555)
	// 123-4567" for "5551234567"); Value says how.
	Formatted bool `json:"formatted,omitempty"`
	// Unkept: why the control did not keep fill's text, when it is known
	// ("it keeps at most 4 characters").
	Unkept string `json:"unkept,omitempty"`
	carried
}

// FailedRequest is a request an input started that failed: Status when
// the server answered, Error its status text or the network's error.
type FailedRequest struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	Status int    `json:"status,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Blocked says what covers an element an action was meant for: nothing was
// done. Dismiss are the controls in the blocker that would close it.
type Blocked struct {
	By *Control `json:"by,omitempty"`
	// PassThrough: the element lets pointer events through to what holds
	// it (pointer-events: none).
	PassThrough bool      `json:"passThrough,omitempty"`
	Dismiss     []Control `json:"dismiss"`
	// Asks: the blocker is a dialog none of whose buttons plainly
	// dismisses it ("Really leave?": Stay, Leave); these are its answers,
	// for the agent to choose among, or to ask the person.
	Asks []Control `json:"asks,omitempty"`
	// Escapes: the blocker is a <dialog> the page showed modal, which the
	// browser closes on Escape whatever its buttons do.
	Escapes bool `json:"escapes,omitempty"`
	// Pinned: the blocker is the page's own header, footer or navigation,
	// fixed to the window: no button or Escape closes it, and what it
	// covers at the page's end stays covered however the page scrolls.
	Pinned bool `json:"pinned,omitempty"`
	// Unseen: the blocker draws nothing a person sees (a transparent layer
	// left over the page): they would not know why their click does nothing.
	Unseen bool `json:"unseen,omitempty"`
}

// Control is an element by ref and name, e.g. e41 `button "Accept all"`.
type Control struct {
	Ref  string `json:"ref"`
	Name string `json:"name"`
}

// Refused is a navigation the site policy stopped, and why.
type Refused struct {
	URL     string `json:"url"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
	// NewTab: it was a tab the action opened, closed as it opened.
	NewTab bool `json:"newTab,omitempty"`
}

// Error is the refusal as the acting tool's error.
func (r *Refused) Error() *protocol.Error {
	what := "the navigation it started was stopped"
	if r.NewTab {
		what = "the tab it opened was closed"
	}
	return protocol.Errorf(protocol.CodeDomainBlocked, "the input was delivered, and %s: %s", what, r.Message).
		WithHint(r.Hint)
}

// FileChooser is a file chooser an action opened: none shows, and
// upload_file answers it.
type FileChooser struct {
	Multiple bool   `json:"multiple"`
	Next     string `json:"next"`
}

// Started is a download an action started; the downloads tool has the rest.
type Started struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// Box is an element's box in CSS pixels of the tab's viewport.
type Box struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Tried is one strategy of the click ladder that did not take.
type Tried struct {
	Strategy string `json:"strategy"`
	Result   string `json:"result"`
}

// HITL says no strategy could act, and which call hands the tab to the
// person.
type HITL struct {
	Required      bool   `json:"required"`
	Reason        string `json:"reason"`
	SuggestedCall struct {
		Tool string `json:"tool"`
		Args struct {
			Reason string `json:"reason"`
			TabID  int    `json:"tabId"`
		} `json:"args"`
	} `json:"suggested_call"`
}

// ElementAct runs one action on an element with trusted input.
func ElementAct(a Act) Command[Acted] {
	return command[Acted]("element.act", a, 60*time.Second)
}

// Uploaded is what element.upload did: what the page did with the files,
// as element.act says it of an action on the input (its ref and name), or
// that it answered the file chooser open in the tab.
type Uploaded struct {
	Acted
	Chooser bool `json:"chooser,omitempty"`
	Files   int  `json:"files"`
}

// ElementUpload sets files (absolute paths the engine has checked) on the
// file input behind ref, or on the open file chooser's when ref is empty.
func ElementUpload(tab int, ref string, files []string) Command[Uploaded] {
	return command[Uploaded]("element.upload", struct {
		TabID int      `json:"tabId"`
		Ref   string   `json:"ref,omitempty"`
		Files []string `json:"files"`
	}{tab, ref, files}, 0)
}

// ElementLocate says where ref's element is, without touching it; a ref
// that is gone is stale_ref.
func ElementLocate(tab int, ref string) Command[None] {
	return command[None]("element.locate", struct {
		TabID int    `json:"tabId"`
		Ref   string `json:"ref"`
	}{tab, ref}, 0)
}

// Candidate is one match of element.find.
type Candidate struct {
	Ref   int    `json:"ref"`
	Role  string `json:"role"`
	Name  string `json:"name"`
	Why   string `json:"why"`
	Score int    `json:"score"`
	Href  string `json:"href,omitempty"` // a link's target
	Near  string `json:"near,omitempty"` // the heading of the part of the page it is in
	// Option: the query named this option of a closed select (Ref), whose
	// list the browser draws; the select is picked from, not clicked.
	Option string `json:"option,omitempty"`
	// Gesture: what reaches the element's listeners when a click does not
	// ("double_click", "right_click"), as read_page's marks say.
	Gesture string `json:"gesture,omitempty"`
	// Repeats: the ref of the element this one stands for in a landmark the
	// page repeats word for word (a navigation bar above and below it).
	Repeats int `json:"repeats,omitempty"`
}

// Found answers element.find: the best candidates, and how many matched.
type Found struct {
	Candidates []Candidate `json:"candidates"`
	Total      int         `json:"total"`
	// Hidden: nothing a person sees matched, but a control they cannot
	// see now is named so.
	Hidden *HiddenMatch `json:"hidden,omitempty"`
	// Elsewhere: nothing matched a query that names a control and a place
	// ("Add to cart near Green mug"), but controls of that name are shown
	// in other places.
	Elsewhere *Elsewhere `json:"elsewhere,omitempty"`
}

// Elsewhere is the controls named as a query asked, none in the place it
// named: how many, and the first few with the heading near each.
type Elsewhere struct {
	Name  string   `json:"name"`
	Where string   `json:"where"`
	Count int      `json:"count"`
	Alike []Placed `json:"alike"`
}

// Placed is an element and the heading of the part of the page it is in.
type Placed struct {
	Ref  int    `json:"ref"`
	Near string `json:"near,omitempty"`
}

// HiddenMatch is a control hidden now, and the nearest part of the page
// around it a person sees (Holder; nil when that is the page itself).
type HiddenMatch struct {
	Name   string   `json:"name"`
	Holder *Control `json:"holder,omitempty"`
	// ClosedIn names the dialog it is in, which is not open.
	ClosedIn string `json:"closedIn,omitempty"`
}

// ElementFind ranks tab's elements against query, handing out refs.
func ElementFind(tab int, query string, limit int) Command[Found] {
	return command[Found]("element.find", struct {
		TabID int    `json:"tabId"`
		Query string `json:"query"`
		Limit int    `json:"limit"`
	}{tab, query, limit}, 0)
}

// Field is the form control a person would call by a label.
type Field struct {
	Ref  int    `json:"ref"`
	Role string `json:"role"`
	Name string `json:"name"`
	// Alike: every control the label fits as well, this one among them.
	Alike []Candidate `json:"alike,omitempty"`
	// InGroup: the label is a group's (a fieldset's legend), and this is
	// the radio or checkbox of it the value names. Asked with values,
	// Boxes are all of the group's, On those the values name, and Missing
	// the values that name none.
	InGroup bool     `json:"inGroup,omitempty"`
	Boxes   []Choice `json:"boxes,omitempty"`
	Missing []string `json:"missing,omitempty"`
}

// Choice is one radio or checkbox of a group, and whether the values a
// field was given name it.
type Choice struct {
	Ref  int    `json:"ref"`
	Role string `json:"role"`
	Name string `json:"name"`
	On   bool   `json:"on"`
}

// ElementField finds the control labelled label (in a group, the radio or
// checkbox named value; with values, every box of the group as well).
func ElementField(tab int, label, value string, values []string) Command[Field] {
	return command[Field]("element.field", struct {
		TabID  int      `json:"tabId"`
		Label  string   `json:"label"`
		Value  string   `json:"value,omitempty"`
		Values []string `json:"values,omitempty"`
	}{tab, label, value, values}, 0)
}
