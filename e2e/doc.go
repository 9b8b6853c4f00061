// Package e2e tests OpenChrome end to end, as a user runs it: the real
// openchrome binary, registered with `openchrome install`, started by real
// headless Chromium with the real extension loaded, driven by the go-sdk MCP
// client through `openchrome mcp`. Fixture pages are served on 127.0.0.1;
// nothing reaches the internet. `go test -short` skips it.
//
// A test that needs a browser nobody used before it starts its own (newEnv);
// one that only drives pages in tabs it opens borrows one another such test
// has finished with (sharedEnv), its tabs closed: starting Chromium, the
// extension and the daemon is most of a short test's CPU.
package e2e
