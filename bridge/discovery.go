package bridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"time"

	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// Discovery is bridge.json: how an agent finds and authenticates to the
// broker of one OPENCHROME_HOME.
type Discovery struct {
	Port      int       `json:"port"`
	Token     string    `json:"token"`
	PID       int       `json:"pid"`
	Version   string    `json:"version"`
	StartedAt time.Time `json:"started_at"`
}

// URL returns the broker's WebSocket address.
func (d Discovery) URL() string {
	return "ws://127.0.0.1:" + strconv.Itoa(d.Port) + "/"
}

// WriteDiscovery replaces the file at path atomically, readable only by the
// user: the token in it is all that guards the broker.
func WriteDiscovery(path string, d Discovery) error {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return fmt.Errorf("bridge: encode discovery: %w", err)
	}
	return ledger.WriteFile(path, append(b, '\n'), 0o600)
}

// ReadDiscovery reads bridge.json. A missing file, the usual sign that no
// daemon runs, is a browser_not_connected error.
func ReadDiscovery(path string) (Discovery, error) {
	var d Discovery
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return d, ErrNoDaemon.WithCause(err)
	}
	if err != nil {
		return d, fmt.Errorf("bridge: read discovery: %w", err)
	}
	if err := json.Unmarshal(b, &d); err != nil || d.Port <= 0 || d.Token == "" {
		return d, ErrNoDaemon.WithCause(fmt.Errorf("bridge: malformed %s: %v", path, err))
	}
	return d, nil
}

// RemoveDiscovery deletes bridge.json if it still names pid, so a daemon that
// stops does not delete the file of one that has taken over.
func RemoveDiscovery(path string, pid int) error {
	d, err := ReadDiscovery(path)
	if err != nil || d.PID != pid {
		return nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("bridge: remove discovery: %w", err)
	}
	return nil
}

// ErrNoDaemon says no daemon runs for this home, and how to start one.
var ErrNoDaemon = protocol.Errorf(protocol.CodeBrowserNotConnected,
	"no browser is connected: the OpenChrome daemon is not running").
	WithHint("open Chrome with the OpenChrome extension (or run: openchrome launch); run: openchrome doctor")
