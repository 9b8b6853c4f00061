// Package extension carries the OpenChrome MV3 extension inside the Go binary,
// so a user who has only `openchrome` can still install it: `openchrome
// install` extracts these files into ~/.openchrome/extension for Chrome's
// "Load unpacked" and Chromium's --load-extension.
//
// The JavaScript itself lives beside this file as plain ES modules; this
// package only embeds it and writes it out.
package extension

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/openchrome/openchrome/ledger"
)

// embedded holds the extension's runtime files. go:embed refuses a pattern that
// matches nothing, so only folders that exist are listed: add icons, or any
// other folder the manifest names, here when it appears. Tests and tooling
// caught by these patterns are dropped by [Files], not here.
//
//go:embed manifest.json *.js sw lib page sidepanel
var embedded embed.FS

// manifestFile marks a folder as an extension, for Chrome and for [WriteTo].
const manifestFile = "manifest.json"

// workerFile is the service worker the manifest names.
const workerFile = "service-worker.js"

// Files returns the extension's runtime files, rooted at the folder Chrome
// loads (manifest.json at the top). Unit tests and their helpers (*.test.js,
// testdata.js, testdata/), node_modules, package.json, package-lock.json and
// tsconfig.json are left out: Chrome does not need them, and a user's
// extension folder should hold only what runs.
func Files() fs.FS {
	return runtimeFS{embedded}
}

// WriteTo makes dir hold exactly the files of [Files]: each file whose content
// differs is replaced atomically, and anything else in dir is removed, so an
// upgrade leaves no stale module behind for Chrome to import. The manifest's
// version gets a fourth part, the build of the files ([Version]), and the
// service worker's script ends with it. It reports
// whether anything in dir changed; an unchanged file keeps its mtime.
//
// dir belongs to the extension. To keep a mistyped path from being emptied,
// WriteTo refuses a non-empty dir that holds no manifest.json.
func WriteTo(dir string) (changed bool, err error) {
	return writeFS(Files(), dir)
}

func writeFS(fsys fs.FS, dir string) (bool, error) {
	want, err := list(fsys)
	if err != nil {
		return false, fmt.Errorf("extension: list files: %w", err)
	}
	if err := checkOwned(dir); err != nil {
		return false, err
	}
	// Prune first: a path that changed from file to directory (or back) must
	// be out of the way before the new one is written.
	changed, err := prune(dir, want)
	if err != nil {
		return changed, err
	}
	manifest, version, err := stamped(fsys, want.files)
	if err != nil {
		return changed, err
	}
	for _, name := range want.files {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return changed, fmt.Errorf("extension: read %s: %w", name, err)
		}
		switch name {
		case manifestFile:
			data = manifest
		case workerFile:
			if version != "" {
				data = fmt.Appendf(slices.Clip(data), workerStamp, version)
			}
		}
		target := filepath.Join(dir, filepath.FromSlash(name))
		if sameFile(target, data) {
			continue
		}
		if err := ledger.WriteFile(target, data, 0o644); err != nil {
			return changed, fmt.Errorf("extension: %w", err)
		}
		changed = true
	}
	return changed, nil
}

// Version is the version of the extension [WriteTo] writes: the manifest's,
// with the build of its files as a fourth part ("0.1.0.4711"). The daemon
// compares it with the version the running extension reports, to tell a
// browser that still runs an older build.
func Version() (string, error) {
	fsys := Files()
	want, err := list(fsys)
	if err != nil {
		return "", fmt.Errorf("extension: list files: %w", err)
	}
	_, version, err := stamped(fsys, want.files)
	if err == nil && version == "" {
		err = fmt.Errorf("extension: %s has no version", manifestFile)
	}
	return version, err
}

// stamped returns the manifest of fsys with the build of files in its
// version, and that version ("" when the manifest has none).
func stamped(fsys fs.FS, files []string) (manifest []byte, version string, err error) {
	n, err := build(fsys, files)
	if err != nil {
		return nil, "", err
	}
	data, err := fs.ReadFile(fsys, manifestFile)
	if err != nil {
		return nil, "", fmt.Errorf("extension: %w", err)
	}
	manifest = stamp(data, n)
	if m := manifestVersion.FindSubmatch(manifest); m != nil {
		version = string(m[2])
	}
	return manifest, version, nil
}

// Release is version without its build: "0.1.0.4711" is release "0.1.0",
// which is the openchrome version the extension belongs to.
func Release(version string) string {
	parts := strings.SplitN(version, ".", 4)
	return strings.Join(parts[:min(len(parts), 3)], ".")
}

// build numbers the content of files. Chrome registers an extension's
// service worker again only when the extension's version changes, and runs
// the one it has until then, even after its files were replaced; a worker
// it registers again is installed only when the worker's own script
// differs, whatever its modules hold. So files that differ come with a
// version that does too, and a worker script that carries the build. (A
// restarted Chromium was seen to run its stored worker even so: see
// host/launch's forgetOldWorker.) A part of a Chrome version is at most
// 65535.
func build(fsys fs.FS, files []string) (uint16, error) {
	h := fnv.New32a()
	for _, name := range files {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return 0, fmt.Errorf("extension: read %s: %w", name, err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(data))
		h.Write(data)
	}
	return uint16(h.Sum32() % 65535), nil
}

// workerStamp ends the service worker's script, so that the script of each
// build differs, and the worker can say which build it is.
const workerStamp = `
// Added by openchrome install: the build of these files.
import { started } from './sw/identity.js';
started('%s');
`

// manifestVersion finds the manifest's "version" and its value.
var manifestVersion = regexp.MustCompile(`("version"\s*:\s*")([0-9]+(?:\.[0-9]+)*)"`)

// stamp gives the manifest's version of up to three parts the build n as
// its fourth; a manifest without one, or with four parts, stays as it is.
func stamp(manifest []byte, n uint16) []byte {
	loc := manifestVersion.FindSubmatchIndex(manifest)
	if loc == nil || bytes.Count(manifest[loc[4]:loc[5]], []byte(".")) >= 3 {
		return manifest
	}
	out := slices.Clone(manifest[:loc[5]])
	out = append(out, '.')
	out = strconv.AppendUint(out, uint64(n), 10)
	return append(out, manifest[loc[5]:]...)
}

// fileSet is the extension's files and the directories that hold them, as
// slash-separated paths relative to the extension root.
type fileSet struct {
	files  []string // manifest.json first, the rest in lexical order
	isFile map[string]bool
	isDir  map[string]bool
}

func list(fsys fs.FS) (fileSet, error) {
	set := fileSet{isFile: map[string]bool{}, isDir: map[string]bool{}}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case name == ".":
		case d.IsDir():
			set.isDir[name] = true
		case d.Type().IsRegular():
			set.isFile[name] = true
			set.files = append(set.files, name)
		}
		return nil
	})
	if err != nil {
		return set, err
	}
	if !set.isFile[manifestFile] {
		return set, fmt.Errorf("no %s at the extension root", manifestFile)
	}
	// manifest.json goes first so that a write cut short still leaves the
	// folder recognisably ours for the next checkOwned.
	slices.SortStableFunc(set.files, func(a, b string) int {
		return boolInt(b == manifestFile) - boolInt(a == manifestFile)
	})
	return set, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkOwned refuses to take over a folder that is neither missing, empty,
// nor an extension already.
func checkOwned(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("extension: read %s: %w", dir, err)
	case len(entries) == 0:
		return nil
	}
	if _, err := os.Lstat(filepath.Join(dir, manifestFile)); err != nil {
		return fmt.Errorf("extension: %s is not empty and holds no %s, so it is not an extension folder; "+
			"refusing to replace its contents: choose an empty or new folder", dir, manifestFile)
	}
	return nil
}

// prune removes from dir everything that is not in want.
func prune(dir string, want fileSet) (bool, error) {
	var stale []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == dir {
			return filepath.SkipAll
		}
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." {
			return err
		}
		name := filepath.ToSlash(rel)
		if d.IsDir() {
			if want.isDir[name] {
				return nil
			}
			stale = append(stale, p)
			return filepath.SkipDir
		}
		if !want.isFile[name] {
			stale = append(stale, p)
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("extension: list %s: %w", dir, err)
	}
	for _, p := range stale {
		if err := os.RemoveAll(p); err != nil {
			return true, fmt.Errorf("extension: remove stale %s: %w", p, err)
		}
	}
	return len(stale) > 0, nil
}

// sameFile reports whether name is a regular file holding exactly data.
func sameFile(name string, data []byte) bool {
	info, err := os.Lstat(name)
	if err != nil || !info.Mode().IsRegular() || info.Size() != int64(len(data)) {
		return false
	}
	have, err := os.ReadFile(name)
	return err == nil && bytes.Equal(have, data)
}

// excluded reports whether the slash-separated path name is development
// tooling rather than part of the running extension.
func excluded(name string) bool {
	for elem := range strings.SplitSeq(name, "/") {
		if elem == "node_modules" || elem == "testdata" {
			return true
		}
	}
	base := path.Base(name)
	return strings.HasSuffix(base, ".test.js") || base == "testdata.js" ||
		strings.HasPrefix(base, "package") && strings.HasSuffix(base, ".json") ||
		base == "tsconfig.json"
}

// runtimeFS hides the excluded files of fsys from every way of reaching them:
// Open, ReadFile, ReadDir, and ReadDir on an opened directory.
type runtimeFS struct{ fsys fs.FS }

var (
	_ fs.ReadDirFS  = runtimeFS{}
	_ fs.ReadFileFS = runtimeFS{}
)

func (r runtimeFS) Open(name string) (fs.File, error) {
	if err := check("open", name); err != nil {
		return nil, err
	}
	f, err := r.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	if d, ok := f.(fs.ReadDirFile); ok {
		return runtimeDir{d}, nil
	}
	return f, nil
}

func (r runtimeFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if err := check("readdir", name); err != nil {
		return nil, err
	}
	entries, err := fs.ReadDir(r.fsys, name)
	return keep(entries), err
}

func (r runtimeFS) ReadFile(name string) ([]byte, error) {
	if err := check("read", name); err != nil {
		return nil, err
	}
	return fs.ReadFile(r.fsys, name)
}

func check(op, name string) error {
	if !fs.ValidPath(name) {
		return &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if excluded(name) {
		return &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
	}
	return nil
}

// keep drops excluded entries. An entry's own name is enough to judge it: its
// parent directory was already allowed, or it could not have been listed.
func keep(entries []fs.DirEntry) []fs.DirEntry {
	return slices.DeleteFunc(entries, func(e fs.DirEntry) bool { return excluded(e.Name()) })
}

// runtimeDir is an open directory of a runtimeFS. It filters its own ReadDir
// too, because fs.WalkDir and friends may list a directory through the file.
type runtimeDir struct{ fs.ReadDirFile }

func (d runtimeDir) ReadDir(n int) ([]fs.DirEntry, error) {
	if n <= 0 {
		entries, err := d.ReadDirFile.ReadDir(n)
		return keep(entries), err
	}
	// Keep reading until n entries survive the filter, so a caller paging
	// through the directory never mistakes a filtered-out page for the end.
	var out []fs.DirEntry
	for len(out) < n {
		entries, err := d.ReadDirFile.ReadDir(n - len(out))
		out = append(out, keep(entries)...)
		if err == io.EOF && len(out) > 0 {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}
