// Package audit is the record of what agents did in the person's browser:
// one JSON line per tool call in ~/.openchrome/logs/audit.jsonl, saying
// when, which MCP client, which tool, on which site (the tab's origin, never
// the whole URL), how it ended and how long it took. Never a call's
// arguments or its result: what an agent typed or read stays out of it.
package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Entry is one tool call.
type Entry struct {
	At     time.Time `json:"at"`
	Client string    `json:"client"`           // the MCP client, as it named itself
	Tool   string    `json:"tool"`             //
	Origin string    `json:"origin,omitempty"` // the tab's scheme://host[:port]
	Code   string    `json:"code,omitempty"`   // the error code; empty when it succeeded
	Ms     int64     `json:"ms"`
}

// DefaultMaxBytes is the size at which the log starts anew, the full one
// kept beside it as audit.jsonl.1: two files at most, about 10 MB.
const DefaultMaxBytes = 5 << 20

// Log appends entries to one file, rotating it when it grows past its cap.
// It is safe for concurrent use.
type Log struct {
	path string
	max  int64

	mu sync.Mutex // guards the file and size
	f  *os.File
	n  int64
}

// Open opens (creating) the log at path; maxBytes <= 0 means
// [DefaultMaxBytes].
func Open(path string, maxBytes int64) (*Log, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	l := &Log{path: path, max: maxBytes}
	if err := l.open(); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *Log) open() error {
	if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("audit: %w", err)
	}
	l.f, l.n = f, info.Size()
	return nil
}

// Path is where the log is.
func (l *Log) Path() string { return l.path }

// Append writes e as one line, rotating first when the line would take the
// file past its cap.
func (l *Log) Append(e Entry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	b = append(b, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return errors.New("audit: closed")
	}
	if l.n > 0 && l.n+int64(len(b)) > l.max {
		if err := l.rotate(); err != nil {
			return err
		}
	}
	n, err := l.f.Write(b)
	l.n += int64(n)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

// rotate keeps the full file as path.1 (replacing the one before) and
// starts anew.
func (l *Log) rotate() error {
	l.f.Close()
	l.f = nil
	if err := os.Rename(l.path, l.path+".1"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("audit: rotate: %w", err)
	}
	return l.open()
}

// Close closes the file; Append then fails.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// Recent returns the last n entries of the log at path, oldest first,
// reading the rotated file too when the current one holds fewer. Lines that
// are not entries (a line cut by a crash) are skipped.
func Recent(path string, n int) ([]Entry, error) {
	var out []Entry
	for _, p := range []string{path, path + ".1"} {
		if len(out) >= n {
			break
		}
		got, err := tail(p, n-len(out))
		if err != nil {
			return nil, err
		}
		out = append(got, out...)
	}
	return out, nil
}

// tail reads the last n entries of one file; the file's last 256 KiB hold
// far more than a side panel shows.
func tail(path string, n int) ([]Entry, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	const window = 256 << 10
	if info, err := f.Stat(); err == nil && info.Size() > window {
		if _, err := f.Seek(info.Size()-window, io.SeekStart); err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	var out []Entry
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var e Entry
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Tool != "" {
			out = append(out, e)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out, nil
}

// Origin is rawURL's scheme://host[:port], or "" when it has none (about:
// pages, a URL that does not parse). file: URLs are "file://".
func Origin(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme == "" {
		return ""
	}
	if u.Scheme == "file" {
		return "file://"
	}
	if u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
