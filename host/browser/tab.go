package browser

import "time"

// Tab is a tab as the extension describes it.
type Tab struct {
	TabID  int    `json:"tabId"`
	URL    string `json:"url"`
	Title  string `json:"title"`
	Active bool   `json:"active,omitempty"`
	Status string `json:"status,omitempty"`
	// OpenerTabID is the agent tab that opened this one (window.open, a
	// target=_blank link), when one did.
	OpenerTabID int `json:"openerTabId,omitempty"`
}

// Tabs answers tab.list.
type Tabs struct {
	Tabs []Tab `json:"tabs"`
}

// Page is where a tab ended up after a navigation.
type Page struct {
	TabID  int    `json:"tabId"`
	URL    string `json:"url"`
	Title  string `json:"title"`
	Status int    `json:"status,omitempty"` // HTTP status, when there was a response
	// Loading: the page's document was ready, but its load event (held back
	// by a slow image or script) had not come 5 s later; what is there can
	// be read.
	Loading bool `json:"loading,omitempty"`
	// Downloads: the URL was a file, which Chrome downloaded; the tab stayed
	// where it was.
	Downloads []Started `json:"downloads,omitempty"`
	carried
}

// TabList lists the agent's tabs (the OpenChrome group), in tab-strip order.
func TabList() Command[Tabs] {
	return command[Tabs]("tab.list", struct{}{}, 0)
}

// TabGet describes one of the agent's tabs; a tab that is gone is
// tab_not_found, one outside the group tab_not_allowed.
func TabGet(tab int) Command[Tab] {
	return command[Tab]("tab.get", tabParams{tab}, 0)
}

// TabCreate opens a tab in the group and waits until it has loaded url.
func TabCreate(url string, active bool, timeout time.Duration) Command[Page] {
	return command[Page]("tab.create", struct {
		URL    string `json:"url,omitempty"`
		Active bool   `json:"active"`
	}{url, active}, timeout)
}

// TabClose closes one of the agent's tabs.
func TabClose(tab int) Command[None] {
	return command[None]("tab.close", tabParams{tab}, 0)
}

// TabNavigate loads url in tab and waits for the load.
func TabNavigate(tab int, url string, timeout time.Duration) Command[Page] {
	return command[Page]("tab.navigate", struct {
		TabID int    `json:"tabId"`
		URL   string `json:"url"`
	}{tab, url}, timeout)
}

// TabGo moves through tab's history or reloads it: direction is back,
// forward or reload.
func TabGo(tab int, direction string, timeout time.Duration) Command[Page] {
	return command[Page]("tab.navigate", struct {
		TabID     int    `json:"tabId"`
		Direction string `json:"direction"`
	}{tab, direction}, timeout)
}

// Secrets are the values of a tab's site's cookies and stored credentials,
// and what its secret fields hold: for the engine to mask, never to show.
type Secrets struct {
	Values []string `json:"secrets"`
	// HeldValues are what the page's secret fields hold, as carried's.
	HeldValues []string `json:"held"`
	// URL is where the tab is: the call's audit entry names its origin
	// when no other answer said it.
	URL string `json:"url"`
}

// Secrets makes s a Carrier: profile.secrets always reads them.
func (s Secrets) Secrets() ([]string, bool) { return s.Values, true }

// Held is what the page's secret fields hold.
func (s Secrets) Held() []string { return s.HeldValues }

// ProfileSecrets reads tab's site's secrets (profile.secrets).
func ProfileSecrets(tab int) Command[Secrets] {
	return command[Secrets]("profile.secrets", tabParams{tab}, 5*time.Second)
}
