package daemon

import (
	"context"
	"fmt"
	"os"
	"os/exec"

	"github.com/openchrome/openchrome/ledger"
)

// StderrFile is where a spawned daemon's stderr goes: a panic's trace or a
// race report, nothing in normal running (logs go to the home's log file).
func StderrFile(home ledger.Home) string { return home.Path("logs", "daemon.stderr") }

// Spawn returns a Start that runs `exe serve` as the daemon: in a session of
// its own, so that Chrome killing the native host and its process group
// does not end it; with no stdin and no stdout (the native host's stdout is
// its wire to Chrome); its stderr appended to StderrFile. The environment is
// inherited: OPENCHROME_HOME and the tuning variables reach the daemon.
func Spawn(exe string, home ledger.Home) func(ctx context.Context) error {
	return func(context.Context) error {
		if err := os.MkdirAll(home.Path("logs"), 0o700); err != nil {
			return fmt.Errorf("daemon: %w", err)
		}
		stderr, err := os.OpenFile(StderrFile(home), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return fmt.Errorf("daemon: %w", err)
		}
		defer stderr.Close() // the child has its own descriptor
		// Not CommandContext: the daemon is meant to outlive us.
		cmd := exec.Command(exe, "serve")
		cmd.Dir = string(home) // not Chrome's working directory, which may go
		cmd.Stderr = stderr
		cmd.SysProcAttr = detached()
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("daemon: start %s serve: %w", exe, err)
		}
		// Reap it should it exit while we run, so that its pid is not left
		// a zombie that looks alive to whoever checks bridge.json's pid.
		go func() { _ = cmd.Wait() }()
		return nil
	}
}
