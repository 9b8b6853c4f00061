package ledger

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openchrome/openchrome/protocol"
)

// DefaultListLimit is how many records [Store.List] returns when the filter
// sets no limit.
const DefaultListLimit = 50

// Filter narrows [Store.List]. Zero fields match everything.
type Filter struct {
	Status Status
	Kind   string
	// Since keeps records created at or after it.
	Since time.Time
	// Limit caps the answer; 0 means [DefaultListLimit], negative is a bad
	// request.
	Limit int
}

// summary is the part of a meta.json a filter looks at.
type summary struct {
	Status    Status    `json:"status"`
	Kind      string    `json:"kind"`
	CreatedAt time.Time `json:"created_at"`
}

func (f Filter) matches(x summary) bool {
	return (f.Status == "" || x.Status == f.Status) &&
		(f.Kind == "" || x.Kind == f.Kind) &&
		(f.Since.IsZero() || !x.CreatedAt.Before(f.Since))
}

// List returns the records matching f, newest first (by id, that is by
// creation time).
//
// It reads as few meta.json files as it can, because a home may hold many
// thousands of records and an agent lists often:
//   - ids sort by creation time, so it walks them newest first and stops at
//     the limit, or at the first id older than Since;
//   - terminal records never change, so the store remembers the status and
//     kind of each one it has read (about 100 bytes a record) and skips the
//     ones a filter rejects without opening them again. Only the first
//     filtered list after [Open] (or after [Store.ReapOrphans], which reads
//     every record anyway) pays for reading every meta.json.
//
// A directory without a meta.json (a Create in progress) is skipped; one whose
// meta.json is damaged is listed with Damaged set, when the filter names no
// status or kind, rather than failing the whole list or vanishing from it.
func (s *Store) List(f Filter) ([]Meta, error) {
	limit := f.Limit
	switch {
	case limit < 0:
		return nil, protocol.Errorf(protocol.CodeBadRequest, "limit must not be negative, got %d", limit)
	case limit == 0:
		limit = DefaultListLimit
	}
	if f.Status != "" && !s.life.Known(f.Status) {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "unknown %s status %q", s.life.Noun, clip(string(f.Status)))
	}
	ids, err := s.ids()
	if err != nil {
		return nil, err
	}
	var sinceMS int64
	if !f.Since.IsZero() {
		sinceMS = f.Since.UnixMilli()
	}
	out := []Meta{}
	// Read in batches, each batch in parallel: a cold list is mostly
	// waiting on open(2). A batch starts as large as the answer still needs
	// and doubles, so an unfiltered list reads no more than its limit.
	batch := limit
	for len(ids) > 0 && len(out) < limit {
		var todo []uint64
		for len(ids) > 0 && len(todo) < batch {
			n := ids[0]
			if sinceMS != 0 && idMillis(n) < sinceMS {
				ids = nil // this id and every older one was created before Since
				break
			}
			ids = ids[1:]
			if x, ok := s.finished(n); ok && !f.matches(x) {
				continue
			}
			todo = append(todo, n)
		}
		for _, m := range s.readMatching(todo, f) {
			out = append(out, m)
			if len(out) == limit {
				break
			}
		}
		batch = min(batch*2, 1024)
	}
	return out, nil
}

// listReaders is how many meta.json files List reads at once.
const listReaders = 8

// readMatching reads the records ids in parallel and returns those matching
// f, in the order of ids. Unreadable records are left out.
func (s *Store) readMatching(ids []uint64, f Filter) []Meta {
	found := make([]*Meta, len(ids))
	var (
		wg   sync.WaitGroup
		next atomic.Int64
	)
	for range min(listReaders, len(ids)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(ids); i = int(next.Add(1) - 1) {
				found[i] = s.readIfMatching(ids[i], f)
			}
		})
	}
	wg.Wait()
	out := make([]Meta, 0, len(ids))
	for _, m := range found {
		if m != nil {
			out = append(out, *m)
		}
	}
	return out
}

// readIfMatching reads one record and returns it if it matches f. It
// decodes the summary first: most records a filter reads, it rejects.
func (s *Store) readIfMatching(n uint64, f Filter) *Meta {
	id := formatID(n)
	b, err := s.readMetaFile(id)
	if err != nil {
		return nil
	}
	var x summary
	if json.Unmarshal(b, &x) == nil && s.life.Known(x.Status) {
		if !f.matches(x) {
			s.remember(n, x)
			return nil
		}
	}
	m, err := s.decodeMeta(id, b)
	if err != nil {
		// Damaged: listed as such when the filter could want it, never
		// silently left out.
		if f.Status != "" || f.Kind != "" {
			return nil
		}
		return &Meta{ID: id, Damaged: protocol.AsError(err).Message}
	}
	s.remember(n, x)
	return &m
}

// finished returns what the store remembers of a terminal record.
func (s *Store) finished(id uint64) (summary, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	x, ok := s.terminal[id]
	return x, ok
}

// remember keeps x if the record is terminal: only then can it never change,
// in this process or any other, so the copy never goes stale.
func (s *Store) remember(id uint64, x summary) {
	if !s.life.Terminal(x.Status) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.terminal[id] = x
}

// ids returns the record ids under the root, newest first. Names come
// straight from the directory, with no stat per entry; anything that is not
// an id is ignored.
func (s *Store) ids() ([]uint64, error) {
	d, err := os.Open(s.root)
	if err != nil {
		return nil, fmt.Errorf("ledger: list %ss: %w", s.life.Noun, err)
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("ledger: list %ss: %w", s.life.Noun, err)
	}
	ids := make([]uint64, 0, len(names))
	for _, name := range names {
		if n, ok := parseID(name); ok {
			ids = append(ids, n)
		}
	}
	slices.Sort(ids)
	slices.Reverse(ids)
	return ids, nil
}
