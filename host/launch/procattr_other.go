//go:build !unix

package launch

import "syscall"

// detached is a no-op where there are no sessions; install refuses these
// systems anyway, so launch finds nothing registered there.
func detached() *syscall.SysProcAttr { return nil }
