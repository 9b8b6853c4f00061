package ledger

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// ErrLocked reports that another process holds a lock.
var ErrLocked = errors.New("ledger: locked by another process")

// Lock is an advisory, exclusive lock on a file (flock(2)). The kernel drops
// it when its process dies, however it dies, which is what lets a new daemon
// take over from a killed one.
type Lock struct {
	f *flock.Flock
}

// TryLock takes the lock at path without waiting; it returns ErrLocked when
// another process holds it.
func TryLock(path string) (*Lock, error) {
	l, err := newLock(path)
	if err != nil {
		return nil, err
	}
	ok, err := l.f.TryLock()
	if err != nil {
		return nil, fmt.Errorf("ledger: lock %s: %w", filepath.Base(path), err)
	}
	if !ok {
		return nil, ErrLocked
	}
	return l, nil
}

// Acquire takes the lock at path, waiting until it is free or ctx ends.
func Acquire(ctx context.Context, path string) (*Lock, error) {
	l, err := newLock(path)
	if err != nil {
		return nil, err
	}
	ok, err := l.f.TryLockContext(ctx, 5*time.Millisecond)
	if err != nil {
		return nil, fmt.Errorf("ledger: lock %s: %w", filepath.Base(path), err)
	}
	if !ok {
		return nil, ErrLocked
	}
	return l, nil
}

func newLock(path string) (*Lock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("ledger: lock %s: %w", filepath.Base(path), err)
	}
	return &Lock{f: flock.New(path, flock.SetPermissions(0o600))}, nil
}

// Unlock releases the lock. It is safe to call more than once.
func (l *Lock) Unlock() error {
	if l == nil {
		return nil
	}
	return l.f.Unlock()
}
