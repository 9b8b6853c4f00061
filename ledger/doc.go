// Package ledger is OpenChrome's on-disk store under ~/.openchrome (or
// $OPENCHROME_HOME): the home layout, the one atomic-write helper and the one
// lock helper every record uses, and the records themselves.
//
// Two rules hold for everything here: a file that readers may see is only
// ever replaced whole (WriteFile), and a record's lock is held for a metadata
// mutation, never across the work the record describes.
//
// # Records
//
// Background tasks and human handoffs are both records in a [Store], one
// store type with a different [Lifecycle] each ([TaskLifecycle],
// [HandoffLifecycle]), so they share one set of guarantees:
//
//	tasks, err := ledger.Open(home.Tasks(), ledger.TaskLifecycle(), ledger.Options{})
//	if _, err := tasks.ReapOrphans(ctx); err != nil { ... } // before accepting work
//	m, err := tasks.Create("crawl", redactedArgs, nil)
//	m, err = tasks.Transition(ctx, m.ID, ledger.StatusRunning, nil)
//	// ... the work, outside any lock: Append events, WriteResult partial
//	// results, check Get(id).CancelRequestedAt between work units ...
//	m, err = tasks.Transition(ctx, m.ID, ledger.StatusCompleted, nil)
//
// Each record is a directory <root>/<id>/ holding meta.json (replaced whole
// under the record's flock), events.jsonl (appended), result.json and the
// lock file. Ids are 16 hex digits that sort by creation time.
//
// Terminal records are immutable: every change to one (meta, event, result,
// cancel request) is refused with a conflict-coded error and writes nothing.
// Errors callers branch on carry the codes of package protocol (not_found,
// bad_request, conflict, timeout, cancelled); anything else is internal.
//
// Calls that may wait for another holder of a record's lock, or for a record
// to change (Update, Transition, RequestCancel, Append, WriteResult, Wait,
// ReapOrphans), take a context; reads (Get, List, Events, Result) and Create
// never wait on anyone and do not.
//
// Several stores, in one process or several, may share a root: the disk is
// the source of truth and every mutation re-reads meta.json under the flock.
// A store remembers only what cannot go stale: the summary of terminal
// records (for fast filtered lists) and its own waiters.
package ledger
