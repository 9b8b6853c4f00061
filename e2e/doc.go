// Package e2e tests OpenChrome end to end, as a user runs it: the real
// openchrome binary, registered with `openchrome install`, started by real
// headless Chromium with the real extension loaded, driven by the go-sdk MCP
// client through `openchrome mcp`. Fixture pages are served on 127.0.0.1;
// nothing reaches the internet. `go test -short` skips it.
package e2e
