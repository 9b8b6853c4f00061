package engine

// Busy reports whether the engine has work going: a call in flight, a
// background task running (waiting for its browser included), or a handoff
// the person may still finish. The daemon does not exit while it has.
func (e *Engine) Busy() bool {
	e.inflight.mu.Lock()
	calls := len(e.inflight.calls)
	e.inflight.mu.Unlock()
	if calls > 0 {
		return true
	}
	if e.tasks != nil && len(e.tasks.IDs()) > 0 {
		return true
	}
	return e.handoffs != nil && len(e.handoffs.Running()) > 0
}
