package ledger

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/openchrome/openchrome/protocol"
)

// A record id is 16 lowercase hex digits: 11 for the creation time in unix
// milliseconds (good until the year 2527), then 5 random ones. Ids therefore
// sort by creation time, which lets [Store.List] read a directory listing
// newest first and stop early instead of opening every meta.json.
const (
	idLen      = 16
	idRandBits = 20
)

// newID returns an id for a record created at now, greater than after (the
// last id this store made) so records one process creates within the same
// millisecond still list in creation order. Ids from two processes can only
// collide in the random digits; [Store.Create] retries on EEXIST.
func newID(now time.Time, after uint64) uint64 {
	ms := max(now.UnixMilli(), 0)
	id := uint64(ms)<<idRandBits | uint64(rand.Uint32N(1<<idRandBits))
	return max(id, after+1)
}

func formatID(id uint64) string {
	return fmt.Sprintf("%0*x", idLen, id)
}

// idMillis returns the creation time, in unix milliseconds, of an id.
func idMillis(id uint64) int64 {
	return int64(id >> idRandBits)
}

// parseID parses an id; ok is false unless id is exactly 16 lowercase hex
// digits. Nothing else may be joined onto the root, so "../x", "a/b" or "."
// can never name a path.
func parseID(id string) (n uint64, ok bool) {
	if len(id) != idLen {
		return 0, false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(id, 16, 64)
	return n, err == nil
}

func validID(id string) bool {
	_, ok := parseID(id)
	return ok
}

func (s *Store) checkID(id string) error {
	if !validID(id) {
		return protocol.Errorf(protocol.CodeBadRequest, "%s id %q is not 16 lowercase hex digits", s.life.Noun, clip(id))
	}
	return nil
}

// clip keeps a bad id short in a message: it came from an agent.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
