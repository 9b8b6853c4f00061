package ledger

// watchers reports how many Waits are registered on id, so a test can start
// a transition only once its waiter is listening.
func (s *Store) watchers(id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.done[id]; w != nil {
		return w.n
	}
	return 0
}
