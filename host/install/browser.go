package install

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A browser is one Chromium-family browser's user-level install on Linux and
// macOS. Chrome reads native-messaging host manifests from
// <user data dir>/NativeMessagingHosts, so the user data dir is all we need.
type browser struct {
	id      string   // what --browser takes
	aliases []string // other ids for the same install
	linux   platform
	darwin  platform
}

// platform is where a browser lives on one OS.
type platform struct {
	name string // shown to the user
	// config is the default user data dir, relative to ~/.config on Linux
	// and to ~/Library/Application Support on macOS.
	config string
	// execs are looked up with LookPath: names on $PATH on Linux, the
	// executable inside the .app bundle on macOS.
	execs []string
	// app is the macOS bundle, looked for in /Applications and ~/Applications.
	app string
}

// browsers is the table of browsers install knows, in the order reported.
var browsers = []browser{
	{
		id:     "chrome",
		linux:  platform{name: "Google Chrome", config: "google-chrome", execs: []string{"google-chrome", "google-chrome-stable"}},
		darwin: platform{name: "Google Chrome", config: "Google/Chrome", app: "Google Chrome"},
	},
	{
		id:     "chrome-beta",
		linux:  platform{name: "Google Chrome Beta", config: "google-chrome-beta", execs: []string{"google-chrome-beta"}},
		darwin: platform{name: "Google Chrome Beta", config: "Google/Chrome Beta", app: "Google Chrome Beta"},
	},
	{
		// Linux ships the Dev channel as "unstable"; macOS users run Canary.
		id:      "chrome-canary",
		aliases: []string{"chrome-dev"},
		linux:   platform{name: "Google Chrome Dev", config: "google-chrome-unstable", execs: []string{"google-chrome-unstable"}},
		darwin:  platform{name: "Google Chrome Canary", config: "Google/Chrome Canary", app: "Google Chrome Canary"},
	},
	{
		id:     "chromium",
		linux:  platform{name: "Chromium", config: "chromium", execs: []string{"chromium", "chromium-browser"}},
		darwin: platform{name: "Chromium", config: "Chromium", app: "Chromium"},
	},
	{
		id:     "brave",
		linux:  platform{name: "Brave", config: "BraveSoftware/Brave-Browser", execs: []string{"brave-browser", "brave-browser-stable"}},
		darwin: platform{name: "Brave", config: "BraveSoftware/Brave-Browser", app: "Brave Browser"},
	},
	{
		id:     "edge",
		linux:  platform{name: "Microsoft Edge", config: "microsoft-edge", execs: []string{"microsoft-edge", "microsoft-edge-stable"}},
		darwin: platform{name: "Microsoft Edge", config: "Microsoft Edge", app: "Microsoft Edge"},
	},
	{
		id:     "chrome-for-testing",
		linux:  platform{name: "Chrome for Testing", config: "google-chrome-for-testing", execs: []string{"google-chrome-for-testing"}},
		darwin: platform{name: "Chrome for Testing", config: "Google/Chrome for Testing", app: "Google Chrome for Testing"},
	},
}

// BrowserIDs returns the ids --browser accepts, aliases included.
func BrowserIDs() []string {
	var ids []string
	for _, b := range browsers {
		ids = append(ids, b.id)
		ids = append(ids, b.aliases...)
	}
	return ids
}

// lookupBrowser finds a browser by id or alias.
func lookupBrowser(id string) (browser, error) {
	for _, b := range browsers {
		if b.id == id || slices.Contains(b.aliases, id) {
			return b, nil
		}
	}
	return browser{}, fmt.Errorf("install: unknown browser %q: use one of %s", id, strings.Join(BrowserIDs(), ", "))
}

// on returns where b lives under the environment o describes.
func (b browser) on(o *Options) platform {
	p := b.linux
	if o.GOOS == "darwin" {
		p = b.darwin
	}
	p.config = filepath.Join(o.configRoot(), filepath.FromSlash(p.config))
	if p.app != "" {
		for _, root := range []string{"/Applications", filepath.Join(o.UserHome, "Applications")} {
			p.execs = append(p.execs, filepath.Join(root, p.app+".app", "Contents", "MacOS", p.app))
		}
	}
	return p
}

// found reports whether p is installed: its user data dir exists (it has run
// at least once) or its executable is there (installed, not yet run).
func (p platform) found(o *Options) bool {
	if info, err := os.Stat(p.config); err == nil && info.IsDir() {
		return true
	}
	for _, exe := range p.execs {
		if _, err := o.LookPath(exe); err == nil {
			return true
		}
	}
	return false
}
