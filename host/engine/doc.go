// Package engine runs OpenChrome's tools. It holds the catalog — every tool's
// name, group, description and input schema, compiled into the binary so the
// MCP front-end and the daemon agree on it — and the handlers, which validate
// their arguments and turn each call into a few extension commands.
//
// The daemon runs the engine as the broker's [bridge.Handler], with the
// connected browsers. The MCP front-end runs one too, without browsers, when no
// daemon is up: tools that only read the ledger still work, and every other
// tool says browser_not_connected and how to fix it.
package engine
