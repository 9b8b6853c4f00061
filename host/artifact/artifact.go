// Package artifact is what OpenChrome says of the files its tools write or
// report (PDFs, downloads, evidence bundles, recordings): where each is, what
// it is, and whether it is whole, as a verification row; and the MCP
// resource_link that points a client at it.
package artifact

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	"github.com/openchrome/openchrome/protocol"
)

// The states of a file, as a verification row says them.
const (
	Verified   = "verified"   // it exists, and has the size it should
	Missing    = "missing"    // nothing is at the path
	Incomplete = "incomplete" // it exists, with another size than it should (a download cut short)
	Unverified = "unverified" // it exists, and nothing says what size it should have
)

// File is one file and its verification row.
type File struct {
	Path     string `json:"path"`
	Name     string `json:"name"`
	MimeType string `json:"mimeType,omitempty"`
	Bytes    int64  `json:"bytes"`
	SHA256   string `json:"sha256,omitempty"`
	State    string `json:"state"`
	Note     string `json:"note,omitempty"`
}

// Verify looks at the file at path: whether it exists, its size against
// want (negative: unknown), and its sha256.
func Verify(path, mime string, want int64) File {
	f := File{Path: path, Name: filepath.Base(path), MimeType: mime}
	h := sha256.New()
	in, err := os.Open(path)
	if err != nil {
		f.State = Missing
		if !errors.Is(err, fs.ErrNotExist) {
			f.Note = "it cannot be read"
		}
		return f
	}
	defer in.Close()
	n, err := io.Copy(h, in)
	f.Bytes = n
	switch {
	case err != nil:
		f.State, f.Note = Unverified, "it cannot be read whole"
		return f
	case want >= 0 && n != want:
		f.State = Incomplete
	case want >= 0:
		f.State = Verified
	default:
		f.State = Unverified
	}
	f.SHA256 = hex.EncodeToString(h.Sum(nil))
	return f
}

// Link is the MCP resource_link to f, for a file that exists.
func (f File) Link() protocol.Content {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(f.Path)}
	return protocol.Content{Type: "resource_link", URI: u.String(), Name: f.Name, MimeType: f.MimeType, Size: f.Bytes}
}

// Links are the resource links of the files that exist.
func Links(files ...File) []protocol.Content {
	var out []protocol.Content
	for _, f := range files {
		if f.State != Missing {
			out = append(out, f.Link())
		}
	}
	return out
}

// NewID returns 16 hex digits naming an artifact: a recording, an evidence
// bundle, a session snapshot, a PDF.
func NewID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}
