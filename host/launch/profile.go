package launch

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/openchrome/openchrome/ledger"
)

// buildFile, in the profile, holds the extension version the profile was
// last started with.
const buildFile = "openchrome-extension-version"

// forgetOldWorker makes the profile run the service worker of the extension
// on disk. Chrome registers an extension's worker again only when it sees a
// new version, and even then, at start-up, it goes on running the worker it
// has stored, whatever `openchrome install` wrote since; reloading the
// extension would fix it, but a headless browser has no one to press reload,
// and an older profile has no developer mode, without which Chrome disables
// an unpacked extension that reloads. The profile is OpenChrome's own, so when
// the extension is another version than the one the profile last started
// with, its stored service workers are dropped before the browser starts,
// and the extension's registers anew. Sites register theirs again when
// next visited. A profile a browser has open is left alone: that browser is
// the one the new start hands over to.
func forgetOldWorker(h ledger.Home) error {
	raw, err := os.ReadFile(filepath.Join(h.Extension(), "manifest.json"))
	if err != nil {
		return fmt.Errorf("launch: %w", err)
	}
	var m struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.Version == "" {
		return fmt.Errorf("launch: the extension's manifest.json has no version: run `openchrome install`")
	}
	mark := filepath.Join(h.Profile(), buildFile)
	if last, err := os.ReadFile(mark); err == nil && string(last) == m.Version {
		return nil
	}
	if inUse(h.Profile()) {
		return nil
	}
	if err := os.RemoveAll(filepath.Join(h.Profile(), "Default", "Service Worker")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("launch: forget the profile's old service workers: %w", err)
	}
	if err := ledger.WriteFile(mark, []byte(m.Version), 0o600); err != nil {
		return fmt.Errorf("launch: %w", err)
	}
	return nil
}

// inUse reports whether a browser has profile open. Chromium's
// SingletonLock names the host that holds it, and stays behind when the
// browser is killed; a browser that runs answers on its SingletonSocket,
// which is how Chromium itself tells (a pid in the lock may be another
// process's by now).
func inUse(profile string) bool {
	lock, err := os.Readlink(filepath.Join(profile, "SingletonLock"))
	if err != nil {
		return false
	}
	if host, _ := os.Hostname(); !strings.HasPrefix(lock, host+"-") {
		return true // another machine's browser: not ours to judge
	}
	c, err := net.DialTimeout("unix", filepath.Join(profile, "SingletonSocket"), time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// SeedPreferences gives a profile that was never started developer mode, as
// a person who loaded the extension unpacked has it on: only then does
// Chrome reload an unpacked extension (chrome.runtime.reload, or its reload
// button) instead of disabling it. A profile a browser has written is left
// as it is.
func SeedPreferences(profile string) error {
	prefs := filepath.Join(profile, "Default", "Preferences")
	if _, err := os.Stat(prefs); !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := ledger.WriteFile(prefs, []byte(`{"extensions":{"ui":{"developer_mode":true}}}`), 0o600); err != nil {
		return fmt.Errorf("launch: %w", err)
	}
	return nil
}
