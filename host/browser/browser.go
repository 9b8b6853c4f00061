package browser

import "time"

// Health is what the extension knows of itself and the agent's tabs.
type Health struct {
	ExtensionVersion string `json:"extensionVersion"`
	Browser          string `json:"browser"`
	Profile          string `json:"profile"`
	GroupTabs        int    `json:"groupTabs"`
	AttachedTabs     int    `json:"attachedTabs"`
}

// BrowserHealth asks the extension how it is.
func BrowserHealth() Command[Health] {
	return command[Health]("browser.health", struct{}{}, 5*time.Second)
}

// Stopped is the extension's half of Stop: what it cancelled and removed.
type Stopped struct {
	Banners   int `json:"banners"`
	Cancelled int `json:"cancelled"`
	Detached  int `json:"detached"`
}

// BrowserStop cancels every command in flight in the browser, removes
// banners and overlays, ends observation and detaches the debugger.
func BrowserStop() Command[Stopped] {
	return command[Stopped]("browser.stop", struct{}{}, 10*time.Second)
}
