// Package task runs OpenChrome's background tasks: long jobs (crawls,
// recordings, evidence bundles) recorded in the ledger from PENDING to a
// terminal status, with their progress, partial results and cancellation.
// A job goes in as a closure ([Job]) and reports through a [Sink], so the
// runner knows nothing of tools or browsers and the engine that defines the
// jobs is not imported here.
//
// Tasks belong to the daemon, not to the agent that started them: one
// survives its MCP client going away.
package task
