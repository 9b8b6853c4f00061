//go:build !unix

package daemon

import "syscall"

// detached is a no-op where there are no sessions; install refuses these
// systems anyway.
func detached() *syscall.SysProcAttr { return nil }
