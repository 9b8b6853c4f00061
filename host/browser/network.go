package browser

// Request is one request of a tab, as network.list shows it: never its
// headers or body.
type Request struct {
	ID         int    `json:"id"`
	Method     string `json:"method"`
	URL        string `json:"url"`
	Type       string `json:"type"`
	State      string `json:"state"` // pending, done or failed
	Status     int    `json:"status,omitempty"`
	StatusText string `json:"statusText,omitempty"`
	MimeType   string `json:"mimeType,omitempty"`
	Error      string `json:"error,omitempty"`
	Size       int64  `json:"size,omitempty"` // bytes on the wire
	Ms         int64  `json:"ms,omitempty"`
	FromCache  bool   `json:"fromCache,omitempty"`
	TS         int64  `json:"ts"` // Unix milliseconds, when it was sent
}

// Requests answers network.list.
type Requests struct {
	Requests []Request `json:"requests"`
	Next     int       `json:"next"`
	Dropped  int       `json:"dropped"`
}

// RequestFilter narrows network.list; every field optional.
type RequestFilter struct {
	URL    string `json:"url,omitempty"` // contained, * matches anything
	Method string `json:"method,omitempty"`
	Status int    `json:"status,omitempty"`
	Type   string `json:"type,omitempty"`
	Failed *bool  `json:"failed,omitempty"`
}

// NetworkList lists tab's requests after since that pass f.
func NetworkList(tab int, f RequestFilter, since, limit int) Command[Requests] {
	return command[Requests]("network.list", struct {
		TabID  int           `json:"tabId"`
		Filter RequestFilter `json:"filter"`
		Since  int           `json:"since,omitempty"`
		Limit  int           `json:"limit,omitempty"`
	}{tab, f, since, limit}, 0)
}

// Body is a response's body, or why it is not there.
type Body struct {
	Text      string `json:"text,omitempty"`
	Truncated int    `json:"truncated,omitempty"` // the whole body's length, when cut
	Offset    int    `json:"offset,omitempty"`    // where Text starts in it
	Next      int    `json:"next,omitempty"`      // the offset to read on from
	Omitted   string `json:"omitted,omitempty"`
}

// RequestDetail answers network.get: a request with its response's headers
// and body.
type RequestDetail struct {
	Request
	ResponseHeaders map[string]string `json:"responseHeaders"`
	Body            Body              `json:"body"`
}

// NetworkGet reads one request of tab in detail.
func NetworkGet(tab, id, offset int) Command[RequestDetail] {
	return command[RequestDetail]("network.get", struct {
		TabID  int `json:"tabId"`
		ID     int `json:"id"`
		Offset int `json:"offset,omitempty"`
	}{tab, id, offset}, 0)
}
