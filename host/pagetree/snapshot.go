package pagetree

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/openchrome/openchrome/protocol"
)

// Kept is how many reads a [Store] keeps for cursors and diffs; a cursor
// into one that has been dropped asks for a fresh read.
const Kept = 32

// textMark ends the header of a text-mode read, which diffs skip.
const textMark = " mode=text"

// Snapshot is one read of a tab, as text lines.
type Snapshot struct {
	ID     string // s1, s2, ...: what cursors name
	Tab    int
	Header string
	Lines  []string
}

// Store keeps the last reads of every tab. Its zero value is ready to use
// and safe for concurrent use.
type Store struct {
	mu    sync.Mutex // guards the fields below
	seq   int
	order []*Snapshot // oldest first
}

// Add keeps a tree read and returns it with its id.
func (s *Store) Add(tab int, header string, lines []string) *Snapshot {
	lines = splitLong(lines, LongLine)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	snap := &Snapshot{ID: "s" + strconv.Itoa(s.seq), Tab: tab, Header: header, Lines: lines}
	s.order = append(s.order, snap)
	if len(s.order) > Kept {
		s.order = s.order[len(s.order)-Kept:]
	}
	return snap
}

// AddText keeps a text-mode read (Markdown); [Store.Last] never returns one.
func (s *Store) AddText(tab int, header string, lines []string) *Snapshot {
	return s.Add(tab, header+textMark, lines)
}

// Get returns the read with id, or nil once it has been dropped.
func (s *Store) Get(id string) *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, snap := range s.order {
		if snap.ID == id {
			return snap
		}
	}
	return nil
}

// Last returns the tab's newest tree read, or nil.
func (s *Store) Last(tab int) *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.order) - 1; i >= 0; i-- {
		if snap := s.order[i]; snap.Tab == tab && !strings.HasSuffix(snap.Header, textMark) {
			return snap
		}
	}
	return nil
}

// Written returns the role and name the tab's newest kept read that wrote
// ref gave its element ("button", "Alpha"; a heading's role is "heading"),
// or ok false when none of them did.
func (s *Store) Written(tab int, ref string) (role, name string, ok bool) {
	n, err := ParseRef(ref)
	if err != nil {
		return "", "", false
	}
	re := regexp.MustCompile(`(?:^|[\s:])([a-z][a-z0-9]*) ("(?:[^"\\]|\\.)*") e` + strconv.Itoa(n) + `\b`)
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.order) - 1; i >= 0; i-- {
		snap := s.order[i]
		if snap.Tab != tab || strings.HasSuffix(snap.Header, textMark) {
			continue
		}
		for _, line := range snap.Lines {
			m := re.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			name, err := strconv.Unquote(m[2])
			if err != nil {
				return "", "", false
			}
			role = m[1]
			if len(role) == 2 && role[0] == 'h' && role[1] >= '1' && role[1] <= '6' {
				role = "heading"
			}
			return role, name, true
		}
	}
	return "", "", false
}

// LongLine is the longest line a snapshot keeps: a page is read a line at
// a time, so one line of a whole JSON document or minified script would
// pass any budget a read is given (and the 25,000 tokens Claude Code takes
// from a tool).
const LongLine = 4000

// splitLong breaks the lines longer than max bytes into lines of at most
// max, at a space where one falls in the last fifth of a piece, each piece
// indented as the line was.
func splitLong(lines []string, max int) []string {
	var out []string
	for i, l := range lines {
		if len(l) <= max {
			if out != nil {
				out = append(out, l)
			}
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(lines)+len(l)/max), lines[:i]...)
		}
		body := strings.TrimLeft(l, " ")
		indent := l[:len(l)-len(body)]
		room := max - len(indent)
		for len(body) > room {
			cut := room
			for cut > 0 && !utf8.RuneStart(body[cut]) {
				cut--
			}
			if sp := strings.LastIndexByte(body[:cut], ' '); sp > room*4/5 {
				cut = sp
			}
			out = append(out, indent+body[:cut])
			body = strings.TrimLeft(body[cut:], " ")
		}
		out = append(out, indent+body)
	}
	if out == nil {
		return lines
	}
	return out
}

// ParseCursor splits "s3:120" into the snapshot and the line to start at.
func ParseCursor(c string) (id string, line int, err error) {
	id, rest, ok := strings.Cut(c, ":")
	n, err := strconv.Atoi(rest)
	if !ok || err != nil || n < 0 || !strings.HasPrefix(id, "s") {
		return "", 0, protocol.Errorf(protocol.CodeBadRequest, "cursor %q is not one read_page gave", c).
			WithHint(`cursors look like "s3:120"; call read_page without one to start over`)
	}
	return id, n, nil
}

// Page returns the lines from start that fit in maxChars (at least one),
// and the cursor of the next page, "" at the end.
func (snap *Snapshot) Page(start, maxChars int) (lines []string, next string) {
	size := 0
	end := start
	for end < len(snap.Lines) {
		n := len(snap.Lines[end]) + 1
		if end > start && size+n > maxChars {
			break
		}
		size += n
		end++
	}
	if end < len(snap.Lines) {
		next = fmt.Sprintf("%s:%d", snap.ID, end)
	}
	return snap.Lines[start:end], next
}

// Render writes one page of the snapshot from line start: its header with
// the snapshot's id, the lines, and when more follow, a truncation line with
// the cursor to read on. It returns the cursor too ("" at the end).
func (snap *Snapshot) Render(start, maxChars int) (text, next string) {
	lines, next := snap.Page(start, maxChars)
	var b strings.Builder
	b.WriteString(snap.Header + " snapshot=" + snap.ID)
	if start > 0 {
		fmt.Fprintf(&b, " from line %d", start+1)
	}
	b.WriteByte('\n')
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if next != "" {
		fmt.Fprintf(&b, "[truncated: lines %d-%d of %d shown; read on with cursor %q]\n",
			start+1, start+len(lines), len(snap.Lines), next)
	}
	return strings.TrimSuffix(b.String(), "\n"), next
}

// Full is the whole snapshot: its header with the id, then every line.
func (snap *Snapshot) Full() string {
	return snap.Header + " snapshot=" + snap.ID + "\n" + strings.Join(snap.Lines, "\n")
}
