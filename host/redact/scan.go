package redact

import "iter"

// Most patterns here are hand-written scanners over byte classes rather
// than regexps. A regexp that may start at every word (a key=value pair, a
// base64 run) runs in Go's NFA on inputs of more than a few kilobytes, at
// about 2 MB/s for the set of them, and a page snapshot or console dump is
// easily 100 KB; each scanner is one linear pass. Regexps remain for the
// shapes that begin with a literal (eyJ, sk-, ghp_, AKIA), which run only
// when the literal is there.

// runs yields the start and end of every maximal run of bytes of s for
// which in is true.
func runs(s string, in func(byte) bool) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for i := 0; i < len(s); {
			if !in(s[i]) {
				i++
				continue
			}
			j := i + 1
			for j < len(s) && in(s[j]) {
				j++
			}
			if !yield(i, j) {
				return
			}
			i = j
		}
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHexByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isBase64Byte(c byte) bool {
	return isWordByte(c) || c == '+' || c == '/' || c == '-'
}

func isKeyByte(c byte) bool { return isWordByte(c) || c == '.' || c == '-' }
