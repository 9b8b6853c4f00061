// Package install registers the openchrome binary as Chrome's native-messaging
// host and extracts the embedded extension, and undoes exactly that.
//
// Install writes a host manifest into every Chromium-family browser it finds
// (or the one asked for) and always into the OpenChrome profile that `openchrome
// launch` uses, then records every file it wrote in ~/.openchrome/install.json.
// Uninstall reads that record and removes only those files, and only while
// their content is still what install wrote.
package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/openchrome/openchrome/extension"
	"github.com/openchrome/openchrome/host/policy"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/manifests"
)

// Options is everything Install and Uninstall need from the environment; the
// package reads none of it itself, so tests run against temp dirs.
type Options struct {
	// Home is OpenChrome's home (~/.openchrome or $OPENCHROME_HOME).
	Home ledger.Home
	// UserHome is the OS user's home directory, under which browsers keep
	// their profiles.
	UserHome string
	// ConfigHome is $XDG_CONFIG_HOME on Linux, where Chrome keeps its user
	// data dirs; empty means UserHome/.config. Unused on macOS.
	ConfigHome string
	// GOOS is "linux" or "darwin"; empty means runtime.GOOS.
	GOOS string
	// Binary is the absolute path of the openchrome binary Chrome will start.
	Binary string
	// Browser, when set, registers only for this browser id (see
	// [BrowserIDs]), found or not.
	Browser string
	// UserDataDir, when set, registers only into this absolute Chrome user
	// data dir (for a profile started with --user-data-dir).
	UserDataDir string
	// LookPath finds an executable; nil means exec.LookPath.
	LookPath func(file string) (string, error)
}

// withDefaults fills the zero fields that have a sensible default.
func (o Options) withDefaults() Options {
	if o.GOOS == "" {
		o.GOOS = runtime.GOOS
	}
	if o.LookPath == nil {
		o.LookPath = exec.LookPath
	}
	return o
}

// configRoot is the folder that holds the browsers' default user data dirs.
func (o *Options) configRoot() string {
	if o.GOOS == "darwin" {
		return filepath.Join(o.UserHome, "Library", "Application Support")
	}
	if o.ConfigHome != "" {
		return o.ConfigHome
	}
	return filepath.Join(o.UserHome, ".config")
}

// Status says what install did to one file.
type Status string

// The statuses a [Target] can have.
const (
	Written   Status = "written"   // created or replaced
	Unchanged Status = "unchanged" // already held exactly this content
)

// Target is one host manifest install registered.
type Target struct {
	// Browser is the --browser id, or empty for a --user-data-dir target
	// given without one and for the OpenChrome profile.
	Browser string
	// Name is what to call it when talking to the user: "Google Chrome".
	Name string
	// Path is the host manifest file.
	Path   string
	Status Status
}

// Report is what Install did.
type Report struct {
	// Binary is the host binary the manifests point at.
	Binary string
	// ExtensionID is the ID the extension gets from its pinned key, the only
	// origin the host manifests allow.
	ExtensionID string
	// ExtensionDir is the folder the extension was extracted to, for Chrome's
	// "Load unpacked" and Chromium's --load-extension.
	ExtensionDir    string
	ExtensionStatus Status
	// Browsers are the registrations into browsers' user data dirs; empty
	// when none was found.
	Browsers []Target
	// Profile is the registration into the OpenChrome profile, which
	// `openchrome launch` uses; install always makes it.
	Profile Target
	// Config is the person's policy file (~/.openchrome/config.json).
	Config string
}

// Changed reports whether Install wrote anything.
func (r *Report) Changed() bool {
	if r.ExtensionStatus == Written || r.Profile.Status == Written {
		return true
	}
	for _, t := range r.Browsers {
		if t.Status == Written {
			return true
		}
	}
	return false
}

// Install registers opts.Binary as the native-messaging host, extracts the
// extension into opts.Home, and records what it wrote so [Uninstall] can take
// exactly that back. It is idempotent: a second run with the same options
// writes nothing and reports every file [Unchanged].
//
// Two installs into the same home must not run at once; the record is a
// read-modify-write.
func Install(opts Options) (*Report, error) {
	o := opts.withDefaults()
	if err := o.validate(); err != nil {
		return nil, err
	}
	manifest, err := manifests.HostManifest(o.Binary)
	if err != nil {
		return nil, fmt.Errorf("install: %w", err)
	}
	targets, err := o.targets()
	if err != nil {
		return nil, err
	}
	if err := o.Home.Ensure(); err != nil {
		return nil, fmt.Errorf("install: %w", err)
	}
	rec, err := readRecord(o.Home)
	if err != nil {
		return nil, err
	}

	r := &Report{
		Binary:       o.Binary,
		ExtensionID:  manifests.ExtensionID(),
		ExtensionDir: o.Home.Extension(),
	}
	rec.Binary = o.Binary
	// On failure, still record what was written, so uninstall can take
	// back a half-finished install; the first error is the one to report.
	failed := func(err error) (*Report, error) {
		_ = rec.write(o.Home)
		return nil, err
	}
	for i := range targets {
		t := &targets[i]
		if t.Status, err = writeIfChanged(t.Path, manifest); err != nil {
			return failed(err)
		}
		rec.addManifest(t.Name, t.Path, manifest)
	}
	n := len(targets) - 1
	r.Profile, r.Browsers = targets[n], targets[:n:n]

	rec.ExtensionDir = r.ExtensionDir
	changed, err := extension.WriteTo(r.ExtensionDir)
	if err != nil {
		return failed(fmt.Errorf("install: extract extension: %w", err))
	}
	r.ExtensionStatus = statusOf(changed)

	// The person's policy, with its defaults, for them to edit; never
	// replaced once there.
	r.Config = o.Home.ConfigFile()
	if _, err := os.Stat(r.Config); errors.Is(err, fs.ErrNotExist) {
		write := func(name string, b []byte) error { return ledger.WriteFile(name, b, 0o600) }
		if err := policy.Write(r.Config, policy.Defaults(), write); err != nil {
			return failed(fmt.Errorf("install: %w", err))
		}
	}

	if err := rec.write(o.Home); err != nil {
		return nil, err
	}
	return r, nil
}

func (o *Options) validate() error {
	switch {
	case o.Home == "":
		return errors.New("install: no OpenChrome home given")
	case o.GOOS != "linux" && o.GOOS != "darwin":
		return fmt.Errorf("install: %s is not supported yet: OpenChrome registers its native host on Linux and macOS only", o.GOOS)
	case o.UserDataDir != "" && !filepath.IsAbs(o.UserDataDir):
		return fmt.Errorf("install: --user-data-dir %q is not absolute: pass the full path", o.UserDataDir)
	case o.UserDataDir == "" && o.UserHome == "":
		return errors.New("install: no user home directory given, so browsers cannot be found: pass --user-data-dir")
	}
	return nil
}

// targets lists where to write host manifests: the browsers or user data dir
// the options select, then the OpenChrome profile last.
func (o *Options) targets() ([]Target, error) {
	var picked []Target
	switch {
	case o.UserDataDir != "":
		t := Target{Name: "user data dir " + o.UserDataDir, Path: manifestPath(o.UserDataDir)}
		if o.Browser != "" {
			b, err := lookupBrowser(o.Browser)
			if err != nil {
				return nil, err
			}
			t.Browser, t.Name = b.id, b.on(o).name+" ("+o.UserDataDir+")"
		}
		picked = append(picked, t)
	case o.Browser != "":
		b, err := lookupBrowser(o.Browser)
		if err != nil {
			return nil, err
		}
		p := b.on(o)
		picked = append(picked, Target{Browser: b.id, Name: p.name, Path: manifestPath(p.config)})
	default:
		for _, b := range browsers {
			if p := b.on(o); p.found(o) {
				picked = append(picked, Target{Browser: b.id, Name: p.name, Path: manifestPath(p.config)})
			}
		}
	}
	profile := Target{Name: "OpenChrome profile", Path: manifestPath(o.Home.Profile())}
	// --user-data-dir may name the OpenChrome profile itself.
	for i, t := range picked {
		if t.Path == profile.Path {
			picked = append(picked[:i], picked[i+1:]...)
			break
		}
	}
	return append(picked, profile), nil
}

// manifestPath is where Chrome looks for our host manifest in a user data dir.
func manifestPath(userDataDir string) string {
	return filepath.Join(userDataDir, "NativeMessagingHosts", manifests.HostName+".json")
}

// writeIfChanged writes data to name unless it already holds exactly that, so
// a repeated install touches nothing.
func writeIfChanged(name string, data []byte) (Status, error) {
	have, err := os.ReadFile(name)
	if err == nil && bytes.Equal(have, data) {
		return Unchanged, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("install: read %s: %w", name, err)
	}
	// 0644 like every other host manifest: Chrome only needs to read it.
	if err := ledger.WriteFile(name, data, 0o644); err != nil {
		return "", fmt.Errorf("install: register host in %s: %w", filepath.Dir(name), err)
	}
	return Written, nil
}

func statusOf(changed bool) Status {
	if changed {
		return Written
	}
	return Unchanged
}
