// Package launch starts Chromium with the OpenChrome extension loaded in
// OpenChrome's own profile (~/.openchrome/profile), so a user can try it, and
// e2e tests can drive it, without touching their own Chrome.
//
// Launch relies on `openchrome install` having registered the native host in
// that profile and extracted the extension; it checks and says so, but never
// registers anything itself.
package launch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/manifests"
)

// ErrNotInstalled reports that the OpenChrome profile has no native host
// manifest or the extension is not extracted: `openchrome install` fixes it.
var ErrNotInstalled = errors.New("launch: OpenChrome is not installed in this home")

// Options is what Start needs from the environment and the user.
type Options struct {
	// Home is OpenChrome's home; the browser uses its profile and extension
	// folders, and the native host it spawns inherits it as OPENCHROME_HOME.
	Home ledger.Home
	// Browser is the browser executable to start; empty means [FindBrowser].
	Browser string
	// GOOS selects where to look for a browser; empty means runtime.GOOS.
	GOOS string
	// LookPath finds an executable; nil means exec.LookPath.
	LookPath func(file string) (string, error)
	// Headless starts the browser without a window (see [NeedsHeadless]).
	Headless bool
	// Root says the browser will run as root, where Chromium needs
	// --no-sandbox to start at all.
	Root bool
	// ExtraArgs are appended to the command line, before the URL.
	ExtraArgs []string
	// URL is the page to open; empty means about:blank.
	URL string
	// Env is the browser's environment, OPENCHROME_HOME aside; nil means
	// this process's own.
	Env []string
}

// LogFile is where the browser's stdout and stderr go.
func LogFile(h ledger.Home) string {
	return h.Path("logs", "chromium.log")
}

// Start starts the browser detached from this process and returns its pid
// without waiting for it: the browser lives on after `openchrome launch`
// exits. ctx bounds only the start; cancelling it later leaves the browser
// running. Stop it by signalling its process group, -pid.
func Start(ctx context.Context, opts Options) (pid int, err error) {
	if opts.GOOS == "" {
		opts.GOOS = runtime.GOOS
	}
	if opts.LookPath == nil {
		opts.LookPath = exec.LookPath
	}
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("launch: %w", err)
	}
	if err := CheckInstalled(opts.Home); err != nil {
		return 0, err
	}
	if err := forgetOldWorker(opts.Home); err != nil {
		return 0, err
	}
	if err := SeedPreferences(opts.Home.Profile()); err != nil {
		return 0, err
	}
	if strings.Contains(opts.Home.Extension(), ",") {
		// --load-extension takes a comma-separated list of folders.
		return 0, fmt.Errorf("launch: the extension folder %s has a comma in its path, which --load-extension cannot take: "+
			"set OPENCHROME_HOME to a folder without one and run `openchrome install` again", opts.Home.Extension())
	}
	browser := opts.Browser
	if browser == "" {
		if browser, err = FindBrowser(opts.LookPath, opts.GOOS); err != nil {
			return 0, err
		}
	}

	logPath := LogFile(opts.Home)
	if err := os.MkdirAll(filepath.Dir(logPath), 0o700); err != nil {
		return 0, fmt.Errorf("launch: create log folder: %w", err)
	}
	logFile, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return 0, fmt.Errorf("launch: open browser log: %w", err)
	}
	// The child has its own copy of the descriptor once started.
	defer logFile.Close()

	cmd := exec.Command(browser, Args(opts)...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = detached()
	// Chrome passes its environment on to the native host it spawns; this
	// is how that host finds the same home as whoever launched the browser.
	// A later duplicate key wins in exec, so this overrides any inherited one.
	env := opts.Env
	if env == nil {
		env = cmd.Environ()
	}
	cmd.Env = slices.Concat(env, []string{"OPENCHROME_HOME=" + string(opts.Home)})
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("launch: start %s: %w", browser, err)
	}
	// Reap the browser when it exits, so a long-lived caller gathers no
	// zombie; this goroutine only waits, and dies with a short-lived caller.
	go func() { _ = cmd.Wait() }()
	return cmd.Process.Pid, nil
}

// CheckInstalled returns an error wrapping [ErrNotInstalled], naming the
// missing file, unless the OpenChrome profile has the native host registered
// and the extension is extracted.
func CheckInstalled(h ledger.Home) error {
	for _, p := range []string{
		filepath.Join(h.Profile(), "NativeMessagingHosts", manifests.HostName+".json"),
		filepath.Join(h.Extension(), "manifest.json"),
	} {
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w: %s is missing: run `openchrome install` first", ErrNotInstalled, p)
		} else if err != nil {
			return fmt.Errorf("launch: %w", err)
		}
	}
	return nil
}
