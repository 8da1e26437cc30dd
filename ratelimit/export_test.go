package ratelimit

// Crash stops the store's refresh goroutine and drops its connections
// without releasing its leases, as a killed process would.
func (s *Store) Crash() {
	s.stopOnce.Do(func() { close(s.stop) })
	<-s.done
	s.closed.Store(true)
	_ = s.rdb.Close()
}
