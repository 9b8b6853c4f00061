package redact

import "strings"

// URLsIn returns s with r's known secrets and the secret parts of every URL
// in it masked, and nothing else: for text that says what a page said (a
// crawl's Markdown, a report), which should read as it did, less what must
// not be kept. [Text] would mask more than secrets there (long hex, words
// beside "token:").
func (r *Redactor) URLsIn(s string) string {
	s = r.known(s)
	return mask(s, urlSpansIn(s, nil))
}

// File is [Redactor.File] with no known secrets: the secret parts of URLs
// only. For records whose fields must keep their shape (a ledger's
// meta.json, whose times a known secret as short as "2026" could cut).
func File(b []byte) []byte { return (*Redactor)(nil).File(b) }

// File redacts the bytes of a text file the daemon is about to write: JSON,
// JSON lines, HTML or Markdown. It masks what [Redactor.URLsIn] masks; in
// JSON, an "&" that an encoder escaped as \u0026 is read as the "&" it is,
// so a URL's later parameters are not hidden behind it. Images and PDFs are
// not text: they do not go through File.
func (r *Redactor) File(b []byte) []byte {
	s := unescapeAmp(string(b))
	return []byte(r.URLsIn(s))
}

// unescapeAmp turns the JSON escape \u0026 into "&" wherever it is one, at
// any depth of JSON inside JSON strings: a run of 1, 2, 4, 8... backslashes
// before it (each level of quoting doubles them). Since "&" needs no escape
// at any level, the JSON means the same. Other runs hold a literal
// backslash, and stay.
func unescapeAmp(s string) string {
	const esc = `u0026`
	if !strings.Contains(s, `\`+esc) {
		return s
	}
	var b strings.Builder
	for {
		k := strings.Index(s, `\`+esc)
		if k < 0 {
			b.WriteString(s)
			return b.String()
		}
		start := k
		for start > 0 && s[start-1] == '\\' {
			start--
		}
		n := k + 1 - start // the run of backslashes, the escape's own included
		b.WriteString(s[:start])
		if n&(n-1) == 0 {
			b.WriteByte('&')
		} else {
			b.WriteString(s[start : k+1+len(esc)])
		}
		s = s[k+1+len(esc):]
	}
}
