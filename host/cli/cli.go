// Package cli is the openchrome command line: it parses arguments, reads the
// environment once, and hands the rest to the packages that do the work.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/openchrome/openchrome/host/daemon"
	"github.com/openchrome/openchrome/host/doctor"
	"github.com/openchrome/openchrome/host/engine"
	"github.com/openchrome/openchrome/host/frontend"
	"github.com/openchrome/openchrome/host/install"
	"github.com/openchrome/openchrome/host/launch"
	"github.com/openchrome/openchrome/host/policy"
	"github.com/openchrome/openchrome/host/redact"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

// Env is everything the commands take from the process.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// Executable is this binary's absolute path, symlinks resolved: what the
	// host manifests name.
	Executable string
}

const usage = `openchrome lets AI agents drive your Chrome, in their own tab group, while you stay in control.

Usage:
  openchrome install [--browser ID] [--user-data-dir DIR]
                        register the native host, extract the extension, print the MCP config
  openchrome launch [--headless] [--browser-path PATH] [URL]
                        start Chromium with the extension in OpenChrome's own profile
  openchrome mcp [--tools core,long,tasks,handoff,interactive,debug] [--upload-root DIR]...
                 [--allowed-origins A,B] [--blocked-origins C,D]
                        the MCP stdio server your MCP client runs; upload_file reads files
                        only in its directory, your client's roots, ~/.openchrome/uploads
                        and each --upload-root; the origin flags narrow the site policy
                        of ~/.openchrome/config.json for this client, never widen it
  openchrome doctor     check every link of the chain and say how to fix what is broken
  openchrome call TOOL ['{json args}'] [--out FILE]
                        call one tool through the running browser and print the result
  openchrome serve      the daemon that owns the browser link, tasks and handoffs
                        (the native host starts it; it exits after 10 idle minutes)
  openchrome uninstall  remove exactly what install wrote
  openchrome version

OPENCHROME_HOME overrides the home directory (default ~/.openchrome).
`

// Run runs the command in args (without the program name) and returns the
// process's exit code.
func Run(ctx context.Context, args []string, env Env) int {
	// Chrome starts the native host with the extension's origin as argv[1].
	if len(args) > 0 && strings.HasPrefix(args[0], "chrome-extension://") {
		return native(ctx, env)
	}
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, usage)
		return 2
	}
	cmd, rest := args[0], args[1:]
	run := map[string]func(context.Context, []string, Env) error{
		"install":   installCmd,
		"uninstall": uninstallCmd,
		"launch":    launchCmd,
		"mcp":       mcpCmd,
		"doctor":    doctorCmd,
		"call":      callCmd,
		"serve":     serveCmd,
		"version":   versionCmd,
	}[cmd]
	switch {
	case cmd == "help" || cmd == "-h" || cmd == "--help":
		fmt.Fprint(env.Stdout, usage)
		return 0
	case run == nil:
		fmt.Fprintf(env.Stderr, "openchrome: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	err := run(ctx, rest, env)
	var exit exitCode
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return int(exit)
	case errors.Is(err, flag.ErrHelp):
		return 0
	}
	fmt.Fprintf(env.Stderr, "openchrome %s: %v\n", cmd, err)
	return 1
}

// exitCode ends a command with a code and no further message: the command
// has printed what went wrong.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit %d", int(e)) }

func home(env Env) (ledger.Home, error) {
	return ledger.HomeFromEnv(env.Getenv)
}

// openLog returns a logger writing JSON lines to the home's log file,
// redacted by red (which the engine teaches the secrets it sees typed). Logs
// never go to stdout: in native mode and in mcp, stdout is the wire.
func openLog(env Env, h ledger.Home, component string, red *redact.Redactor) (*slog.Logger, func()) {
	path := h.LogFile()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return slog.New(slog.DiscardHandler), func() {}
	}
	rotate(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return slog.New(slog.DiscardHandler), func() {}
	}
	// OPENCHROME_LOG=debug also logs each extension command and its time.
	level := slog.LevelInfo
	if env.Getenv("OPENCHROME_LOG") == "debug" {
		level = slog.LevelDebug
	}
	log := slog.New(redact.NewHandler(slog.NewJSONHandler(f, &slog.HandlerOptions{Level: level}), red)).With("component", component, "pid", os.Getpid())
	return log, func() { f.Close() }
}

// rotate moves a log over 10 MiB aside, keeping one old file.
func rotate(path string) {
	if st, err := os.Stat(path); err == nil && st.Size() > 10<<20 {
		_ = os.Rename(path, path+".1")
	}
}

// native is the native host Chrome starts: it relays the extension to the
// daemon, starting one (`openchrome serve`, detached) when none runs.
func native(ctx context.Context, env Env) int {
	h, err := home(env)
	if err != nil {
		fmt.Fprintln(env.Stderr, "openchrome:", err)
		return 1
	}
	log, closeLog := openLog(env, h, "native", new(redact.Redactor))
	defer closeLog()
	rotate(daemon.StderrFile(h))
	err = daemon.Run(ctx, daemon.Options{Home: h, Stdin: env.Stdin, Stdout: env.Stdout, Logger: log,
		Start: daemon.Spawn(env.Executable, h)})
	if err != nil {
		log.Error("native host stopped", "err", err)
		fmt.Fprintln(env.Stderr, "openchrome:", err) // Chrome shows the host's stderr in its log
		return 1
	}
	return 0
}

// serveCmd is the daemon. The native host starts it; a person may too, to
// keep one up. OPENCHROME_IDLE_EXIT and OPENCHROME_BROWSER_WAIT (Go
// durations, e.g. 30s) tune how long it stays up idle and how long its
// tasks wait for a browser that went away.
func serveCmd(ctx context.Context, args []string, env Env) error {
	if err := newFlags("serve", env).Parse(args); err != nil {
		return err
	}
	h, err := home(env)
	if err != nil {
		return err
	}
	idle, err := durationEnv(env, "OPENCHROME_IDLE_EXIT")
	if err != nil {
		return err
	}
	wait, err := durationEnv(env, "OPENCHROME_BROWSER_WAIT")
	if err != nil {
		return err
	}
	red := new(redact.Redactor)
	log, closeLog := openLog(env, h, "daemon", red)
	defer closeLog()
	err = daemon.Serve(ctx, daemon.ServeOptions{Home: h, Logger: log, Redactor: red, Hooks: hooks(env),
		IdleExit: idle, BrowserWait: wait})
	switch {
	case errors.Is(err, daemon.ErrRunning):
		log.Info("a daemon already serves this home")
		return nil
	case err != nil:
		log.Error("daemon stopped", "err", err)
	}
	return err
}

// durationEnv reads a duration from the environment; unset is 0.
func durationEnv(env Env, key string) (time.Duration, error) {
	v := env.Getenv(key)
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s=%q: want a positive duration such as 30s or 10m", key, v)
	}
	return d, nil
}

func installOptions(env Env, browser, userDataDir string) (install.Options, error) {
	h, err := home(env)
	if err != nil {
		return install.Options{}, err
	}
	if userDataDir != "" {
		if userDataDir, err = filepath.Abs(userDataDir); err != nil {
			return install.Options{}, err
		}
	}
	userHome, _ := os.UserHomeDir() // empty is handled: install asks for --user-data-dir
	return install.Options{
		Home:        h,
		UserHome:    userHome,
		ConfigHome:  env.Getenv("XDG_CONFIG_HOME"),
		GOOS:        runtime.GOOS,
		Binary:      env.Executable,
		Browser:     browser,
		UserDataDir: userDataDir,
	}, nil
}

func newFlags(name string, env Env) *flag.FlagSet {
	fs := flag.NewFlagSet("openchrome "+name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	return fs
}

func installCmd(_ context.Context, args []string, env Env) error {
	fs := newFlags("install", env)
	browser := fs.String("browser", "", "register for this browser only: "+strings.Join(install.BrowserIDs(), ", "))
	userDataDir := fs.String("user-data-dir", "", "register into this Chrome user data dir only")
	if err := fs.Parse(args); err != nil {
		return err
	}
	opts, err := installOptions(env, *browser, *userDataDir)
	if err != nil {
		return err
	}
	r, err := install.Install(opts)
	if err != nil {
		return err
	}
	return r.Print(env.Stdout)
}

func uninstallCmd(_ context.Context, args []string, env Env) error {
	if err := newFlags("uninstall", env).Parse(args); err != nil {
		return err
	}
	opts, err := installOptions(env, "", "")
	if err != nil {
		return err
	}
	r, err := install.Uninstall(opts)
	if err != nil {
		return err
	}
	return r.Print(env.Stdout)
}

func launchCmd(ctx context.Context, args []string, env Env) error {
	fs := newFlags("launch", env)
	headless := fs.Bool("headless", launch.NeedsHeadless(runtime.GOOS, env.Getenv), "no window (the default on Linux without a display)")
	browserPath := fs.String("browser-path", env.Getenv("OPENCHROME_CHROMIUM"), "the Chromium or Chrome for Testing executable")
	if err := fs.Parse(args); err != nil {
		return err
	}
	h, err := home(env)
	if err != nil {
		return err
	}
	opts := launch.Options{
		Home:     h,
		Browser:  *browserPath,
		Headless: *headless,
		Root:     os.Geteuid() == 0,
		URL:      fs.Arg(0),
	}
	before := doctor.Linked(ctx, h)
	pid, err := launch.Start(ctx, opts)
	if err != nil {
		return err
	}
	mode := "with a window"
	if *headless {
		mode = "headless"
	}
	fmt.Fprintf(env.Stdout, "Started Chromium (pid %d, %s) with the OpenChrome extension in %s.\n"+
		"Its log: %s.\n", pid, mode, h.Profile(), launch.LogFile(h))
	// The extension links to the daemon a moment after Chromium starts (its
	// service worker starts the native host): said here, so that a setup
	// ends knowing whether the chain works.
	if b, ok := doctor.NewLink(ctx, h, before, linkWait); ok {
		fmt.Fprintf(env.Stdout, "The extension is linked (%s %s): agents can use it now.\n", b.ID, b.Browser)
	} else {
		fmt.Fprintf(env.Stdout, "The extension has not linked to OpenChrome within %s: openchrome doctor says why.\n", linkWait)
	}
	return nil
}

// How long launch waits for the browser it started to link.
const linkWait = 20 * time.Second

func mcpCmd(ctx context.Context, args []string, env Env) error {
	fs := newFlags("mcp", env)
	tools := fs.String("tools", "", "tool groups to serve, comma-separated (default: "+strings.Join(engine.DefaultGroups(), ",")+")")
	// upload_file reads files only inside the upload roots: the client's
	// roots, ~/.openchrome/uploads, this directory and these.
	var roots []string
	fs.Func("upload-root", "a directory upload_file may read files from (repeatable)", func(dir string) error {
		abs, err := filepath.Abs(dir)
		roots = append(roots, abs)
		return err
	})
	allowed := fs.String("allowed-origins", "", "narrow the site policy for this client: only these origins, comma-separated (e.g. *.example.com)")
	blocked := fs.String("blocked-origins", "", "narrow the site policy for this client: never these origins, comma-separated")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cwd, err := os.Getwd(); err == nil {
		roots = append(roots, cwd)
	}
	allowList, blockList := splitList(*allowed), splitList(*blocked)
	if _, err := (policy.Policy{}).Narrow(allowList, blockList); err != nil {
		return fmt.Errorf("openchrome mcp: %s", protocol.AsError(err).Message)
	}
	h, err := home(env)
	if err != nil {
		return err
	}
	var groups []string
	if *tools != "" {
		groups = strings.Split(*tools, ",")
	}
	red := new(redact.Redactor)
	log, closeLog := openLog(env, h, "mcp", red)
	defer closeLog()
	s, err := frontend.New(frontend.Options{Home: h, Groups: groups, Logger: log, Redactor: red, UploadRoots: roots,
		AllowedOrigins: allowList, BlockedOrigins: blockList})
	if err != nil {
		return err
	}
	return s.ServeStdio(ctx)
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

func doctorCmd(ctx context.Context, args []string, env Env) error {
	if err := newFlags("doctor", env).Parse(args); err != nil {
		return err
	}
	opts, err := installOptions(env, "", "")
	if err != nil {
		return err
	}
	checks := doctor.Run(ctx, doctor.Options{Install: opts})
	if err := doctor.Print(env.Stdout, checks); err != nil {
		return err
	}
	if doctor.Failed(checks) {
		return exitCode(1)
	}
	return nil
}

func versionCmd(_ context.Context, _ []string, env Env) error {
	fmt.Fprintf(env.Stdout, "openchrome %s (%s/%s)\n", protocol.Version, runtime.GOOS, runtime.GOARCH)
	return nil
}

// hooks reads OPENCHROME_TEST_HOOKS, the fault injections e2e tests use:
// "failOnPage=2" makes a crawl fail on its second page, "failOnPage=2,panic"
// panic there.
func hooks(env Env) engine.Hooks {
	var h engine.Hooks
	for _, part := range strings.Split(env.Getenv("OPENCHROME_TEST_HOOKS"), ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "failOnPage":
			h.FailOnPage, _ = strconv.Atoi(v)
		case "panic":
			h.Panic = true
		}
	}
	return h
}
