package launch

import (
	"errors"
	"fmt"
)

// ErrNoBrowser reports that no browser that honours --load-extension was found.
var ErrNoBrowser = errors.New("launch: no Chromium found")

// candidates lists, in order of preference, the browsers launch may start.
// Branded Google Chrome is deliberately absent: since Chrome 137 it ignores
// --load-extension, so it would start without OpenChrome in it.
func candidates(goos string) []string {
	if goos == "darwin" {
		return []string{
			"chromium", // Homebrew's cask links this onto $PATH
			"/Applications/Chromium.app/Contents/MacOS/Chromium",
			"/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
		}
	}
	return []string{
		"chromium",
		"chromium-browser",
		"google-chrome-for-testing",
		"chrome", // Chrome for Testing's binary; branded Chrome puts google-chrome on $PATH instead
	}
}

// FindBrowser returns the first Chromium-family browser found with lookPath
// (exec.LookPath in production; on macOS it is also handed the absolute
// executable inside each .app, which LookPath checks without a $PATH search).
// The error, wrapping [ErrNoBrowser], says how to get one on goos.
func FindBrowser(lookPath func(string) (string, error), goos string) (string, error) {
	for _, name := range candidates(goos) {
		if p, err := lookPath(name); err == nil {
			return p, nil
		}
	}
	install := "install Chromium (Debian/Ubuntu: sudo apt-get install chromium; Fedora: sudo dnf install chromium)"
	if goos == "darwin" {
		install = "install Chromium (brew install --cask chromium)"
	}
	return "", fmt.Errorf("%w (Google Chrome ignores --load-extension since Chrome 137, so it cannot be used here): "+
		"%s, or set OPENCHROME_CHROMIUM to a Chromium executable, "+
		"or load the extension into your own Chrome: chrome://extensions -> Developer mode -> Load unpacked -> "+
		"the extension folder `openchrome install` printed", ErrNoBrowser, install)
}
