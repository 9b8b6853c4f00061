package browser

// HandoffState is what a handoff snapshot holds of a tab, and nothing the
// person typed: no cookie or storage values, only counts, key names and a
// fingerprint of the element structure.
type HandoffState struct {
	URL            string   `json:"url"`
	Title          string   `json:"title"`
	Origin         string   `json:"origin"`
	CookieCount    int      `json:"cookieCount"`
	StorageKeys    []string `json:"storageKeys"`
	DOMFingerprint string   `json:"domFingerprint"`
}

// HandoffStateOf reads tab's handoff state (wire action handoff.state).
func HandoffStateOf(tab int) Command[HandoffState] {
	return command[HandoffState]("handoff.state", tabParams{tab}, 0)
}
