package redact

import "iter"

// cardSpans appends to dst the card numbers in s: 13 to 19 digits, written
// together or in groups of 3 to 6 separated by single spaces or dashes, that
// start with 2 to 6 (the issuer ranges of Visa, Mastercard, Amex, Discover,
// JCB, Diners and UnionPay) and pass the Luhn check.
//
// Any 13-19 digit number passes Luhn one time in ten, so the first-digit rule
// does real work: it keeps millisecond and nanosecond Unix timestamps (which
// start with 1) and ISBNs (978/979) readable. Within a longer run of groups
// ("4111 1111 1111 1111 2024") each qualifying sub-run is masked, left to
// right, the longest from each start.
func cardSpans(s string, dst []span) []span {
	for a, b := range digitGroups(s) {
		groups := splitGroups(s, a, b)
		// A group glued to a letter ("id4111...") is part of a word, not a number.
		if a > 0 && isWordByte(s[a-1]) {
			groups = groups[1:]
		}
		if b < len(s) && isWordByte(s[b]) && len(groups) > 0 {
			groups = groups[:len(groups)-1]
		}
		for i := 0; i < len(groups); {
			best := -1
			if c := s[groups[i].start]; c >= '2' && c <= '6' {
				digits := 0
				for j := i; j < len(groups); j++ {
					if j > i && (!cardGroup(groups[i]) || !cardGroup(groups[j])) {
						break
					}
					digits += groups[j].end - groups[j].start
					if digits > 19 {
						break
					}
					if digits >= 13 && luhn(s, groups[i:j+1]) {
						best = j
					}
				}
			}
			if best < 0 {
				i++
				continue
			}
			dst = append(dst, span{groups[i].start, groups[best].end})
			i = best + 1
		}
	}
	return dst
}

// digitGroups yields every run of digits joined by single spaces or dashes,
// the candidates for card numbers.
func digitGroups(s string) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for i := 0; i < len(s); {
			if !isDigit(s[i]) {
				i++
				continue
			}
			j := i + 1
			for j < len(s) {
				if isDigit(s[j]) {
					j++
				} else if (s[j] == ' ' || s[j] == '-') && j+1 < len(s) && isDigit(s[j+1]) {
					j += 2
				} else {
					break
				}
			}
			if !yield(i, j) {
				return
			}
			i = j
		}
	}
}

// splitGroups returns the digit groups of s[start:end] as spans.
func splitGroups(s string, start, end int) []span {
	var out []span
	g := start
	for i := start; i <= end; i++ {
		if i == end || s[i] == ' ' || s[i] == '-' {
			out = append(out, span{g, i})
			g = i + 1
		}
	}
	return out
}

// cardGroup reports whether a group has the length of a printed card group.
func cardGroup(g span) bool { n := g.end - g.start; return n >= 3 && n <= 6 }

// luhn reports whether the digits of groups pass the Luhn checksum.
func luhn(s string, groups []span) bool {
	sum, double := 0, false
	for gi := len(groups) - 1; gi >= 0; gi-- {
		for i := groups[gi].end - 1; i >= groups[gi].start; i-- {
			d := int(s[i] - '0')
			if double {
				if d *= 2; d > 9 {
					d -= 9
				}
			}
			sum += d
			double = !double
		}
	}
	return sum%10 == 0
}
