package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// UninstallReport is what Uninstall did.
type UninstallReport struct {
	// Removed lists the files and folders removed, the record included.
	Removed []string
	// Kept lists recorded files left in place, with why.
	Kept []Kept
	// NothingRecorded is set when there was no install record, so there was
	// nothing to take back.
	NothingRecorded bool
}

// Kept is a recorded file Uninstall did not remove.
type Kept struct {
	Path   string
	Reason string
}

// Uninstall removes what the install record lists: the host manifests whose
// content is still what install wrote, the extracted extension, and the record
// itself. It leaves the home directory, tasks, logs and the OpenChrome profile
// alone, and every file it did not write. With no record it does nothing.
//
// Only opts.Home is used. If a removal fails the record is kept, so running
// Uninstall again retries.
func Uninstall(opts Options) (*UninstallReport, error) {
	if opts.Home == "" {
		return nil, errors.New("install: no OpenChrome home given")
	}
	if _, err := os.Stat(opts.Home.InstallRecord()); errors.Is(err, fs.ErrNotExist) {
		return &UninstallReport{NothingRecorded: true}, nil
	}
	rec, err := readRecord(opts.Home)
	if err != nil {
		return nil, err
	}

	r := &UninstallReport{}
	var errs []error
	for _, m := range rec.Manifests {
		have, err := os.ReadFile(m.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// Already gone; nothing of ours to take back.
		case err != nil:
			errs = append(errs, fmt.Errorf("read %s: %w", m.Path, err))
		case digest(have) != m.SHA256:
			r.Kept = append(r.Kept, Kept{Path: m.Path, Reason: "changed since install"})
		default:
			if err := os.Remove(m.Path); err != nil {
				errs = append(errs, err)
				continue
			}
			r.Removed = append(r.Removed, m.Path)
		}
	}
	if dir := rec.ExtensionDir; dir != "" {
		// The path comes from a file on disk; only ever delete the folder
		// install itself extracts to.
		if filepath.Clean(dir) != opts.Home.Extension() {
			r.Kept = append(r.Kept, Kept{Path: dir, Reason: "not OpenChrome's extension folder"})
		} else if _, err := os.Lstat(dir); err == nil {
			if err := os.RemoveAll(dir); err != nil {
				errs = append(errs, err)
			} else {
				r.Removed = append(r.Removed, dir)
			}
		}
	}
	if len(errs) > 0 {
		return r, fmt.Errorf("install: uninstall incomplete, run it again once fixed: %w", errors.Join(errs...))
	}
	if err := os.Remove(opts.Home.InstallRecord()); err != nil {
		return r, fmt.Errorf("install: remove install record: %w", err)
	}
	r.Removed = append(r.Removed, opts.Home.InstallRecord())
	return r, nil
}
