// Package pagetree holds what OpenChrome makes of a page's tree: the nodes
// the extension's page script reads ([Node]), their compact text form
// ([Format]: one line per element, `button "Login" e6`), the reads kept for
// cursors and diffs ([Store]), and what changed between two reads
// ([Describe]). It knows nothing of tools or browsers: the engine feeds it
// what a page.snapshot command answered.
package pagetree
