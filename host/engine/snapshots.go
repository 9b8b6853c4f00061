package engine

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/openchrome/openchrome/protocol"
)

// keptSnapshots is how many read_page results the engine keeps for cursors
// and diffs; a cursor into one that has been dropped asks for a fresh read.
const keptSnapshots = 32

// snapshot is one read of a tab, as text lines.
type snapshot struct {
	id     string
	tab    int
	header string
	lines  []string
}

// snapshots keeps the last reads of every tab.
type snapshots struct {
	mu    sync.Mutex // guards the fields below
	seq   int
	order []*snapshot // oldest first
}

// add keeps a new read and returns it with its id.
func (s *snapshots) add(tab int, header string, lines []string) *snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	snap := &snapshot{id: "s" + strconv.Itoa(s.seq), tab: tab, header: header, lines: lines}
	s.order = append(s.order, snap)
	if len(s.order) > keptSnapshots {
		s.order = s.order[len(s.order)-keptSnapshots:]
	}
	return snap
}

// get returns the read with id.
func (s *snapshots) get(id string) *snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, snap := range s.order {
		if snap.id == id {
			return snap
		}
	}
	return nil
}

// last returns the tab's newest tree read (ids of text reads start "t").
func (s *snapshots) last(tab int) *snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.order) - 1; i >= 0; i-- {
		if snap := s.order[i]; snap.tab == tab && !strings.HasSuffix(snap.header, textHeaderMark) {
			return snap
		}
	}
	return nil
}

// textHeaderMark ends the header of a text-mode read.
const textHeaderMark = " mode=text"

// parseCursor splits "s3:120" into the snapshot and the line to start at.
func parseCursor(c string) (string, int, error) {
	id, line, ok := strings.Cut(c, ":")
	n, err := strconv.Atoi(line)
	if !ok || err != nil || n < 0 || !strings.HasPrefix(id, "s") {
		return "", 0, protocol.Errorf(protocol.CodeBadRequest, "cursor %q is not one read_page gave", c).
			WithHint(`cursors look like "s3:120"; call read_page without one to start over`)
	}
	return id, n, nil
}

// page returns the lines from start that fit in maxChars (at least one),
// and the cursor of the next page, "" at the end.
func (snap *snapshot) page(start, maxChars int) (lines []string, next string) {
	size := 0
	end := start
	for end < len(snap.lines) {
		n := len(snap.lines[end]) + 1
		if end > start && size+n > maxChars {
			break
		}
		size += n
		end++
	}
	if end < len(snap.lines) {
		next = fmt.Sprintf("%s:%d", snap.id, end)
	}
	return snap.lines[start:end], next
}

// diffLines returns the lines of after that before lacks, and the lines of
// before that after lacks, each at most limit long. Lines are compared as a
// multiset: what moved is not news, what appeared or went is.
func diffLines(before, after []string, limit int) (added, removed []string, more int) {
	count := make(map[string]int, len(before))
	for _, l := range before {
		count[strings.TrimSpace(l)]++
	}
	for _, l := range after {
		k := strings.TrimSpace(l)
		if count[k] > 0 {
			count[k]--
			continue
		}
		if len(added) < limit {
			added = append(added, l)
		} else {
			more++
		}
	}
	left := make(map[string]int, len(after))
	for _, l := range after {
		left[strings.TrimSpace(l)]++
	}
	for _, l := range before {
		k := strings.TrimSpace(l)
		if left[k] > 0 {
			left[k]--
			continue
		}
		if len(removed) < limit {
			removed = append(removed, l)
		} else {
			more++
		}
	}
	return added, removed, more
}
