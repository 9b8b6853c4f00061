package browser

// Event is one entry the extension observed on a tab: a console message, an
// uncaught exception, a request or a navigation. It never holds headers or
// bodies; the engine redacts its text and URL before anything is kept.
type Event struct {
	Seq        int    `json:"seq"`
	TS         int64  `json:"ts"` // Unix milliseconds
	Kind       string `json:"kind"`
	Level      string `json:"level,omitempty"`
	Text       string `json:"text,omitempty"`
	URL        string `json:"url,omitempty"`
	Line       int    `json:"line,omitempty"`
	Method     string `json:"method,omitempty"`
	Type       string `json:"type,omitempty"`
	Status     int    `json:"status,omitempty"`
	Error      string `json:"error,omitempty"`
	FromCache  bool   `json:"fromCache,omitempty"`
	Transition string `json:"transition,omitempty"`
}

// Events answers observe.events: the entries after since, the cursor to
// read on from, whether the tab is observed, and how many entries the
// extension's ring dropped unread.
type Events struct {
	Events    []Event `json:"events"`
	Next      int     `json:"next"`
	Observing bool    `json:"observing"`
	Dropped   int     `json:"dropped"`
}

// Observing answers observe.set.
type Observing struct {
	Observing bool `json:"observing"`
}

// ObserveSet starts (on) or stops keeping tab's console, requests and
// navigations.
func ObserveSet(tab int, on bool) Command[Observing] {
	return command[Observing]("observe.set", struct {
		TabID int  `json:"tabId"`
		On    bool `json:"on"`
	}{tab, on}, 0)
}

// ObserveEvents reads tab's observed entries of kinds (all when empty)
// after since, at most 500.
func ObserveEvents(tab, since int, kinds ...string) Command[Events] {
	return command[Events]("observe.events", struct {
		TabID int      `json:"tabId"`
		Since int      `json:"since,omitempty"`
		Kinds []string `json:"kinds,omitempty"`
		Limit int      `json:"limit"`
	}{tab, since, kinds, 500}, 0)
}

// Masked returns the events with their texts and URLs passed through text
// and url: the redaction every reader of events applies before anything is
// kept or returned.
func (p Events) Masked(text, url func(string) string) Events {
	out := p
	out.Events = make([]Event, len(p.Events))
	for i, ev := range p.Events {
		ev.Text, ev.URL, ev.Error = text(ev.Text), url(ev.URL), text(ev.Error)
		out.Events[i] = ev
	}
	return out
}
