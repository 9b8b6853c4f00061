// Package ledger is OpenChrome's on-disk store under ~/.openchrome (or
// $OPENCHROME_HOME): the home layout, the one atomic-write helper and the one
// lock helper every record uses, and the records themselves.
//
// Two rules hold for everything here: a file that readers may see is only
// ever replaced whole (WriteFile), and a record's lock is held for a metadata
// mutation, never across the work the record describes.
package ledger
