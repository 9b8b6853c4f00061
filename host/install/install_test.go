package install

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/manifests"
)

const binary = "/opt/openchrome/bin/openchrome"

// env is a fake user: a temp home, an OpenChrome home inside it, and the
// executables LookPath finds.
type env struct {
	userHome string
	execs    []string
}

func newEnv(t *testing.T, execs ...string) *env {
	return &env{userHome: t.TempDir(), execs: execs}
}

func (e *env) opts(goos string) Options {
	return Options{
		Home:     ledger.Home(filepath.Join(e.userHome, ".openchrome")),
		UserHome: e.userHome,
		GOOS:     goos,
		Binary:   binary,
		LookPath: func(file string) (string, error) {
			if slices.Contains(e.execs, file) {
				return file, nil
			}
			return "", fs.ErrNotExist
		},
	}
}

// mkdir creates dirs relative to the user's home.
func (e *env) mkdir(t *testing.T, dirs ...string) {
	for _, d := range dirs {
		require.NoError(t, os.MkdirAll(filepath.Join(e.userHome, filepath.FromSlash(d)), 0o700))
	}
}

func (e *env) path(rel string) string {
	return filepath.Join(e.userHome, filepath.FromSlash(rel))
}

func hostFile(userDataDir string) string {
	return filepath.Join(userDataDir, "NativeMessagingHosts", "com.openchrome.host.json")
}

func TestInstallFindsBrowsers(t *testing.T) {
	tests := []struct {
		name       string
		goos       string
		configDirs []string
		execs      []string
		configHome string
		want       map[string]string // browser id -> user data dir, relative to the user's home
	}{
		{
			name: "linux: nothing installed",
			goos: "linux",
			want: map[string]string{},
		},
		{
			name:       "linux: found by config dir",
			goos:       "linux",
			configDirs: []string{".config/google-chrome", ".config/BraveSoftware/Brave-Browser"},
			want: map[string]string{
				"chrome": ".config/google-chrome",
				"brave":  ".config/BraveSoftware/Brave-Browser",
			},
		},
		{
			name:  "linux: found by executable, never run",
			goos:  "linux",
			execs: []string{"chromium-browser", "microsoft-edge-stable", "google-chrome-unstable"},
			want: map[string]string{
				"chromium":      ".config/chromium",
				"edge":          ".config/microsoft-edge",
				"chrome-canary": ".config/google-chrome-unstable",
			},
		},
		{
			name:       "linux: XDG_CONFIG_HOME",
			goos:       "linux",
			configHome: "xdg",
			configDirs: []string{"xdg/chromium", ".config/google-chrome-beta"},
			want:       map[string]string{"chromium": "xdg/chromium"},
		},
		{
			name: "linux: every browser",
			goos: "linux",
			configDirs: []string{".config/google-chrome", ".config/google-chrome-beta",
				".config/google-chrome-unstable", ".config/chromium", ".config/BraveSoftware/Brave-Browser",
				".config/microsoft-edge", ".config/google-chrome-for-testing"},
			want: map[string]string{
				"chrome":             ".config/google-chrome",
				"chrome-beta":        ".config/google-chrome-beta",
				"chrome-canary":      ".config/google-chrome-unstable",
				"chromium":           ".config/chromium",
				"brave":              ".config/BraveSoftware/Brave-Browser",
				"edge":               ".config/microsoft-edge",
				"chrome-for-testing": ".config/google-chrome-for-testing",
			},
		},
		{
			name: "macOS: found by config dir",
			goos: "darwin",
			configDirs: []string{"Library/Application Support/Google/Chrome",
				"Library/Application Support/Google/Chrome Canary",
				"Library/Application Support/Microsoft Edge"},
			want: map[string]string{
				"chrome":        "Library/Application Support/Google/Chrome",
				"chrome-canary": "Library/Application Support/Google/Chrome Canary",
				"edge":          "Library/Application Support/Microsoft Edge",
			},
		},
		{
			name: "macOS: found by app bundle",
			goos: "darwin",
			execs: []string{
				"/Applications/Brave Browser.app/Contents/MacOS/Brave Browser",
				"/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
				"/Applications/Google Chrome Beta.app/Contents/MacOS/Google Chrome Beta",
			},
			want: map[string]string{
				"brave":              "Library/Application Support/BraveSoftware/Brave-Browser",
				"chrome-for-testing": "Library/Application Support/Google/Chrome for Testing",
				"chrome-beta":        "Library/Application Support/Google/Chrome Beta",
			},
		},
		{
			name:  "macOS: linux names mean nothing",
			goos:  "darwin",
			execs: []string{"google-chrome", "chromium"},
			want:  map[string]string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, tt.execs...)
			e.mkdir(t, tt.configDirs...)
			opts := e.opts(tt.goos)
			if tt.configHome != "" {
				opts.ConfigHome = e.path(tt.configHome)
			}

			r, err := Install(opts)
			require.NoError(t, err)

			got := map[string]string{}
			for _, target := range r.Browsers {
				assert.Equal(t, Written, target.Status)
				got[target.Browser] = target.Path
				assert.FileExists(t, target.Path)
			}
			want := map[string]string{}
			for id, dir := range tt.want {
				want[id] = hostFile(e.path(dir))
			}
			assert.Equal(t, want, got)
			assertProfile(t, opts.Home, r)
		})
	}
}

// assertProfile checks what every install does whatever it finds: register
// into the OpenChrome profile and extract the extension.
func assertProfile(t *testing.T, home ledger.Home, r *Report) {
	t.Helper()
	assert.Equal(t, hostFile(home.Profile()), r.Profile.Path)
	assertOurManifest(t, r.Profile.Path)
	assert.Equal(t, home.Extension(), r.ExtensionDir)
	assert.FileExists(t, filepath.Join(home.Extension(), "manifest.json"))
	assert.Equal(t, "pmdndpcaaogpfkegdbdkbpfpldaklhac", r.ExtensionID)
	assert.Equal(t, binary, r.Binary)
	assert.FileExists(t, home.InstallRecord())
}

func assertOurManifest(t *testing.T, path string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var m struct {
		Name           string   `json:"name"`
		Path           string   `json:"path"`
		AllowedOrigins []string `json:"allowed_origins"`
	}
	require.NoError(t, json.Unmarshal(raw, &m))
	assert.Equal(t, manifests.HostName, m.Name)
	assert.Equal(t, binary, m.Path)
	assert.Equal(t, []string{manifests.Origin()}, m.AllowedOrigins)
}

func TestInstallSelection(t *testing.T) {
	tests := []struct {
		name        string
		browser     string
		userDataDir string // relative to the user's home, made absolute unless it starts with "./"
		want        []Target
		wantErr     string
	}{
		{
			name:    "--browser registers even when not found",
			browser: "chrome-dev",
			want:    []Target{{Browser: "chrome-canary", Name: "Google Chrome Dev", Path: ".config/google-chrome-unstable"}},
		},
		{
			name:    "--browser unknown",
			browser: "firefox",
			wantErr: `unknown browser "firefox": use one of chrome, chrome-beta, chrome-canary, chrome-dev, chromium, brave, edge, chrome-for-testing`,
		},
		{
			name:        "--user-data-dir only",
			userDataDir: "work-profile",
			want:        []Target{{Name: "user data dir {home}/work-profile", Path: "work-profile"}},
		},
		{
			name:        "--user-data-dir with --browser",
			browser:     "brave",
			userDataDir: "brave-test",
			want:        []Target{{Browser: "brave", Name: "Brave ({home}/brave-test)", Path: "brave-test"}},
		},
		{
			name:        "--user-data-dir relative",
			userDataDir: "./rel",
			wantErr:     "is not absolute",
		},
		{
			name:        "--user-data-dir is the OpenChrome profile",
			userDataDir: ".openchrome/profile",
			want:        nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Chrome is installed, but an explicit choice overrides discovery.
			e := newEnv(t, "google-chrome")
			opts := e.opts("linux")
			opts.Browser = tt.browser
			if tt.userDataDir != "" {
				opts.UserDataDir = e.path(tt.userDataDir)
				if strings.HasPrefix(tt.userDataDir, "./") {
					opts.UserDataDir = tt.userDataDir
				}
			}

			r, err := Install(opts)
			if tt.wantErr != "" {
				assert.ErrorContains(t, err, tt.wantErr)
				assert.NoFileExists(t, opts.Home.InstallRecord(), "a refused install writes nothing")
				return
			}
			require.NoError(t, err)
			var want []Target
			for _, w := range tt.want {
				w.Name = strings.ReplaceAll(w.Name, "{home}", e.userHome)
				w.Path = hostFile(e.path(w.Path))
				w.Status = Written
				want = append(want, w)
			}
			if len(want) == 0 {
				assert.Empty(t, r.Browsers)
			} else {
				assert.Equal(t, want, r.Browsers)
			}
			assertProfile(t, opts.Home, r)
		})
	}
}

func TestInstallRefuses(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*Options)
		wantErr string
	}{
		{"relative binary", func(o *Options) { o.Binary = "bin/openchrome" }, "not absolute"},
		{"windows", func(o *Options) { o.GOOS = "windows" }, "windows is not supported"},
		{"no home", func(o *Options) { o.Home = "" }, "no OpenChrome home"},
		{"no user home", func(o *Options) { o.UserHome = "" }, "pass --user-data-dir"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			opts := e.opts("linux")
			tt.edit(&opts)
			_, err := Install(opts)
			assert.ErrorContains(t, err, tt.wantErr)
			assert.NoDirExists(t, e.path(".openchrome"))
		})
	}
}

func TestInstallIsIdempotent(t *testing.T) {
	e := newEnv(t, "chromium")
	e.mkdir(t, ".config/google-chrome")
	opts := e.opts("linux")

	first, err := Install(opts)
	require.NoError(t, err)
	assert.True(t, first.Changed())

	// Age every file, so a rewrite would show in its mtime.
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	before := snapshot(t, e.userHome, old)

	second, err := Install(opts)
	require.NoError(t, err)
	assert.False(t, second.Changed())
	assert.Equal(t, Unchanged, second.ExtensionStatus)
	assert.Equal(t, Unchanged, second.Profile.Status)
	for i := range first.Browsers {
		first.Browsers[i].Status = Unchanged
	}
	first.Profile.Status, first.ExtensionStatus = Unchanged, Unchanged
	assert.Equal(t, first, second, "same targets, nothing written")
	assert.Equal(t, before, snapshot(t, e.userHome, time.Time{}))
}

// fileState is what a rewrite would change.
type fileState struct {
	content string
	mtime   time.Time
}

// snapshot records every file under dir, first setting its mtime to touch
// when touch is not zero.
func snapshot(t *testing.T, dir string, touch time.Time) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !touch.IsZero() {
			require.NoError(t, os.Chtimes(p, touch, touch))
		}
		raw, err := os.ReadFile(p)
		require.NoError(t, err)
		info, err := os.Stat(p)
		require.NoError(t, err)
		out[p] = fileState{string(raw), info.ModTime()}
		return nil
	}))
	return out
}

func TestUninstallRemovesOnlyWhatInstallWrote(t *testing.T) {
	e := newEnv(t)
	e.mkdir(t, ".config/google-chrome", ".config/chromium")
	opts := e.opts("linux")
	home := opts.Home

	// A second install for another browser: the record is a union.
	_, err := Install(opts)
	require.NoError(t, err)
	edgeOpts := opts
	edgeOpts.Browser = "edge"
	_, err = Install(edgeOpts)
	require.NoError(t, err)

	chrome := hostFile(e.path(".config/google-chrome"))
	chromium := hostFile(e.path(".config/chromium"))
	edge := hostFile(e.path(".config/microsoft-edge"))
	profile := hostFile(home.Profile())

	// Things uninstall must leave alone.
	unrelated := filepath.Join(filepath.Dir(chrome), "com.example.other.json")
	require.NoError(t, os.WriteFile(unrelated, []byte(`{"name":"com.example.other"}`), 0o644))
	replaced := []byte(`{"name":"com.openchrome.host","path":"/home/dev/openchrome-dev"}`)
	require.NoError(t, os.WriteFile(chromium, replaced, 0o644))
	task := home.Path("tasks", "t1", "meta.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(task), 0o700))
	require.NoError(t, os.WriteFile(task, []byte("{}"), 0o600))
	cookies := filepath.Join(home.Profile(), "Default", "Cookies")
	require.NoError(t, os.MkdirAll(filepath.Dir(cookies), 0o700))
	require.NoError(t, os.WriteFile(cookies, []byte("x"), 0o600))

	r, err := Uninstall(opts)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{chrome, edge, profile, home.Extension(), home.InstallRecord()}, r.Removed)
	assert.Equal(t, []Kept{{Path: chromium, Reason: "changed since install"}}, r.Kept)

	for _, gone := range []string{chrome, edge, profile, home.Extension(), home.InstallRecord()} {
		assert.NoFileExists(t, gone)
		assert.NoDirExists(t, gone)
	}
	got, err := os.ReadFile(chromium)
	require.NoError(t, err)
	assert.Equal(t, replaced, got)
	for _, kept := range []string{unrelated, task, cookies} {
		assert.FileExists(t, kept)
	}

	again, err := Uninstall(opts)
	require.NoError(t, err)
	assert.True(t, again.NothingRecorded)
}

func TestUninstallKeepsAForeignExtensionDir(t *testing.T) {
	e := newEnv(t)
	opts := e.opts("linux")
	elsewhere := e.path("Documents")
	e.mkdir(t, "Documents")
	rec := &record{ExtensionDir: elsewhere}
	require.NoError(t, rec.write(opts.Home))

	r, err := Uninstall(opts)
	require.NoError(t, err)
	assert.Equal(t, []Kept{{Path: elsewhere, Reason: "not OpenChrome's extension folder"}}, r.Kept)
	assert.DirExists(t, elsewhere)
}

func TestUninstallDamagedRecord(t *testing.T) {
	e := newEnv(t)
	opts := e.opts("linux")
	require.NoError(t, ledger.WriteFile(opts.Home.InstallRecord(), []byte("{"), 0o600))
	_, err := Uninstall(opts)
	assert.ErrorContains(t, err, "remove it and run `openchrome install` again")
}

func TestReportPrint(t *testing.T) {
	e := newEnv(t)
	opts := e.opts("linux")
	r, err := Install(opts)
	require.NoError(t, err)

	var out strings.Builder
	require.NoError(t, r.Print(&out))
	for _, want := range []string{
		"OpenChrome is installed.",
		opts.Home.Extension(),
		"pmdndpcaaogpfkegdbdkbpfpldaklhac",
		hostFile(opts.Home.Profile()),
		"No Chrome, Chromium, Brave or Edge was found",
		"chrome://extensions",
		`"Load unpacked"`,
		"openchrome launch",
		"claude mcp add openchrome -- " + binary + " mcp",
	} {
		assert.Contains(t, out.String(), want)
	}

	out.Reset()
	u, err := Uninstall(opts)
	require.NoError(t, err)
	require.NoError(t, u.Print(&out))
	assert.Contains(t, out.String(), "Removed:\n")
	assert.Contains(t, out.String(), opts.Home.InstallRecord())
}

func TestMCPConfig(t *testing.T) {
	tests := []struct {
		name      string
		binary    string
		wantShell string
		wantTOML  string
	}{
		{"plain path", "/usr/local/bin/openchrome", "/usr/local/bin/openchrome", `"/usr/local/bin/openchrome"`},
		{"macOS path with a space", "/Users/a/Library/Application Support/oc/openchrome",
			"'/Users/a/Library/Application Support/oc/openchrome'", `"/Users/a/Library/Application Support/oc/openchrome"`},
		{"quote in path", `/opt/it's "here"/openchrome`, `'/opt/it'\''s "here"/openchrome'`, `"/opt/it's \"here\"/openchrome"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := MCPConfig(tt.binary)
			assert.Contains(t, out, "claude mcp add openchrome -- "+tt.wantShell+" mcp\n")
			assert.Contains(t, out, "[mcp_servers.openchrome]\n  command = "+tt.wantTOML+"\n  args = [\"mcp\"]\n")

			start, end := strings.Index(out, "{"), strings.LastIndex(out, "}")
			require.True(t, start >= 0 && end > start, out)
			var cfg struct {
				MCPServers map[string]struct {
					Command string   `json:"command"`
					Args    []string `json:"args"`
				} `json:"mcpServers"`
			}
			require.NoError(t, json.Unmarshal([]byte(out[start:end+1]), &cfg))
			assert.Equal(t, tt.binary, cfg.MCPServers["openchrome"].Command)
			assert.Equal(t, []string{"mcp"}, cfg.MCPServers["openchrome"].Args)
		})
	}
}
