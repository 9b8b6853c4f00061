//go:build unix

package daemon

import "syscall"

// detached puts the daemon in a session of its own, and so a process group
// of its own: signals to the native host's group (Chrome's, a terminal's)
// do not reach it.
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}
