package ledger

import (
	"fmt"
	"os"
	"path/filepath"
)

// Home is the root of the store, e.g. /home/alice/.openchrome.
type Home string

// DefaultHome returns ~/.openchrome for the current user.
func DefaultHome() (Home, error) {
	dir, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("ledger: no home directory: %w", err)
	}
	return Home(filepath.Join(dir, ".openchrome")), nil
}

// HomeFromEnv returns $OPENCHROME_HOME when set, else [DefaultHome]. Only main
// calls it: everything below takes a Home, so tests can pass t.TempDir().
func HomeFromEnv(getenv func(string) string) (Home, error) {
	if h := getenv("OPENCHROME_HOME"); h != "" {
		abs, err := filepath.Abs(h)
		if err != nil {
			return "", fmt.Errorf("ledger: OPENCHROME_HOME: %w", err)
		}
		return Home(abs), nil
	}
	return DefaultHome()
}

// Ensure creates the home directory, private to the user.
func (h Home) Ensure() error {
	if err := os.MkdirAll(string(h), 0o700); err != nil {
		return fmt.Errorf("ledger: create home: %w", err)
	}
	return nil
}

// Path joins elem onto the home directory.
func (h Home) Path(elem ...string) string {
	return filepath.Join(append([]string{string(h)}, elem...)...)
}

// The fixed places in the home directory (ARCHITECTURE §6).
func (h Home) BridgeFile() string { return h.Path("bridge.json") }
func (h Home) BridgeLock() string { return h.Path("bridge.lock") }
func (h Home) LogFile() string    { return h.Path("logs", "openchrome.log") }
func (h Home) AuditFile() string  { return h.Path("logs", "audit.jsonl") }
func (h Home) ConfigFile() string { return h.Path("config.json") }
func (h Home) Profile() string    { return h.Path("profile") }
func (h Home) Extension() string  { return h.Path("extension") }
func (h Home) InstallRecord() string {
	return h.Path("install.json")
}

// Tasks is the root of the task records: open it with [TaskLifecycle].
func (h Home) Tasks() string { return h.Path("tasks") }

// Handoffs is the root of the handoff records: open it with
// [HandoffLifecycle].
func (h Home) Handoffs() string { return h.Path("handoffs") }
