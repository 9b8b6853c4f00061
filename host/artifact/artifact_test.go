package artifact

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVerify(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report one.pdf")
	require.NoError(t, os.WriteFile(path, []byte("%PDF-1.7 hello"), 0o600))

	sum := sha256.Sum256([]byte("%PDF-1.7 hello"))
	f := Verify(path, "application/pdf", 14)
	assert.Equal(t, File{Path: path, Name: "report one.pdf", MimeType: "application/pdf", Bytes: 14,
		SHA256: hex.EncodeToString(sum[:]), State: Verified}, f)
	assert.Equal(t, Incomplete, Verify(path, "", 100).State, "a download cut short")
	assert.Equal(t, Unverified, Verify(path, "", -1).State)
	assert.Equal(t, Missing, Verify(filepath.Join(dir, "nope"), "", 1).State)

	link := f.Link()
	assert.Equal(t, "resource_link", link.Type)
	assert.Equal(t, "file://"+filepath.ToSlash(dir)+"/report%20one.pdf", link.URI)
	assert.Equal(t, int64(14), link.Size)
	assert.Len(t, Links(f, Verify(filepath.Join(dir, "nope"), "", 1)), 1, "no link to a file that is not there")
	assert.Regexp(t, `^[0-9a-f]{16}$`, NewID())
}
