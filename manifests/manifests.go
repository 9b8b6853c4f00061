// Package manifests holds what `openchrome install` renders: the extension's
// public key, which pins the extension ID, and the native-messaging host
// manifest that tells Chrome which binary may talk to that extension.
//
// Both are embedded so the one binary can install itself; the ID is derived
// from the key rather than written down, so the two can never disagree.
package manifests

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"path/filepath"
	"text/template"
)

// HostName is the native-messaging host name the extension passes to
// chrome.runtime.connectNative, and the base name of the host manifest file.
const HostName = "com.openchrome.host"

// publicKeyPEM is the same key as the "key" field of extension/manifest.json
// (manifests_test.go checks that they match).
//
//go:embed extension-key.pub
var publicKeyPEM []byte

//go:embed host.json.tmpl
var hostTemplate string

// hostTmpl is parsed once; it is never modified after init.
var hostTmpl = template.Must(template.New("host.json").
	Funcs(template.FuncMap{"json": jsonString}).
	Parse(hostTemplate))

// PublicKey returns the extension's public key as DER (SubjectPublicKeyInfo),
// the bytes Chrome hashes to get the extension ID.
func PublicKey() []byte {
	block, _ := pem.Decode(publicKeyPEM)
	if block == nil || block.Type != "PUBLIC KEY" {
		// The key is compiled in, so this is a build defect, not a runtime condition.
		panic("manifests: extension-key.pub holds no PUBLIC KEY block")
	}
	return block.Bytes
}

// ExtensionID returns the extension's ID as Chrome computes it from the pinned
// key: the first 128 bits of sha256(DER key) in hex, with the digits 0-f
// written as the letters a-p.
func ExtensionID() string {
	sum := sha256.Sum256(PublicKey())
	id := make([]byte, 0, 32)
	for _, b := range sum[:16] {
		id = append(id, 'a'+b>>4, 'a'+b&0x0f)
	}
	return string(id)
}

// Origin returns the extension's origin, "chrome-extension://<id>/": the only
// entry of the host manifest's allowed_origins and the argument Chrome passes
// to the host it starts.
func Origin() string {
	return "chrome-extension://" + ExtensionID() + "/"
}

// HostManifest renders the native-messaging host manifest for the binary at
// binaryPath. Chrome on Linux and macOS requires an absolute path there, so a
// relative one is refused rather than written into a manifest that silently
// fails to start the host.
func HostManifest(binaryPath string) ([]byte, error) {
	if !filepath.IsAbs(binaryPath) {
		return nil, fmt.Errorf("manifests: host binary path %q is not absolute: pass the full path to openchrome", binaryPath)
	}
	var buf bytes.Buffer
	err := hostTmpl.Execute(&buf, struct{ Name, Path, Origin string }{HostName, binaryPath, Origin()})
	if err != nil {
		return nil, fmt.Errorf("manifests: render host manifest: %w", err)
	}
	return buf.Bytes(), nil
}

// jsonString quotes s as a JSON string, so a path with quotes or backslashes
// still yields a valid manifest.
func jsonString(s string) (string, error) {
	b, err := json.Marshal(s)
	return string(b), err
}
