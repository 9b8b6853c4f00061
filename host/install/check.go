package install

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"slices"

	"github.com/openchrome/openchrome/manifests"
)

// RegState is what `openchrome doctor` finds where a host manifest belongs.
type RegState string

// The states of a [Registration].
const (
	RegOK           RegState = "ok"            // names this binary and our extension
	RegMissing      RegState = "missing"       // the browser is here, the manifest is not
	RegOtherBinary  RegState = "other binary"  // names another openchrome, which exists
	RegBrokenBinary RegState = "broken binary" // names a binary that is gone
	RegWrongOrigin  RegState = "wrong origin"  // does not allow our extension
	RegUnreadable   RegState = "unreadable"
)

// Registration is one place a host manifest belongs, and what is there.
type Registration struct {
	Name   string
	Path   string
	State  RegState
	Binary string // the binary the manifest names, when it could be read
}

// Registrations checks every browser install would register for, the
// OpenChrome profile, and whatever the install record lists, against
// opts.Binary.
func Registrations(opts Options) ([]Registration, error) {
	o := opts.withDefaults()
	if err := o.validate(); err != nil {
		return nil, err
	}
	targets, err := o.targets()
	if err != nil {
		return nil, err
	}
	rec, err := readRecord(o.Home)
	if err != nil {
		return nil, err
	}
	for _, m := range rec.Manifests {
		if !slices.ContainsFunc(targets, func(t Target) bool { return t.Path == m.Path }) {
			targets = append(targets, Target{Name: m.Name, Path: m.Path})
		}
	}
	out := make([]Registration, 0, len(targets))
	for _, t := range targets {
		out = append(out, check(t, o.Binary))
	}
	return out, nil
}

func check(t Target, binary string) Registration {
	r := Registration{Name: t.Name, Path: t.Path}
	raw, err := os.ReadFile(t.Path)
	if errors.Is(err, fs.ErrNotExist) {
		r.State = RegMissing
		return r
	}
	var m struct {
		Path           string   `json:"path"`
		AllowedOrigins []string `json:"allowed_origins"`
	}
	if err != nil || json.Unmarshal(raw, &m) != nil {
		r.State = RegUnreadable
		return r
	}
	r.Binary = m.Path
	switch {
	case !slices.Contains(m.AllowedOrigins, manifests.Origin()):
		r.State = RegWrongOrigin
	case m.Path == binary:
		r.State = RegOK
	case fileExists(m.Path):
		r.State = RegOtherBinary
	default:
		r.State = RegBrokenBinary
	}
	return r
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
