package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/host/browser"
	"github.com/openchrome/openchrome/ledger"
	"github.com/openchrome/openchrome/protocol"
)

func TestABundleKeepsWhatItCouldTakeOfAHiddenTab(t *testing.T) {
	// Chrome draws nothing of a tab behind the person's own: the bundle
	// keeps the tree and says why it has no screenshot.
	home := ledger.Home(t.TempDir())
	shotFails := func(err *protocol.Error) *Engine {
		e, _ := newEngineWith(t, Options{Home: home}, protocol.Version, tabs([]browser.Tab{{TabID: 7, URL: "http://127.0.0.1/login"}},
			func(cmd protocol.Command) (any, *protocol.Error) {
				if cmd.Action == "page.screenshot" {
					return nil, err
				}
				return pageBrowser(cmd)
			}))
		return e
	}
	const args = `{"tabId":7,"include":["screenshot","tree"]}`
	r := run(t, shotFails(protocol.Errorf(protocol.CodeConflict, "the tab is hidden")), "oc_evidence_bundle", args)
	require.False(t, r.IsError, textOf(t, r))
	var m evidenceManifest
	require.NoError(t, json.Unmarshal([]byte(textOf(t, r)), &m))
	require.Len(t, m.Parts, 1)
	assert.Equal(t, "tree", m.Parts[0].Name)
	assert.Equal(t, []evidenceMissing{{Name: "screenshot", Why: "the tab is hidden"}}, m.Missing)
	b, err := os.ReadFile(filepath.Join(m.Dir, "manifest.json"))
	require.NoError(t, err)
	assert.Contains(t, string(b), `"missing"`, "the manifest on disk says it too")

	// Any other failure still fails the bundle.
	wantError(t, run(t, shotFails(protocol.Errorf(protocol.CodeInternal, "broken")), "oc_evidence_bundle", args), protocol.CodeInternal)
}
