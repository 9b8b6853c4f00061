// Package browser is the Go face of the extension's actions (docs/wire.md):
// one constructor per wire action, named for it, that builds a [Command]
// whose type parameter says what the extension answers. Constructors build;
// they run nothing. [Command.Run] sends one through a [Doer] (a browser
// link, or a tool call that logs and picks the link) and decodes the answer.
//
// A tab's commands carry it as params.tabId: the extension's router checks
// that the tab exists and is in the OpenChrome group before the action runs,
// so a refused command never reached the page.
package browser
