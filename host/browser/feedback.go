package browser

import "time"

// FeedbackGrace is how much longer than the person's countdown a
// feedback.request command may run: the extension answers timedOut when the
// countdown ends, and that answer must reach the host before the command's
// own timeout turns it into an error.
const FeedbackGrace = 10 * time.Second

// FeedbackOption is one answer a choose request offers.
type FeedbackOption struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// FeedbackAsk is a question for the person at the browser (docs/human.md).
type FeedbackAsk struct {
	TabID     int              `json:"tabId"`
	RequestID string           `json:"requestId"` // the same again for the same request, after a reconnect
	Mode      string           `json:"mode"`      // confirm, choose, point, element, region, comment
	Prompt    string           `json:"prompt"`
	Options   []FeedbackOption `json:"options,omitempty"`
	TimeoutMs int64            `json:"timeoutMs"` // the person's countdown
}

// Feedback is what the person did with a [FeedbackAsk]: answered it
// (Responded), let it run out (TimedOut) or dismissed it (Skip, Escape), in
// the page's overlay or the side panel (Via).
type Feedback struct {
	Responded   bool         `json:"responded"`
	TimedOut    bool         `json:"timedOut"`
	Dismissed   bool         `json:"dismissed"`
	Via         string       `json:"via,omitempty"`
	Annotations []Annotation `json:"annotations"`
}

// Annotation is one mark the person made; which fields it has depends on
// its kind (confirm, choice, point, element, region, comment). Refs are the
// page script's ref numbers, in the same space as page.snapshot's; on a
// page shown as a screenshot in the side panel there are none, and
// coordinates are the screenshot's pixels.
type Annotation struct {
	Kind     string   `json:"kind"`
	Value    any      `json:"value,omitempty"` // true for confirm; the chosen value for choice
	Label    string   `json:"label,omitempty"`
	X        *float64 `json:"x,omitempty"`
	Y        *float64 `json:"y,omitempty"`
	Ref      int      `json:"ref,omitempty"`
	Role     string   `json:"role,omitempty"`
	Name     string   `json:"name,omitempty"`
	Selector string   `json:"selector,omitempty"`
	Text     string   `json:"text,omitempty"` // the element's text; a comment's note
	Rect     *Rect    `json:"rect,omitempty"`
	Refs     []int    `json:"refs,omitempty"`
}

// FeedbackRequest shows the person a question and waits for what they do
// with it, for the countdown and FeedbackGrace more (wire action
// feedback.request). Sent again with the same RequestID it waits for the
// same request, or returns the answer the extension kept for it.
func FeedbackRequest(ask FeedbackAsk) Command[Feedback] {
	wait := time.Duration(ask.TimeoutMs) * time.Millisecond
	return command[Feedback]("feedback.request", ask, wait+FeedbackGrace)
}
