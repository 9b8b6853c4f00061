package extension

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFilesHoldsTheManifest(t *testing.T) {
	raw, err := fs.ReadFile(Files(), "manifest.json")
	require.NoError(t, err)
	var m struct {
		ManifestVersion int    `json:"manifest_version"`
		Key             string `json:"key"`
	}
	require.NoError(t, json.Unmarshal(raw, &m))
	assert.Equal(t, 3, m.ManifestVersion)
	assert.NotEmpty(t, m.Key, "the pinned key keeps the extension ID stable")

	require.NoError(t, fstest.TestFS(Files(), "manifest.json", "service-worker.js"))
	assert.NoError(t, fs.WalkDir(Files(), ".", func(name string, _ fs.DirEntry, err error) error {
		assert.False(t, excluded(name), "%s should not be embedded", name)
		return err
	}))
}

// dev is an extension source folder as a developer has it: runtime files
// mixed with tests and tooling.
var dev = fstest.MapFS{
	"manifest.json":                       {Data: []byte(`{"manifest_version":3}`)},
	"service-worker.js":                   {Data: []byte("import './sw/port.js';")},
	"sw/port.js":                          {Data: []byte("export {};")},
	"lib/frame.js":                        {Data: []byte("export {};")},
	"lib/frame.test.js":                   {Data: []byte("test")},
	"lib/a.test.js":                       {Data: []byte("test")},
	"lib/b.test.js":                       {Data: []byte("test")},
	"package.json":                        {Data: []byte("{}")},
	"package-lock.json":                   {Data: []byte("{}")},
	"tsconfig.json":                       {Data: []byte("{}")},
	"node_modules/@types/chrome/index.js": {Data: []byte("x")},
	"lib/node_modules/x.js":               {Data: []byte("x")},
	"lib/testdata.js":                     {Data: []byte("import 'node:fs';")},
	"testdata/golden.json":                {Data: []byte("{}")},
}

func TestRuntimeFSFilters(t *testing.T) {
	fsys := runtimeFS{dev}
	// TestFS checks Open, ReadDir (both kinds, paged too), ReadFile and Stat
	// agree, and that exactly these files are visible.
	require.NoError(t, fstest.TestFS(fsys, "manifest.json", "service-worker.js", "sw/port.js", "lib/frame.js"))

	tests := []struct {
		name string
		hide bool
	}{
		{"manifest.json", false},
		{"lib/frame.js", false},
		{"lib/frame.test.js", true},
		{"package.json", true},
		{"package-lock.json", true},
		{"tsconfig.json", true},
		{"node_modules", true},
		{"node_modules/@types/chrome/index.js", true},
		{"lib/node_modules/x.js", true},
		{"lib/testdata.js", true},
		{"testdata/golden.json", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fs.Stat(fsys, tt.name)
			if tt.hide {
				assert.ErrorIs(t, err, fs.ErrNotExist)
			} else {
				assert.NoError(t, err)
			}
		})
	}
}

func TestWriteToFreshDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "extension")
	changed, err := WriteTo(dir)
	require.NoError(t, err)
	assert.True(t, changed)

	var want, got struct {
		Version string `json:"version"`
		Key     string `json:"key"`
	}
	raw, err := fs.ReadFile(Files(), "manifest.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &want))
	raw, err = os.ReadFile(filepath.Join(dir, "manifest.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &got))
	assert.Equal(t, want.Key, got.Key)
	version, err := Version()
	require.NoError(t, err)
	assert.Equal(t, version, got.Version, "the written manifest carries the build")
	assert.Regexp(t, `^`+regexp.QuoteMeta(want.Version)+`\.[0-9]+$`, got.Version)
	assert.Equal(t, want.Version, Release(got.Version))
}

// Chrome runs an extension's old service worker until its version changes:
// a build whose files differ must carry another version.
func TestTheVersionChangesWithTheFiles(t *testing.T) {
	written := func(fsys fs.FS) string {
		dir := t.TempDir()
		_, err := writeFS(fsys, dir)
		require.NoError(t, err)
		raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
		require.NoError(t, err)
		var m struct {
			Version string `json:"version"`
		}
		require.NoError(t, json.Unmarshal(raw, &m))
		return m.Version
	}
	base := fstest.MapFS{
		"manifest.json":     {Data: []byte(`{"manifest_version": 3, "version": "0.2.0"}`)},
		"service-worker.js": {Data: []byte("export const a = 1;")},
	}
	changed := fstest.MapFS{
		"manifest.json":     base["manifest.json"],
		"service-worker.js": {Data: []byte("export const a = 2;")},
	}
	first := written(base)
	assert.Regexp(t, `^0\.2\.0\.[0-9]{1,5}$`, first)
	dir := t.TempDir()
	_, err := writeFS(base, dir)
	require.NoError(t, err)
	worker, err := os.ReadFile(filepath.Join(dir, "service-worker.js"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(worker), "export const a = 1;\n"))
	assert.Contains(t, string(worker), "\nstarted('"+first+"')",
		"the worker's script differs too (Chrome compares it, not its modules), and says its build")
	assert.Equal(t, first, written(base), "the same files, the same version")
	assert.NotEqual(t, first, written(changed))
	assert.Equal(t, "0.2.0", Release(first))
}

func TestStamp(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"manifest_version": 3, "version": "0.1.0", "name": "x"}`, `{"manifest_version": 3, "version": "0.1.0.42", "name": "x"}`},
		{`{"version":"2"}`, `{"version":"2.42"}`},
		{`{"version": "1.2.3.4"}`, `{"version": "1.2.3.4"}`},
		{`{"manifest_version": 3}`, `{"manifest_version": 3}`},
	} {
		assert.Equal(t, tc.want, string(stamp([]byte(tc.in), 42)), tc.in)
	}
	assert.Equal(t, "1.2.3", Release("1.2.3.4"))
	assert.Equal(t, "1.2", Release("1.2"))
}

func TestWriteFSIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	changed, err := writeFS(runtimeFS{dev}, dir)
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, []string{"lib/frame.js", "manifest.json", "service-worker.js", "sw/port.js"}, tree(t, dir))

	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	port := filepath.Join(dir, "sw", "port.js")
	require.NoError(t, os.Chtimes(port, old, old))

	changed, err = writeFS(runtimeFS{dev}, dir)
	require.NoError(t, err)
	assert.False(t, changed)
	info, err := os.Stat(port)
	require.NoError(t, err)
	assert.Equal(t, old, info.ModTime(), "an unchanged file is not rewritten")
}

func TestWriteFSUpgrade(t *testing.T) {
	dir := t.TempDir()
	_, err := writeFS(runtimeFS{dev}, dir)
	require.NoError(t, err)

	next := fstest.MapFS{
		"manifest.json":     {Data: []byte(`{"manifest_version":3,"version":"0.2.0"}`)},
		"service-worker.js": {Data: []byte("import './sw/router.js';")},
		"sw/router.js":      {Data: []byte("export {};")},
		"lib":               {Data: []byte("lib is a file now")},
	}
	changed, err := writeFS(next, dir)
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, []string{"lib", "manifest.json", "service-worker.js", "sw/router.js"}, tree(t, dir),
		"sw/port.js and lib/ are gone")
	got, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	require.NoError(t, err)
	assert.Contains(t, string(got), "0.2.0")
}

func TestWriteFSRefusesForeignDir(t *testing.T) {
	dir := t.TempDir()
	precious := filepath.Join(dir, "thesis.tex")
	require.NoError(t, os.WriteFile(precious, []byte("years of work"), 0o600))

	_, err := writeFS(runtimeFS{dev}, dir)
	assert.ErrorContains(t, err, "not an extension folder")
	assert.FileExists(t, precious)
}

// tree lists the regular files under dir as slash paths.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		files = append(files, filepath.ToSlash(rel))
		return err
	}))
	return files
}

// TestFilesAreSelfContained guards the go:embed list: every file the manifest
// names and every module a shipped script imports must be shipped too, or the
// extracted extension fails to load. When it fails, add the folder to the
// go:embed line in extension.go.
func TestFilesAreSelfContained(t *testing.T) {
	fsys := Files()
	raw, err := fs.ReadFile(fsys, "manifest.json")
	require.NoError(t, err)
	var manifest any
	require.NoError(t, json.Unmarshal(raw, &manifest))
	refs := map[string]string{} // referenced file -> who references it
	for _, p := range manifestPaths(manifest) {
		refs[p] = "manifest.json"
	}

	importRE := regexp.MustCompile(`(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}/[^'"]+)['"]`)
	srcRE := regexp.MustCompile(`\b(?:src|href)="([^"#:]+)"`)
	require.NoError(t, fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		var re *regexp.Regexp
		switch path.Ext(name) {
		case ".js":
			re = importRE
		case ".html":
			re = srcRE
		default:
			return nil
		}
		body, err := fs.ReadFile(fsys, name)
		require.NoError(t, err)
		for _, m := range re.FindAllStringSubmatch(string(body), -1) {
			ref := m[1]
			if strings.HasPrefix(ref, "/") {
				refs[strings.TrimPrefix(ref, "/")] = name
			} else {
				refs[path.Join(path.Dir(name), ref)] = name
			}
		}
		return nil
	}))
	require.NotEmpty(t, refs)
	for ref, from := range refs {
		_, err := fs.Stat(fsys, ref)
		assert.NoError(t, err, "%s references %s, which is not embedded", from, ref)
	}
}

// manifestPaths returns the string values in a manifest that name a file of
// the extension, e.g. background.service_worker or side_panel.default_path.
func manifestPaths(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			out = append(out, manifestPaths(x)...)
		}
	case []any:
		for _, x := range v {
			out = append(out, manifestPaths(x)...)
		}
	case string:
		if regexp.MustCompile(`^[\w./-]+\.(js|mjs|html|css|png|svg|json)$`).MatchString(v) {
			out = append(out, strings.TrimPrefix(v, "/"))
		}
	}
	return out
}
