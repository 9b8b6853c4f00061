package redact

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/openchrome/openchrome/protocol"
)

// Limits of an [Args] summary below its total size. They keep one long
// field from crowding out the rest of the summary.
const (
	defaultArgsMax = 2048 // bytes; used when Args is given max <= 0
	argsString     = 200  // bytes of a string value
	argsItems      = 8    // elements of an array
	argsKeys       = 32   // keys of an object
	argsDepth      = 6    // nesting of objects and arrays
)

// Args returns a one-line, redacted summary of a JSON value (a tool's
// arguments) of at most max bytes; max <= 0 means 2048.
//
// The summary is compact JSON as far as it goes: keys keep their order, the
// value of a key that names a secret (password, api_key, authToken, cookie,
// ...) is [Mask] whatever its type, strings pass through [URL] when they look
// like one and through [Text] otherwise, and numbers through [Text] (a card
// number is a number). Long strings end in "…(+N bytes)", long arrays and
// objects in "…+N more", deep nesting shows as {…} or […], and a summary
// over max is cut on a UTF-8 boundary and ends in "…". Empty input gives "";
// input that is not JSON gives a note of its size and nothing of its
// content, since without its structure its secrets cannot be found.
func Args(raw json.RawMessage, max int) string { return (*Redactor)(nil).Args(raw, max) }

// Args is [Args] plus r's known secrets.
func (r *Redactor) Args(raw json.RawMessage, max int) string {
	if max <= 0 {
		max = defaultArgsMax
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	if !json.Valid(raw) {
		return cut(fmt.Sprintf("(invalid JSON, %d bytes)", len(raw)), max)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	w := argsWriter{r: r, max: max}
	if err := w.value(dec, 0); err != nil && !errors.Is(err, errFull) {
		return cut(fmt.Sprintf("(invalid JSON, %d bytes)", len(raw)), max)
	}
	return cut(w.b.String(), max)
}

// errFull stops the walk once the summary is longer than it may be.
var errFull = errors.New("redact: summary full")

// argsWriter writes the summary of one JSON value.
type argsWriter struct {
	r   *Redactor
	max int
	b   strings.Builder
}

func (w *argsWriter) value(dec *json.Decoder, depth int) error {
	if w.b.Len() > w.max {
		return errFull
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= argsDepth {
			if t == '{' {
				w.b.WriteString("{…}")
			} else {
				w.b.WriteString("[…]")
			}
			return skipRest(dec)
		}
		if t == '{' {
			return w.object(dec, depth+1)
		}
		return w.array(dec, depth+1)
	case string:
		w.str(w.r.value(t))
	case json.Number:
		if n := string(t); w.r.Text(n) == n {
			w.b.WriteString(n)
		} else {
			w.quote(Mask)
		}
	case bool:
		fmt.Fprint(&w.b, t)
	case nil:
		w.b.WriteString("null")
	}
	return nil
}

func (w *argsWriter) object(dec *json.Decoder, depth int) error {
	w.b.WriteByte('{')
	n := 0
	for ; dec.More(); n++ {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if n >= argsKeys {
			if err := skipValue(dec); err != nil {
				return err
			}
			continue
		}
		if n > 0 {
			w.b.WriteByte(',')
		}
		w.quote(w.r.Text(key))
		w.b.WriteByte(':')
		if isSecretKey(key) {
			w.quote(Mask)
			if err := skipValue(dec); err != nil {
				return err
			}
			continue
		}
		if err := w.value(dec, depth); err != nil {
			return err
		}
	}
	if n > argsKeys {
		fmt.Fprintf(&w.b, ",…+%d more", n-argsKeys)
	}
	w.b.WriteByte('}')
	_, err := dec.Token()
	return err
}

func (w *argsWriter) array(dec *json.Decoder, depth int) error {
	w.b.WriteByte('[')
	n := 0
	for ; dec.More(); n++ {
		if n >= argsItems {
			if err := skipValue(dec); err != nil {
				return err
			}
			continue
		}
		if n > 0 {
			w.b.WriteByte(',')
		}
		if err := w.value(dec, depth); err != nil {
			return err
		}
	}
	if n > argsItems {
		fmt.Fprintf(&w.b, ",…+%d more", n-argsItems)
	}
	w.b.WriteByte(']')
	_, err := dec.Token()
	return err
}

// str writes an already redacted string, shortened to argsString bytes.
// Shortening comes after redaction: cutting first could leave half a token
// that no pattern recognises.
func (w *argsWriter) str(s string) {
	if len(s) > argsString {
		k := runeCut(s, argsString)
		s = fmt.Sprintf("%s…(+%d bytes)", s[:k], len(s)-k)
	}
	w.quote(s)
}

// quote writes s as a JSON string, without the HTML escaping of
// json.Marshal that would make "<" unreadable.
func (w *argsWriter) quote(s string) {
	b, _ := protocol.Marshal(s) // a string always encodes
	w.b.Write(b)
}

// skipValue consumes the next value, however deep.
func skipValue(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if _, ok := tok.(json.Delim); ok {
		return skipRest(dec)
	}
	return nil
}

// skipRest consumes tokens up to the close of the object or array just
// opened.
func skipRest(dec *json.Decoder) error {
	for depth := 1; depth > 0; {
		tok, err := dec.Token()
		if err == io.EOF {
			return io.ErrUnexpectedEOF
		}
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return nil
}

// cut bounds s to max bytes, ending in "…" when it had to cut, and never
// splits a UTF-8 sequence. Below len("…") there is no room for the marker
// and s is only cut.
func cut(s string, max int) string {
	const marker = "…"
	if len(s) <= max {
		return s
	}
	if max < len(marker) {
		return s[:runeCut(s, max)]
	}
	return s[:runeCut(s, max-len(marker))] + marker
}

// runeCut returns the largest n <= max such that s[:n] does not end inside
// a UTF-8 sequence.
func runeCut(s string, max int) int {
	n := min(max, len(s))
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}
