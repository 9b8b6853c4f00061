package ledger

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
)

// ProcessAlive reports whether a process with pid exists. A record that says
// RUNNING under a pid that is not alive was orphaned by a crash.
//
// A zombie is not alive: it has exited and holds nothing, though its pid
// stays until its parent reaps it. The daemon's parent is init, which in a
// container may reap late, or never.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) { // EPERM: alive, not ours
		return false
	}
	return !zombie(pid)
}

// zombie reports whether pid has exited and waits to be reaped. It reads
// /proc, so it says false where there is none (macOS).
func zombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// "pid (comm) state ...": comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}
