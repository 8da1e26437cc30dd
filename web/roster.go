package web

import "sync"

// roster lists this server's open WebSockets by client key (IP), newest
// last, so that a server at its socket cap (Config.MaxSockets) can make
// room for a client that holds fewer sockets than another: the client
// holding the most gives up its newest socket. Many clients together can
// then fill the server, but not lock out one that holds none. The zero
// value is ready; it is safe for concurrent use.
type roster struct {
	mu   sync.Mutex
	byIP map[string][]*rosterEntry
}

type rosterEntry struct {
	end func() // ends the session: its run's done is sent, then 1001
}

// add lists a socket of key whose session end ends; the returned remove
// takes it off the list (call it when the session has ended; once).
func (r *roster) add(key string, end func()) (remove func()) {
	e := &rosterEntry{end: end}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byIP == nil {
		r.byIP = map[string][]*rosterEntry{}
	}
	r.byIP[key] = append(r.byIP[key], e)
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.removeLocked(key, e)
	}
}

func (r *roster) removeLocked(key string, e *rosterEntry) {
	es := r.byIP[key]
	for i, x := range es {
		if x == e {
			es = append(es[:i], es[i+1:]...)
			break
		}
	}
	if len(es) == 0 {
		delete(r.byIP, key)
		return
	}
	r.byIP[key] = es
}

// makeRoom ends the newest socket of the client holding the most, when it
// holds at least two more than key (so that neither ends up holding more
// than the other did), and reports whether it did. The ended socket leaves
// the list at once; its descriptor is freed when its session has ended.
func (r *roster) makeRoom(key string) bool {
	r.mu.Lock()
	most := ""
	for k, es := range r.byIP {
		if most == "" || len(es) > len(r.byIP[most]) {
			most = k
		}
	}
	if most == "" || len(r.byIP[most]) < len(r.byIP[key])+2 {
		r.mu.Unlock()
		return false
	}
	es := r.byIP[most]
	e := es[len(es)-1]
	r.removeLocked(most, e)
	r.mu.Unlock()
	e.end()
	return true
}

// held returns the sockets key holds (for tests).
func (r *roster) held(key string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.byIP[key])
}
