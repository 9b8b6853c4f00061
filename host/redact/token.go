package redact

import "strings"

// hexSpans appends every word that is 32 or more hex digits (MD5 and
// longer) with both digits and letters in it: a run of digits alone is a
// number, not a key.
func hexSpans(s string, dst []span) []span {
	for a, b := range runs(s, isWordByte) {
		w := s[a:b]
		if len(w) >= 32 && allHex(w) && strings.ContainsAny(w, "0123456789") && strings.ContainsAny(w, "abcdefABCDEF") {
			dst = append(dst, span{a, b})
		}
	}
	return dst
}

func allHex(w string) bool {
	for i := range len(w) {
		if !isHexByte(w[i]) {
			return false
		}
	}
	return true
}

// base64Spans appends every run of the base64 and base64url alphabet, with
// its "=" padding, that [randomish] judges random once [trimPath] has taken
// off the path segments at its ends.
func base64Spans(s string, dst []span) []span {
	for a, b := range runs(s, isBase64Byte) {
		if b-a < 40 {
			continue
		}
		for n := 0; n < 2 && b < len(s) && s[b] == '='; n++ {
			b++
		}
		if a, b := trimPath(s, a, b); randomish(s[a:b]) {
			dst = append(dst, span{a, b})
		}
	}
	return dst
}

// randomish reports whether a base64-alphabet run looks like random bytes
// rather than words: it is 40 characters or more, mixes upper case, lower
// case and digits, has few separators (- _ + /, which in URL slugs and paths
// come every few letters), and most of it is not lower-case words (which
// camelCase identifiers and prose are made of; see [wordy]).
func randomish(t string) bool {
	t = strings.TrimRight(t, "=")
	var upper, lower, digit, sep int
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c >= 'a' && c <= 'z':
			lower++
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= '0' && c <= '9':
			digit++
		default:
			sep++
		}
	}
	return len(t) >= 40 && upper > 0 && lower > 0 && digit > 0 && sep*10 <= len(t) && wordy(t)*2 < len(t)
}

// wordy counts the letters of s that sit in runs of three or more lower-case
// letters. In random base64 about one character in seven does; in words and
// identifiers most do.
func wordy(s string) int {
	n, run := 0, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] >= 'a' && s[i] <= 'z' {
			run++
			continue
		}
		if run >= 3 {
			n += run
		}
		run = 0
	}
	return n
}

// trimPath narrows the base64 run s[a:b] by the path segments at either end
// of it. Standard base64 has "/" in its alphabet, so a URL path runs into a
// token after it ("example/reset/eyJ..."); a segment shorter than 8
// characters or made mostly of lower-case words is path, not base64.
func trimPath(s string, a, b int) (int, int) {
	for {
		i := strings.IndexByte(s[a:b], '/')
		if i < 0 || !pathSegment(s[a:a+i]) {
			break
		}
		a += i + 1
	}
	for a < b {
		i := strings.LastIndexByte(s[a:b], '/')
		if i < 0 || !pathSegment(s[a+i+1:b]) {
			break
		}
		b = a + i
	}
	return a, b
}

// pathSegment reports whether a "/"-separated piece of a base64 run is more
// likely a path segment than part of an encoded value.
func pathSegment(seg string) bool {
	return len(seg) < 8 || wordy(seg)*2 >= len(seg)
}
