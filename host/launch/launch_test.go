package launch

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/extension"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/manifests"
)

// lookPathOf finds exactly the given executables.
func lookPathOf(found ...string) func(string) (string, error) {
	return func(file string) (string, error) {
		if slices.Contains(found, file) {
			if filepath.IsAbs(file) {
				return file, nil
			}
			return "/usr/bin/" + file, nil
		}
		return "", exec.ErrNotFound
	}
}

func TestFindBrowser(t *testing.T) {
	tests := []struct {
		name    string
		goos    string
		found   []string
		want    string
		wantErr string
	}{
		{"linux: chromium first", "linux", []string{"chrome", "chromium-browser", "chromium"}, "/usr/bin/chromium", ""},
		{"linux: chromium-browser (Ubuntu)", "linux", []string{"chromium-browser", "google-chrome-for-testing"}, "/usr/bin/chromium-browser", ""},
		{"linux: Chrome for Testing", "linux", []string{"google-chrome-for-testing"}, "/usr/bin/google-chrome-for-testing", ""},
		{"linux: Chrome for Testing's bare chrome", "linux", []string{"chrome"}, "/usr/bin/chrome", ""},
		{"linux: branded Chrome is not picked", "linux", []string{"google-chrome", "google-chrome-stable"}, "",
			"sudo apt-get install chromium"},
		{"macOS: Homebrew chromium on PATH", "darwin", []string{"chromium", "/Applications/Chromium.app/Contents/MacOS/Chromium"},
			"/usr/bin/chromium", ""},
		{"macOS: Chromium.app", "darwin", []string{"/Applications/Chromium.app/Contents/MacOS/Chromium"},
			"/Applications/Chromium.app/Contents/MacOS/Chromium", ""},
		{"macOS: Chrome for Testing.app", "darwin",
			[]string{"/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing"},
			"/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing", ""},
		{"macOS: branded Chrome is not picked", "darwin",
			[]string{"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"}, "", "brew install --cask chromium"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FindBrowser(lookPathOf(tt.found...), tt.goos)
			if tt.wantErr != "" {
				assert.ErrorIs(t, err, ErrNoBrowser)
				assert.ErrorContains(t, err, tt.wantErr)
				assert.ErrorContains(t, err, "Load unpacked")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestArgs(t *testing.T) {
	home := ledger.Home("/home/a/.openchrome")
	base := []string{
		"--user-data-dir=/home/a/.openchrome/profile",
		"--load-extension=/home/a/.openchrome/extension",
		"--no-first-run",
		"--no-default-browser-check",
	}
	tests := []struct {
		name string
		opts Options
		want []string
	}{
		{"defaults", Options{Home: home}, append(base, "about:blank")},
		{"headless", Options{Home: home, Headless: true},
			append(base, "--headless=new", "--disable-gpu", "--window-size=1280,800", "about:blank")},
		{"headless as root", Options{Home: home, Headless: true, Root: true},
			append(base, "--headless=new", "--disable-gpu", "--window-size=1280,800", "--no-sandbox", "about:blank")},
		{"root with a display", Options{Home: home, Root: true}, append(base, "--no-sandbox", "about:blank")},
		{"extra args and URL", Options{Home: home, ExtraArgs: []string{"--remote-debugging-port=0"}, URL: "https://example.com/"},
			append(base, "--remote-debugging-port=0", "https://example.com/")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Args(tt.opts))
		})
	}
}

func TestNeedsHeadless(t *testing.T) {
	tests := []struct {
		name string
		goos string
		env  map[string]string
		want bool
	}{
		{"linux without a display", "linux", nil, true},
		{"linux with X11", "linux", map[string]string{"DISPLAY": ":0"}, false},
		{"linux with Wayland", "linux", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, false},
		{"macOS", "darwin", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, NeedsHeadless(tt.goos, func(k string) string { return tt.env[k] }))
		})
	}
}

// install does what `openchrome install` does for the OpenChrome profile.
func install(t *testing.T, h ledger.Home, parts ...string) {
	t.Helper()
	if slices.Contains(parts, "host") {
		m, err := manifests.HostManifest("/nonexistent/openchrome")
		require.NoError(t, err)
		require.NoError(t, ledger.WriteFile(
			filepath.Join(h.Profile(), "NativeMessagingHosts", manifests.HostName+".json"), m, 0o644))
	}
	if slices.Contains(parts, "extension") {
		_, err := extension.WriteTo(h.Extension())
		require.NoError(t, err)
	}
}

func TestStartNeedsInstall(t *testing.T) {
	tests := []struct {
		name    string
		parts   []string
		missing string
	}{
		{"nothing installed", nil, "NativeMessagingHosts/com.openchrome.host.json"},
		{"no host manifest", []string{"extension"}, "NativeMessagingHosts/com.openchrome.host.json"},
		{"no extension", []string{"host"}, "extension/manifest.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := ledger.Home(t.TempDir())
			install(t, h, tt.parts...)
			// A browser that would fail loudly if it were ever started.
			_, err := Start(context.Background(), Options{Home: h, Browser: "/nonexistent/chromium"})
			assert.ErrorIs(t, err, ErrNotInstalled)
			assert.ErrorContains(t, err, filepath.FromSlash(tt.missing)+" is missing: run `openchrome install` first")
		})
	}
}

func TestStartWithoutBrowser(t *testing.T) {
	h := ledger.Home(t.TempDir())
	install(t, h, "host", "extension")
	_, err := Start(context.Background(), Options{Home: h, GOOS: "linux", LookPath: lookPathOf()})
	assert.ErrorIs(t, err, ErrNoBrowser)
}

// TestStartChromium starts the real Chromium headless and checks it runs
// detached, in the OpenChrome profile, with OPENCHROME_HOME set.
func TestStartChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real browser")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	chromium, err := FindBrowser(exec.LookPath, runtime.GOOS)
	if err != nil {
		t.Skip(err)
	}
	h := ledger.Home(t.TempDir())
	install(t, h, "host", "extension")

	pid, err := Start(context.Background(), Options{
		Home:     h,
		Browser:  chromium,
		Headless: true,
		Root:     os.Geteuid() == 0,
		ExtraArgs: []string{"--remote-debugging-port=0", "--disable-background-networking",
			"--disable-component-update", "--disable-sync"},
	})
	require.NoError(t, err)
	t.Cleanup(func() { killSession(t, pid) })

	pgid, err := syscall.Getpgid(pid)
	require.NoError(t, err)
	assert.Equal(t, pid, pgid, "the browser leads its own process group")

	// Read once the child has exec'd: until then /proc shows no environment.
	assert.Eventually(t, func() bool {
		environ, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "environ"))
		return err == nil && slices.Contains(strings.Split(string(environ), "\x00"), "OPENCHROME_HOME="+string(h))
	}, 10*time.Second, 10*time.Millisecond, "the browser's environment names the OpenChrome home")

	// Chromium writes DevToolsActivePort into its user data dir once up.
	assert.Eventually(t, func() bool {
		_, err := os.Stat(filepath.Join(h.Profile(), "DevToolsActivePort"))
		return err == nil
	}, 30*time.Second, 50*time.Millisecond, "Chromium did not come up in the OpenChrome profile; see %s", LogFile(h))
	assert.FileExists(t, LogFile(h))
}

// killSession kills every process in the session pid leads (the browser and
// the helpers it forked, whatever group they moved to) and waits for them.
func killSession(t *testing.T, pid int) {
	t.Helper()
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	require.Eventually(t, func() bool {
		left := sessionMembers(pid)
		for _, p := range left {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		return len(left) == 0
	}, 10*time.Second, 20*time.Millisecond, "browser processes left behind")
}

// sessionMembers lists the live processes whose session id is sid.
func sessionMembers(sid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// "pid (comm) state ppid pgrp session ...", and comm may hold
		// spaces and parens, so split after its closing one.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		// A zombie is dead already; only its reaper can clear it.
		if len(fields) > 3 && fields[3] == strconv.Itoa(sid) && fields[0] != "Z" {
			pids = append(pids, p)
		}
	}
	return pids
}
