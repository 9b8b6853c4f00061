// Package bridge is the broker between agents and browsers.
//
// Agents (MCP front-ends, `openchrome call`) dial its WebSocket on a loopback
// port with the bearer token from bridge.json, say hello and send calls; the
// broker hands each call to a [Handler] (the tool engine) under a context that
// ends when the agent cancels, disconnects, or the call runs out of time.
// Browsers are [Link]s: the native host Chrome starts for each extension
// relays it over the same WebSocket. A Link sends commands with a per-command timeout and passes every
// cancellation on to the extension as a cancel frame, so nothing is left
// blocking in a page.
//
// gorilla/websocket types never leave this package.
package bridge
