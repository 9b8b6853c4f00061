package redact

import (
	"slices"
	"strings"
)

// Mask replaces every secret this package finds. It is one fixed string, so
// readers (and tests) can tell a masked value from a real one, and so that
// redacting already-redacted text changes nothing.
const Mask = "[redacted]"

// A span is a byte range [start, end) of a string that holds a secret.
//
// Every finder in this package reports spans instead of rewriting text, and
// [mask] applies them all at once. Overlapping finds (a JWT inside a
// password=... pair, two known secrets sharing characters) then merge into a
// single mask instead of leaving fragments of one around the mask of another.
type span struct{ start, end int }

// mask returns s with every span replaced by [Mask]; overlapping and touching
// spans become one mask.
func mask(s string, spans []span) string {
	if len(spans) == 0 {
		return s
	}
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for i := 0; i < len(spans); {
		cur := spans[i]
		for i++; i < len(spans) && spans[i].start <= cur.end; i++ {
			cur.end = max(cur.end, spans[i].end)
		}
		if cur.end <= cur.start {
			continue
		}
		b.WriteString(s[last:cur.start])
		b.WriteString(Mask)
		last = cur.end
	}
	b.WriteString(s[last:])
	return b.String()
}
