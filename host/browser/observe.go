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
	Stack      string `json:"stack,omitempty"` // an exception's frames, one a line
	ID         int    `json:"id,omitempty"`    // a request's, for network.get
}

// Events answers observe.events: the entries after since, the cursor to
// read on from, whether the tab is watched (an agent tab is, from when it
// joined the group), and how many entries the extension's ring dropped
// unread.
type Events struct {
	Events    []Event `json:"events"`
	Next      int     `json:"next"`
	Observing bool    `json:"observing"`
	Dropped   int     `json:"dropped"`
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
	out.Events = masked(p.Events, text, url)
	return out
}

func masked(evs []Event, text, url func(string) string) []Event {
	out := make([]Event, len(evs))
	for i, ev := range evs {
		ev.Text, ev.URL, ev.Error, ev.Stack = text(ev.Text), url(ev.URL), text(ev.Error), text(ev.Stack)
		out[i] = ev
	}
	return out
}

// Messages answers console.read: console entries and exceptions, oldest
// first.
type Messages struct {
	Messages []Event `json:"messages"`
	Next     int     `json:"next"`
	Dropped  int     `json:"dropped"`
}

// Masked is [Events.Masked] for console messages.
func (m Messages) Masked(text, url func(string) string) Messages {
	m.Messages = masked(m.Messages, text, url)
	return m
}

// ConsoleRead reads tab's console messages and exceptions after since, of
// levels (all when empty) whose text contains pattern.
func ConsoleRead(tab int, levels []string, pattern string, since, limit int) Command[Messages] {
	return command[Messages]("console.read", struct {
		TabID   int      `json:"tabId"`
		Levels  []string `json:"levels,omitempty"`
		Pattern string   `json:"pattern,omitempty"`
		Since   int      `json:"since,omitempty"`
		Limit   int      `json:"limit,omitempty"`
	}{tab, levels, pattern, since, limit}, 0)
}
