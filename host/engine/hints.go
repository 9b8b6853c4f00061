package engine

import "fmt"

// Hints are the MCP tool annotations clients use to decide what to confirm
// with the person (MCP's ToolAnnotations). MCP's defaults are a tool that
// may change and destroy things, not idempotently, in an open world; the
// front-end publishes only what differs from them, to keep tools/list
// small.
type Hints struct {
	// ReadOnly: the tool changes nothing, so a call lost with its
	// connection can be sent again (the front-end does).
	ReadOnly bool
	// Destructive: it may undo or overwrite what the person or a page had
	// (a click can press "Pay"; navigate leaves unsaved input behind).
	// Meaningful only when not ReadOnly.
	Destructive bool
	// Idempotent: calling it again with the same arguments has no further
	// effect. Meaningful only when not ReadOnly.
	Idempotent bool
	// OpenWorld: it reaches web pages, whose content is not OpenChrome's
	// (and may try to steer the agent); false for tools on OpenChrome's own
	// state (tasks, handoffs, tabs listed).
	OpenWorld bool
}

// hintsOf is the one table of every tool's hints; a tool missing from it
// panics at start-up (Catalog), and a test checks every row.
func hintsOf(name string) Hints {
	switch name {
	// What a page shows, read.
	case "read_page", "find", "wait_for", "page_screenshot", "console_messages", "network_requests", "network_request":
		return Hints{ReadOnly: true, OpenWorld: true}
	// OpenChrome's own state, read.
	case "oc_connection_health", "tabs_context", "oc_task_list", "oc_task_get", "oc_task_wait", "oc_handoff_status", "downloads":
		return Hints{ReadOnly: true}
	// Input a page reacts to as it likes; navigate leaves the page it was
	// on, unsaved input and all.
	case "interact", "act", "computer", "javascript_tool", "navigate":
		return Hints{Destructive: true, OpenWorld: true}
	// The same values again change nothing.
	case "form_input", "upload_file":
		return Hints{Destructive: true, Idempotent: true, OpenWorld: true}
	// Pages loaded in tabs of their own, the person's untouched; recording
	// and evidence only watch, and write files; a task runs one of these.
	case "tabs_create", "crawl", "crawl_sitemap", "recording", "oc_evidence_bundle", "oc_session_resume", "oc_task_start", "page_pdf":
		return Hints{OpenWorld: true}
	// Ends something: a tab, the work in flight, a task, the person's turn.
	case "tabs_close", "oc_stop", "oc_task_cancel", "oc_handoff_cancel":
		return Hints{Destructive: true, Idempotent: true}
	// Asks the person and changes nothing; what comes back names the
	// page's elements (their text).
	case "browser_request_feedback":
		return Hints{OpenWorld: true}
	// OpenChrome's own records, added to.
	case "oc_session_snapshot", "oc_handoff_start", "oc_handoff_finish", "oc_task_update", "oc_task_finish":
		return Hints{}
	}
	panic(fmt.Sprintf("engine: tool %s has no row in the hints table", name))
}
