package redact

import "strings"

// pairSpans appends the value of every key=value or key: value pair whose
// key names a secret (see [isSecretKey]). It looks for the separators (=, :,
// and the :=, =>, == of code) and reads the key backwards from each, across
// a closing quote ("password": ...) and spaces; the value is measured by
// [pairValue].
func pairSpans(s string, dst []span) []span {
	for from := 0; ; {
		k := strings.IndexAny(s[from:], ":=")
		if k < 0 {
			return dst
		}
		sep := from + k
		end := sep + 1 // after the separator
		switch {
		case s[sep] == ':' && end < len(s) && s[end] == '=':
			end++
		case s[sep] == '=':
			for end < len(s) && end-sep < 3 && s[end] == '=' {
				end++
			}
			if end < len(s) && s[end] == '>' && end == sep+1 {
				end++
			}
		}
		from = end
		// The key: back over spaces, a quote (perhaps escaped), then key bytes.
		kb := sep
		for kb > 0 && (s[kb-1] == ' ' || s[kb-1] == '\t') {
			kb--
		}
		if kb > 0 && (s[kb-1] == '"' || s[kb-1] == '\'') {
			kb--
			if kb > 0 && s[kb-1] == '\\' {
				kb--
			}
		}
		ka := kb
		for ka > 0 && isKeyByte(s[ka-1]) {
			ka--
		}
		// It starts at the first letter or _ that starts a word.
		for ka < kb && !((isLetter(s[ka]) || s[ka] == '_') && (ka == 0 || !isWordByte(s[ka-1]))) {
			ka++
		}
		if ka == kb || !isSecretKey(s[ka:kb]) {
			continue
		}
		v := end
		for v < len(s) && (s[v] == ' ' || s[v] == '\t') {
			v++
		}
		if sp, ok := pairValue(s, v, wholeLine(s[ka:kb], s[sep:end])); ok {
			dst = append(dst, sp)
		}
	}
}

// wholeLine reports whether a pair's value runs to the end of the line
// rather than to the next space: true for HTTP headers whose values have
// spaces and semicolons in them ("Authorization: Bearer x",
// "Cookie: a=1; b=2") when written as a header, with a colon.
func wholeLine(key, sep string) bool {
	if !strings.Contains(sep, ":") {
		return false
	}
	ws := words(key)
	if len(ws) == 0 {
		return false
	}
	switch ws[len(ws)-1] {
	case "authorization", "cookie":
		return true
	}
	return false
}

// pairValue measures the value that starts at i, after a pair's separator: a
// quoted string (also \"escaped\" inside JSON text) up to its closing quote,
// the rest of the line when toLineEnd, or else a run up to the next space or
// delimiter. An empty value, or one that is already [Mask], is not reported.
func pairValue(s string, i int, toLineEnd bool) (span, bool) {
	start, end := i, i
	rest := s[i:]
	switch {
	case strings.HasPrefix(rest, `\"`) || strings.HasPrefix(rest, `\'`):
		start = i + 2
		if j := strings.Index(s[start:], rest[:2]); j >= 0 {
			end = start + j
		} else {
			end = lineEnd(s, start)
		}
	case rest != "" && strings.IndexByte("\"'`", rest[0]) >= 0:
		start = i + 1
		end = lineEnd(s, start)
		for k := start; k < end; k++ {
			if s[k] == '\\' {
				k++
				continue
			}
			if s[k] == rest[0] {
				end = k
				break
			}
		}
	case toLineEnd:
		end = len(strings.TrimRight(s[:lineEnd(s, start)], " \t"))
	default:
		for end < len(s) {
			if strings.HasPrefix(s[end:], Mask) {
				end += len(Mask) // part of the value: masking it again must cover it
				continue
			}
			if strings.IndexByte(" \t\r\n\f\v\"'`&,;<>)]}", s[end]) >= 0 {
				break
			}
			end++
		}
	}
	if end <= start || s[start:end] == Mask {
		return span{}, false
	}
	return span{start, end}, true
}

// lineEnd is the index of the first line break at or after i, or len(s).
func lineEnd(s string, i int) int {
	if j := strings.IndexAny(s[i:], "\r\n"); j >= 0 {
		return i + j
	}
	return len(s)
}
