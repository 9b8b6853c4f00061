//go:build race

package e2e

// raceEnabled builds the binary under test with the race detector when the
// tests themselves run with it, so a race in the daemon fails the run.
const raceEnabled = true
