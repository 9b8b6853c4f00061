package browser

import "time"

// Download is a download an agent tab started, as download.list shows it;
// the person's own downloads are never listed.
type Download struct {
	ID         int    `json:"id"`
	TabID      int    `json:"tabId"`
	URL        string `json:"url"`
	Name       string `json:"name"`
	Path       string `json:"path"` // where Chrome saves it, in full
	MimeType   string `json:"mimeType,omitempty"`
	State      string `json:"state"` // in_progress, complete or interrupted
	Bytes      int64  `json:"bytes"`
	TotalBytes int64  `json:"totalBytes"`       // 0 or less when the server did not say
	Error      string `json:"error,omitempty"`  // why it was interrupted, e.g. NETWORK_FAILED
	Paused     bool   `json:"paused,omitempty"` // waiting for the person
	Started    string `json:"started"`          // RFC 3339
	Ended      string `json:"ended,omitempty"`  // RFC 3339
	Exists     bool   `json:"exists"`           // the browser still finds the file
}

// Downloads answers download.list.
type Downloads struct {
	Downloads []Download `json:"downloads"`
	// Settled: there is a download and none is in progress.
	Settled bool `json:"settled"`
}

// DownloadList lists the downloads of tab (of every agent tab when 0),
// waiting up to wait until there is one and none is in progress.
func DownloadList(tab int, wait time.Duration) Command[Downloads] {
	return command[Downloads]("download.list", struct {
		TabID  int   `json:"tabId,omitempty"`
		WaitMs int64 `json:"waitMs,omitempty"`
	}{tab, wait.Milliseconds()}, wait+10*time.Second)
}
