package protocol

import (
	"bytes"
	"encoding/json"
)

// Marshal encodes v as JSON the way every frame and result is written:
// without encoding/json's HTML escaping, so that a page's "<h1>" reaches an
// agent as "<h1>", not "\u003ch1\u003e" (which costs tokens and reads
// badly). Frames never end up inside HTML.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
