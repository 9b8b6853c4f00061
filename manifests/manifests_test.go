package manifests

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExtensionID(t *testing.T) {
	assert.Equal(t, "pmdndpcaaogpfkegdbdkbpfpldaklhac", ExtensionID())
	assert.Equal(t, "chrome-extension://pmdndpcaaogpfkegdbdkbpfpldaklhac/", Origin())
}

// The extension's manifest carries the key Chrome hashes; if it drifts from the
// PEM, the host manifest would allow an origin no extension has.
func TestManifestKeyMatchesPEM(t *testing.T) {
	raw, err := os.ReadFile("../extension/manifest.json")
	require.NoError(t, err)
	var m struct {
		Key string `json:"key"`
	}
	require.NoError(t, json.Unmarshal(raw, &m))
	der, err := base64.StdEncoding.DecodeString(m.Key)
	require.NoError(t, err)
	assert.Equal(t, PublicKey(), der)
}

func TestHostManifest(t *testing.T) {
	tests := []struct {
		name    string
		path    string
		wantErr string
	}{
		{name: "absolute", path: "/usr/local/bin/openchrome"},
		{name: "path with spaces and quotes", path: `/Users/a b/"odd"\dir/openchrome`},
		{name: "relative", path: "bin/openchrome", wantErr: "not absolute"},
		{name: "bare name", path: "openchrome", wantErr: "not absolute"},
		{name: "empty", path: "", wantErr: "not absolute"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := HostManifest(tt.path)
			if tt.wantErr != "" {
				assert.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			var got map[string]any
			require.NoError(t, json.Unmarshal(out, &got), "%s", out)
			assert.Equal(t, map[string]any{
				"name":            "com.openchrome.host",
				"description":     "OpenChrome native host",
				"path":            tt.path,
				"type":            "stdio",
				"allowed_origins": []any{"chrome-extension://pmdndpcaaogpfkegdbdkbpfpldaklhac/"},
			}, got)
		})
	}
}
