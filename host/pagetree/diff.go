package pagetree

import (
	"fmt"
	"strings"
)

// DiffLines returns the lines of after that before lacks, and the lines of
// before that after lacks, each at most limit long, and how many more there
// were. Lines are compared as a multiset: what moved is not news, what
// appeared or went is.
func DiffLines(before, after []string, limit int) (added, removed []string, more int) {
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

// Describe says how a tab's tree changed from before (its last read, or
// nil) to after, at most 40 lines each way.
func Describe(before, after *Snapshot) string {
	if before == nil {
		return fmt.Sprintf("snapshot=%s (no earlier read of this tab to compare with)\n%s", after.ID, strings.Join(after.Lines, "\n"))
	}
	added, removed, more := DiffLines(before.Lines, after.Lines, 40)
	var b strings.Builder
	fmt.Fprintf(&b, "snapshot=%s, changes since %s:", after.ID, before.ID)
	if len(added) == 0 && len(removed) == 0 {
		b.WriteString(" none")
	}
	for _, l := range removed {
		b.WriteString("\n- removed: " + strings.TrimSpace(l))
	}
	for _, l := range added {
		b.WriteString("\n+ " + strings.TrimSpace(l))
	}
	if more > 0 {
		fmt.Fprintf(&b, "\n(%d more changed lines: read_page for the whole tree)", more)
	}
	return b.String()
}
