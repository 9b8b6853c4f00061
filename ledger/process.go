package ledger

import (
	"errors"
	"syscall"
)

// ProcessAlive reports whether a process with pid exists. A record that says
// RUNNING under a pid that is not alive was orphaned by a crash.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM) // EPERM: alive, not ours
}
