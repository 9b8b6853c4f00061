package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/openchrome/openchrome/protocol"
)

// The files of one record, under <root>/<id>/.
const (
	metaFile   = "meta.json"
	eventsFile = "events.jsonl"
	resultFile = "result.json"
	lockFile   = "lock"
)

// Event kinds the store itself appends.
const (
	EventCreated         = "created"
	EventStatus          = "status"
	EventCancelRequested = "cancel_requested"
	EventOrphaned        = "orphaned"
	EventAdopted         = "adopted"
)

// Options configures a [Store]. The zero value gives the defaults.
type Options struct {
	// Now is the clock; default time.Now.
	Now func() time.Time
	// PID is the process that owns the records this store creates or
	// starts; default os.Getpid().
	PID int
	// Alive reports whether a process exists; default [ProcessAlive].
	Alive func(pid int) bool
	// Scrub redacts every byte the store writes (meta.json, events,
	// result.json), so that no caller can forget to; default: none. The
	// daemon's is its Redactor's File.
	Scrub func([]byte) []byte
}

// Store keeps records of one lifecycle (tasks, or handoffs) under a root
// directory, one directory per record:
//
//	<root>/<id>/meta.json     replaced whole (WriteFile) under lock
//	<root>/<id>/events.jsonl  appended, one {"ts","kind","data"} a line
//	<root>/<id>/result.json   replaced whole, while the record is not terminal
//	<root>/<id>/lock          flock held for one meta read-modify-write
//
// A Store is safe for concurrent use, and several stores (in one process or
// several) may share a root: every mutation re-reads meta.json under the
// record's flock, so the disk, not the Store, is the source of truth.
type Store struct {
	root  string
	life  Lifecycle
	now   func() time.Time
	pid   int
	alive func(pid int) bool
	scrub func([]byte) []byte

	// mu guards the fields below.
	mu sync.Mutex
	// lastID is the last id this store made, to keep its ids increasing.
	lastID uint64
	// done holds, per record id some [Store.Wait] is watching, a channel
	// closed when this store moves the record to a terminal status.
	done map[string]*waiters
	// terminal remembers the status, kind and creation time of every
	// terminal record this store has read, so [Store.List] can skip them.
	terminal map[uint64]summary
}

// Open returns a store for the records under root, creating root (0700) if
// needed. life is checked once here.
func Open(root string, life Lifecycle, opts Options) (*Store, error) {
	if root == "" {
		return nil, errors.New("ledger: open: empty root")
	}
	if err := life.validate(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("ledger: open %s store: %w", life.Noun, err)
	}
	s := &Store{
		root:     root,
		life:     life.clone(),
		now:      opts.Now,
		pid:      opts.PID,
		alive:    opts.Alive,
		scrub:    opts.Scrub,
		done:     map[string]*waiters{},
		terminal: map[uint64]summary{},
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.pid == 0 {
		s.pid = os.Getpid()
	}
	if s.alive == nil {
		s.alive = ProcessAlive
	}
	if s.scrub == nil {
		s.scrub = func(b []byte) []byte { return b }
	}
	return s, nil
}

// Root returns the directory the store keeps its records in.
func (s *Store) Root() string { return s.root }

// Lifecycle returns the state machine the store enforces.
func (s *Store) Lifecycle() Lifecycle { return s.life.clone() }

// clock returns the current time in UTC, without a monotonic reading, so
// what is written is what is read back.
func (s *Store) clock() time.Time { return s.now().UTC() }

func (s *Store) dir(id string) string        { return filepath.Join(s.root, id) }
func (s *Store) file(id, name string) string { return filepath.Join(s.root, id, name) }
func (s *Store) notFound(id string) error {
	return protocol.Errorf(protocol.CodeNotFound, "%s %s not found", s.life.Noun, id)
}
func (s *Store) wrap(id string, err error) error {
	return fmt.Errorf("ledger: %s %s: %w", s.life.Noun, id, err)
}

// Create makes a record in the lifecycle's initial status, owned by this
// store's pid, and appends a "created" event. argsSummary must already be
// redacted; it is cut to [MaxArgsSummary]. detail (nil for none) is
// marshaled as the record's kind-specific data.
func (s *Store) Create(kind, argsSummary string, detail any) (Meta, error) {
	if kind == "" {
		return Meta{}, protocol.Errorf(protocol.CodeBadRequest, "%s kind is required", s.life.Noun)
	}
	raw, err := marshalDetail(detail)
	if err != nil {
		return Meta{}, err
	}
	now := s.clock()
	id, err := s.mkdir(now)
	if err != nil {
		return Meta{}, err
	}
	m := Meta{
		ID:          id,
		Kind:        kind,
		Status:      s.life.Initial,
		CreatedAt:   now,
		UpdatedAt:   now,
		PID:         s.pid,
		ArgsSummary: truncateSummary(argsSummary),
		Detail:      raw,
	}
	if m.Status == s.life.Running {
		m.StartedAt = &now
	}
	// Nobody else knows the id yet, so the lock is free; taking it creates
	// the lock file, so every record has the same four files.
	lock, err := TryLock(s.file(id, lockFile))
	if err != nil {
		_ = os.RemoveAll(s.dir(id))
		return Meta{}, s.wrap(id, err)
	}
	defer lock.Unlock()
	if err := s.writeMeta(m); err != nil {
		_ = os.RemoveAll(s.dir(id))
		return Meta{}, err
	}
	_ = s.appendLocked(id, now, EventCreated, map[string]any{"kind": kind, "status": m.Status})
	return m, nil
}

// mkdir creates the directory of a new record and returns its id, retrying
// when another store took the same id first.
func (s *Store) mkdir(now time.Time) (string, error) {
	for range 100 {
		s.mu.Lock()
		n := newID(now, s.lastID)
		s.lastID = n
		s.mu.Unlock()
		id := formatID(n)
		err := os.Mkdir(s.dir(id), 0o700)
		if err == nil {
			return id, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("ledger: create %s: %w", s.life.Noun, err)
		}
	}
	return "", fmt.Errorf("ledger: create %s: no free id after 100 tries", s.life.Noun)
}

// Get reads a record's meta.json. It takes no lock: meta.json is only ever
// replaced whole, so a reader sees one version or the next.
func (s *Store) Get(id string) (Meta, error) {
	if err := s.checkID(id); err != nil {
		return Meta{}, err
	}
	return s.readMeta(id)
}

func (s *Store) readMeta(id string) (Meta, error) {
	b, err := s.readMetaFile(id)
	if err != nil {
		return Meta{}, err
	}
	m, err := s.decodeMeta(id, b)
	if err != nil {
		return Meta{}, err
	}
	if n, ok := parseID(id); ok {
		s.remember(n, summary{m.Status, m.Kind, m.CreatedAt})
	}
	return m, nil
}

// ErrDamaged is in the chain of the error for a record whose meta.json is
// not a record's: invalid JSON, empty, fields of the wrong type, or another
// record's id. The other records are untouched; [Store.EndDamaged] ends it.
var ErrDamaged = errors.New("ledger: damaged record")

// decodeMeta decodes meta.json's bytes, refusing what is not a record of
// this store.
func (s *Store) decodeMeta(id string, b []byte) (Meta, error) {
	var m Meta
	err := json.Unmarshal(b, &m)
	switch {
	case err != nil:
	case m.ID != id:
		err = fmt.Errorf("it names record %q", m.ID)
	case !s.life.Known(m.Status):
		err = fmt.Errorf("status %q is not one of a %s's", m.Status, s.life.Noun)
	}
	if err != nil {
		return Meta{}, s.damaged(id, err)
	}
	return m, nil
}

// damaged is the coded error for a record whose meta.json cannot be read as
// one: it names the file, why, and what to do.
func (s *Store) damaged(id string, why error) error {
	path := s.file(id, metaFile)
	return protocol.Errorf(protocol.CodeConflict, "%s %s is damaged: %s: %v", s.life.Noun, id, path, why).
		WithHint(fmt.Sprintf("cancel it to end it as damaged (its file is kept as %s.damaged), or remove %s", metaFile, s.dir(id))).
		WithCause(ErrDamaged)
}

// readMetaFile returns the bytes of a record's meta.json. A directory
// without one is a record whose Create has not written it yet: it does not
// exist until then.
func (s *Store) readMetaFile(id string) ([]byte, error) {
	b, err := readSmallFile(s.file(id, metaFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, s.notFound(id)
	}
	if err != nil {
		return nil, s.wrap(id, err)
	}
	return b, nil
}

// readSmallFile is os.ReadFile for files that are nearly always under 8 KiB,
// in three system calls (open, read, close) instead of six: a list of
// thousands of records is mostly system calls. A short read is the whole file
// because meta.json is only ever replaced by rename, never written in place.
func readSmallFile(name string) ([]byte, error) {
	var fd int
	err := retryEINTR(func() (err error) {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	buf := make([]byte, 8<<10)
	var n int
	err = retryEINTR(func() (err error) {
		n, err = syscall.Read(fd, buf)
		return err
	})
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	if n < len(buf) {
		return buf[:n], nil
	}
	return os.ReadFile(name) // a large detail: take the slow path
}

func retryEINTR(fn func() error) error {
	for {
		if err := fn(); !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

func (s *Store) writeMeta(m Meta) error {
	b, err := json.Marshal(m)
	if err != nil {
		return s.wrap(m.ID, err)
	}
	if err := WriteFile(s.file(m.ID, metaFile), append(s.scrub(b), '\n'), 0o600); err != nil {
		return s.wrap(m.ID, err)
	}
	return nil
}

// EndDamaged ends a damaged record: its meta.json is kept beside as
// meta.json.damaged, and a new one says the record was cancelled, with the
// error code "damaged" and why. A record that is not damaged is refused
// (conflict): cancel it the usual way.
func (s *Store) EndDamaged(ctx context.Context, id string) (m Meta, err error) {
	if err := s.checkID(id); err != nil {
		return Meta{}, err
	}
	defer func() { // after the unlock, as in updateWith
		if err == nil {
			s.wake(id)
		}
	}()
	lock, err := s.lock(ctx, id)
	if err != nil {
		return Meta{}, err
	}
	defer lock.Unlock()
	b, err := s.readMetaFile(id)
	if err != nil {
		return Meta{}, err
	}
	_, why := s.decodeMeta(id, b)
	if why == nil {
		return Meta{}, protocol.Errorf(protocol.CodeConflict, "%s %s is not damaged", s.life.Noun, id)
	}
	path := s.file(id, metaFile)
	if err := os.Rename(path, path+".damaged"); err != nil {
		return Meta{}, s.wrap(id, err)
	}
	now := s.clock()
	m = Meta{ID: id, Kind: "damaged", Status: StatusCancelled, CreatedAt: now, UpdatedAt: now, FinishedAt: &now,
		PID: s.pid, Error: &ErrorInfo{Code: "damaged", Message: protocol.AsError(why).Message}}
	if err := s.writeMeta(m); err != nil {
		return Meta{}, err
	}
	_ = s.appendLocked(id, now, EventStatus, map[string]any{"from": "damaged", "to": m.Status})
	return m, nil
}

// Update is the one read-modify-write of a record: under the record's lock it
// reads meta.json, calls fn on a copy and, if fn returns nil, writes the
// result back whole. It refuses a terminal record (conflict) without writing
// anything, and an illegal status change (conflict). fn may change the
// status, args_summary, error, progress, evidence and detail; the other
// fields belong to the store, which keeps them, sets updated_at and, on a
// status change, sets started_at / finished_at and appends a "status" event.
// fn's error is returned wrapped, so a coded error keeps its code. On error
// the Meta returned is the record as it stands, when it could be read (a
// conflict shows the caller the terminal status it ran into).
//
// The lock is held only while fn runs and meta.json is written: fn must be a
// quick edit, never the work itself. ctx bounds the wait for the lock.
func (s *Store) Update(ctx context.Context, id string, fn func(*Meta) error) (Meta, error) {
	return s.update(ctx, id, keepStoreFields(fn))
}

// keepStoreFields undoes a caller's edits to the fields the store owns: the
// times it stamps, the owner pid, the cancel request (see
// [Store.RequestCancel]) and result_bytes (see [Store.WriteResult]).
func keepStoreFields(fn func(*Meta) error) func(*Meta) error {
	return func(m *Meta) error {
		was := *m
		err := fn(m)
		m.UpdatedAt, m.StartedAt, m.FinishedAt = was.UpdatedAt, was.StartedAt, was.FinishedAt
		m.PID, m.CancelRequestedAt, m.ResultBytes = was.PID, was.CancelRequestedAt, was.ResultBytes
		return err
	}
}

// Transition moves a record to status to, after letting mutate (may be nil)
// edit the meta in the same write, e.g. to set Error on FAILED.
func (s *Store) Transition(ctx context.Context, id string, to Status, mutate func(*Meta)) (Meta, error) {
	return s.update(ctx, id, keepStoreFields(func(m *Meta) error {
		if m.Status == to {
			return protocol.Errorf(protocol.CodeConflict, "%s %s is already %s", s.life.Noun, id, to)
		}
		m.Status = to
		if mutate != nil {
			mutate(m)
		}
		return nil
	}))
}

// RequestCancel records that someone asked a record to stop. Cancellation is
// cooperative: the runner checks cancel_requested_at between work units and
// moves the record to CANCELLED itself. A second request keeps the first
// one's time. A terminal record cannot be cancelled (conflict).
func (s *Store) RequestCancel(ctx context.Context, id string) (Meta, error) {
	var already bool
	m, err := s.updateWith(ctx, id, func(m *Meta) error {
		if m.CancelRequestedAt != nil {
			already = true
			return nil
		}
		now := s.clock()
		m.CancelRequestedAt = &now
		return nil
	}, func(m Meta) {
		if !already {
			_ = s.appendLocked(id, m.UpdatedAt, EventCancelRequested, nil)
		}
	})
	return m, err
}

// update is Update without a hook for extra events.
func (s *Store) update(ctx context.Context, id string, fn func(*Meta) error) (Meta, error) {
	return s.updateWith(ctx, id, fn, nil)
}

// updateWith runs fn under the record's lock as [Store.Update] describes,
// then after (may be nil) with the written meta, still under the lock, so
// events are appended in the order the changes were made.
func (s *Store) updateWith(ctx context.Context, id string, fn func(*Meta) error, after func(Meta)) (m Meta, err error) {
	// Waiters are woken once the lock below is released (defers run last in
	// first out), so what they do next does not find the record busy.
	defer func() {
		if err == nil && s.life.Terminal(m.Status) {
			s.wake(id)
		}
	}()
	lock, err := s.lock(ctx, id)
	if err != nil {
		return Meta{}, err
	}
	// Deferred so the lock is released however fn leaves: error or panic.
	defer lock.Unlock()

	old, err := s.readMeta(id)
	if err != nil {
		return Meta{}, err
	}
	if s.life.Terminal(old.Status) {
		return old, protocol.Errorf(protocol.CodeConflict, "%s %s is %s and can no longer change", s.life.Noun, id, old.Status)
	}
	m = old
	if err := fn(&m); err != nil {
		return old, s.wrap(id, err)
	}
	m.ID, m.Kind, m.CreatedAt = old.ID, old.Kind, old.CreatedAt
	m.ArgsSummary = truncateSummary(m.ArgsSummary)
	if len(m.Detail) > 0 && !json.Valid(m.Detail) {
		return old, protocol.Errorf(protocol.CodeBadRequest, "%s %s: detail is not valid JSON", s.life.Noun, id)
	}
	now := s.clock()
	m.UpdatedAt = now
	if m.Status != old.Status {
		if !s.life.Allows(old.Status, m.Status) {
			return old, protocol.Errorf(protocol.CodeConflict, "%s %s cannot move from %s to %s", s.life.Noun, id, old.Status, m.Status)
		}
		s.entered(&m, now)
	}
	if err := s.writeMeta(m); err != nil {
		return old, err
	}
	if m.Status != old.Status {
		_ = s.appendLocked(id, now, EventStatus, map[string]any{"from": old.Status, "to": m.Status})
	}
	if after != nil {
		after(m)
	}
	return m, nil
}

// entered stamps the times and owner that go with the status m just entered.
func (s *Store) entered(m *Meta, now time.Time) {
	if m.Status == s.life.Running {
		if m.StartedAt == nil {
			m.StartedAt = &now
		}
		// Whoever starts the work owns it: if this process dies, the
		// record is an orphan.
		m.PID = s.pid
	}
	if s.life.Terminal(m.Status) {
		m.FinishedAt = &now
	}
}

// lock takes the flock of an existing record. It checks the directory first
// because taking a lock creates the file and its parent: an unknown id must
// stay unknown, not gain an empty directory.
func (s *Store) lock(ctx context.Context, id string) (*Lock, error) {
	if err := s.checkID(id); err != nil {
		return nil, err
	}
	if _, err := os.Stat(s.dir(id)); errors.Is(err, fs.ErrNotExist) {
		return nil, s.notFound(id)
	} else if err != nil {
		return nil, s.wrap(id, err)
	}
	lock, err := Acquire(ctx, s.file(id, lockFile))
	if err == nil {
		return lock, nil
	}
	if code, ok := ctxCode(err); ok {
		return nil, protocol.Errorf(code, "%s %s: gave up waiting for its lock", s.life.Noun, id).WithCause(err)
	}
	return nil, s.wrap(id, err)
}

// ctxCode maps a context's end to the shared codes: a deadline is a timeout,
// a cancel is cancelled.
func ctxCode(err error) (protocol.Code, bool) {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return protocol.CodeTimeout, true
	case errors.Is(err, context.Canceled):
		return protocol.CodeCancelled, true
	}
	return "", false
}

// WriteResult replaces result.json with v marshaled, and records its size in
// meta.json. A runner may write partial results as it goes, then transition;
// a terminal record's result is immutable (conflict). The result is written
// under the record's lock so that it cannot land after a terminal transition
// made by another process.
func (s *Store) WriteResult(ctx context.Context, id string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return protocol.Errorf(protocol.CodeBadRequest, "%s %s: result is not JSON-encodable", s.life.Noun, id).WithCause(err)
	}
	b = s.scrub(b)
	_, err = s.update(ctx, id, func(m *Meta) error {
		if err := WriteFile(s.file(id, resultFile), b, 0o600); err != nil {
			return err
		}
		m.ResultBytes = int64(len(b))
		return nil
	})
	return err
}

// Result returns result.json as written. A record without a result yet is
// not_found too, with a message that says so.
func (s *Store) Result(id string) (json.RawMessage, error) {
	if _, err := s.Get(id); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(s.file(id, resultFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, protocol.Errorf(protocol.CodeNotFound, "%s %s has no result yet", s.life.Noun, id)
	}
	if err != nil {
		return nil, s.wrap(id, err)
	}
	return b, nil
}

func marshalDetail(detail any) (json.RawMessage, error) {
	if detail == nil {
		return nil, nil
	}
	b, err := json.Marshal(detail)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "detail is not JSON-encodable").WithCause(err)
	}
	if string(b) == "null" {
		return nil, nil
	}
	return b, nil
}
