package install

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/openchrome/openchrome/ledger"
)

// record is install.json: every file install wrote, so uninstall can remove
// exactly those. It only grows: each install adds to it (a union), because a
// later install for one browser must not make uninstall forget another.
type record struct {
	Version      int                `json:"version"`
	Binary       string             `json:"binary"`
	ExtensionDir string             `json:"extensionDir,omitempty"`
	Manifests    []recordedManifest `json:"manifests"`
}

// recordedManifest is one host manifest install wrote. SHA256 is of the
// content written, so uninstall can tell our file from one somebody replaced.
type recordedManifest struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

const recordVersion = 1

// readRecord loads the install record; a missing one is empty.
func readRecord(h ledger.Home) (*record, error) {
	raw, err := os.ReadFile(h.InstallRecord())
	if errors.Is(err, fs.ErrNotExist) {
		return &record{Version: recordVersion}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("install: read install record: %w", err)
	}
	var r record
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("install: install record %s is damaged (%w): "+
			"remove it and run `openchrome install` again", h.InstallRecord(), err)
	}
	return &r, nil
}

// addManifest records that data was written at path, replacing any earlier
// entry for the same path: what matters is what the file holds now.
func (r *record) addManifest(name, path string, data []byte) {
	m := recordedManifest{Name: name, Path: path, SHA256: digest(data)}
	r.Manifests = slices.DeleteFunc(r.Manifests, func(x recordedManifest) bool { return x.Path == path })
	r.Manifests = append(r.Manifests, m)
	slices.SortFunc(r.Manifests, func(a, b recordedManifest) int { return strings.Compare(a.Path, b.Path) })
}

// write saves the record atomically, and not at all when the file already
// says the same, so a repeated install leaves it untouched.
func (r *record) write(h ledger.Home) error {
	r.Version = recordVersion
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("install: encode install record: %w", err)
	}
	data = append(data, '\n')
	if have, err := os.ReadFile(h.InstallRecord()); err == nil && bytes.Equal(have, data) {
		return nil
	}
	if err := ledger.WriteFile(h.InstallRecord(), data, 0o600); err != nil {
		return fmt.Errorf("install: save install record: %w", err)
	}
	return nil
}

func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
