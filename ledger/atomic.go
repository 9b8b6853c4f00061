package ledger

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// WriteFile replaces name with data atomically: a reader sees the old file or
// the new one, never half of either, and a crash leaves one of the two. The
// parent directory is created (0700) when missing. perm is applied exactly,
// whatever the umask, so a 0600 secret is never briefly wider.
func WriteFile(name string, data []byte, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return fmt.Errorf("ledger: write %s: %w", filepath.Base(name), err)
	}
	if err := renameio.WriteFile(name, data, perm, renameio.WithStaticPermissions(perm)); err != nil {
		return fmt.Errorf("ledger: write %s: %w", filepath.Base(name), err)
	}
	return nil
}
