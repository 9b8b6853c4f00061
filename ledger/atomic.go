package ledger

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// Files writes the daemon's files (evidence, recordings, sessions, PDFs):
// text through Scrub, so that no writer can forget to redact, and images and
// PDFs, which are not text, as they are. Its zero value scrubs nothing.
type Files struct {
	Scrub func([]byte) []byte
}

// Text writes a text file (JSON, JSON lines, HTML, Markdown) redacted, 0600,
// and returns the bytes it wrote (a manifest's sha256 is of those).
func (f Files) Text(name string, data []byte) ([]byte, error) {
	if f.Scrub != nil {
		data = f.Scrub(data)
	}
	return data, WriteFile(name, data, 0o600)
}

// Binary writes an image or a PDF as it is, 0600: redaction would only
// break it, and what it shows was on the page.
func (f Files) Binary(name string, data []byte) error { return WriteFile(name, data, 0o600) }

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
