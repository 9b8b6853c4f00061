//go:build unix

package launch

import "syscall"

// detached puts the browser in its own session, and so its own process
// group: it outlives `openchrome launch`, a Ctrl-C in the terminal does not
// reach it, and the whole tree can be signalled as one with kill(-pid).
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}
