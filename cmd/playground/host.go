package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/playground-dev/playground/engine"
	"github.com/playground-dev/playground/sandbox"
)

// hostFunctions are the host functions the shipped binary offers snippets
// (host.<name>(…) in the "playground" module). They run in the server.
//
//	host.echo(...args)      resolves to its argument (or the array of them)
//	host.sleep(ms)          resolves after ms milliseconds (at most 10,000) with ms
//	host.time()             resolves to the server's time, an ISO 8601 string
//	host.kv.set(key, value) stores a JSON value for this browser tab
//	host.kv.get(key)        resolves to it, or undefined
//	host.kv.delete(key)     removes it
//	host.kv.list()          resolves to the tab's keys, sorted
//
// The key/value store survives between runs of one tab (one WebSocket
// session) and is bounded per tab, per client and in all (kvStore).
func hostFunctions(store *kvStore) map[string]sandbox.HostFunc {
	fns := map[string]sandbox.HostFunc{
		"echo": func(_ context.Context, c sandbox.HostCall) (json.RawMessage, error) {
			if len(c.Args) == 1 {
				return c.Args[0], nil
			}
			return json.Marshal(c.Args)
		},
		"sleep": func(ctx context.Context, c sandbox.HostCall) (json.RawMessage, error) {
			var ms float64
			if len(c.Args) > 0 {
				if err := json.Unmarshal(c.Args[0], &ms); err != nil {
					return nil, errors.New("sleep(ms) takes a number of milliseconds")
				}
			}
			ms = min(max(ms, 0), 10_000)
			t := time.NewTimer(time.Duration(ms * float64(time.Millisecond)))
			defer t.Stop()
			select {
			case <-t.C:
				return json.Marshal(ms)
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		},
		"time": func(_ context.Context, c sandbox.HostCall) (json.RawMessage, error) {
			return json.Marshal(c.Clock.UTC().Format(time.RFC3339Nano)) // virtual in a deterministic run
		},
		"kv.get": func(_ context.Context, c sandbox.HostCall) (json.RawMessage, error) {
			key, err := kvKey(c)
			if err != nil {
				return nil, err
			}
			return store.get(c.Session, key), nil
		},
		"kv.set": func(_ context.Context, c sandbox.HostCall) (json.RawMessage, error) {
			key, err := kvKey(c)
			if err != nil {
				return nil, err
			}
			if len(c.Args) < 2 {
				return nil, errors.New("kv.set(key, value) needs a value")
			}
			return nil, store.set(c.Session, c.Key, key, c.Args[1])
		},
		"kv.delete": func(_ context.Context, c sandbox.HostCall) (json.RawMessage, error) {
			key, err := kvKey(c)
			if err != nil {
				return nil, err
			}
			store.delete(c.Session, key)
			return nil, nil
		},
		"kv.list": func(_ context.Context, c sandbox.HostCall) (json.RawMessage, error) {
			return json.Marshal(store.keys(c.Session))
		},
	}
	for name, f := range fns {
		if strings.HasPrefix(name, "kv.") {
			fns[name] = tabOnly(name, f)
		}
	}
	return fns
}

// tabOnly refuses f to a run that belongs to no tab (POST /api/v1/run,
// /mcp: engine.Stateless): what it stored could never be read again, yet
// would count against the client's -kv-client-bytes for -kv-ttl, so that
// the client's browser tab could no longer store.
func tabOnly(name string, f sandbox.HostFunc) sandbox.HostFunc {
	return func(ctx context.Context, c sandbox.HostCall) (json.RawMessage, error) {
		if engine.Stateless(c.Session) {
			return nil, fmt.Errorf("%s: host.kv keeps data per browser tab (a WebSocket session) between its runs; a request to /api/v1/run or /mcp stands alone, so host.kv is not available to it", name)
		}
		return f(ctx, c)
	}
}

func kvKey(c sandbox.HostCall) (string, error) {
	var key string
	if len(c.Args) == 0 || json.Unmarshal(c.Args[0], &key) != nil || key == "" || len(key) > 256 {
		return "", fmt.Errorf("%s: the key must be a string of 1-256 bytes", c.Name)
	}
	return key, nil
}

// kvStore holds each tab's key/value pairs. It is bounded three ways, so
// that no client can grow the server: a tab holds at most maxKeys keys of
// maxValue bytes; one client (its IP or API key) at most clientBytes in all
// its tabs (past it kv.set fails); the store at most totalBytes (past it the
// least recently used tabs are dropped, whoever owns them). A tab unused for
// ttl — its browser tab closed — is dropped. It is safe for concurrent use.
type kvStore struct {
	kvLimits
	now func() time.Time

	mu       sync.Mutex                     // guards everything below and every tab
	tabs     *simplelru.LRU[string, *kvTab] // by session id, least recently used first
	bytes    int64                          // held by all tabs
	byClient map[string]int64               // held by each client's tabs
}

// kvLimits are the store's bounds (the -kv-* flags).
type kvLimits struct {
	maxTabs, maxKeys, maxValue int
	totalBytes, clientBytes    int64
	ttl                        time.Duration
}

// defaultKVLimits: 100 keys of 64 KiB per tab; 4 MiB per client, 64 MiB in
// all; a tab's data is dropped 10 minutes after its last use.
var defaultKVLimits = kvLimits{maxTabs: 10_000, maxKeys: 100, maxValue: 64 << 10,
	totalBytes: 64 << 20, clientBytes: 4 << 20, ttl: 10 * time.Minute}

type kvTab struct {
	client string
	vals   map[string]json.RawMessage
	bytes  int64 // keys and values
	used   time.Time
}

func newKVStore(l kvLimits) *kvStore {
	s := &kvStore{kvLimits: l, now: time.Now, byClient: map[string]int64{}}
	tabs, err := simplelru.NewLRU[string, *kvTab](max(l.maxTabs, 1), func(_ string, t *kvTab) { s.forgetLocked(t) })
	if err != nil {
		panic(err) // only for a size < 1
	}
	s.tabs = tabs
	return s
}

// forgetLocked takes a dropped tab's bytes off the counts. s.mu must be held
// (the LRU calls it from Add and Remove*, which run under s.mu).
func (s *kvStore) forgetLocked(t *kvTab) {
	s.bytes -= t.bytes
	if s.byClient[t.client] -= t.bytes; s.byClient[t.client] <= 0 {
		delete(s.byClient, t.client)
	}
}

// expireLocked drops the tabs unused for ttl: the least recently used
// come first, so it stops at the first one still in use.
func (s *kvStore) expireLocked(now time.Time) {
	for {
		_, t, ok := s.tabs.GetOldest()
		if !ok || now.Sub(t.used) < s.ttl {
			return
		}
		s.tabs.RemoveOldest()
	}
}

// tabLocked returns session's values, creating them for client when create
// is set. s.mu must be held.
func (s *kvStore) tabLocked(session, client string, create bool) *kvTab {
	now := s.now()
	s.expireLocked(now)
	if t, ok := s.tabs.Get(session); ok {
		t.used = now
		return t
	}
	if !create {
		return nil
	}
	t := &kvTab{client: client, vals: map[string]json.RawMessage{}, used: now}
	s.tabs.Add(session, t)
	return t
}

func (s *kvStore) get(session, key string) json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tabLocked(session, "", false); t != nil {
		return t.vals[key]
	}
	return nil
}

func (s *kvStore) set(session, client, key string, v json.RawMessage) error {
	if len(v) > s.maxValue {
		return fmt.Errorf("kv.set: the value is %d bytes; the limit is %d", len(v), s.maxValue)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tabLocked(session, client, true)
	old, had := t.vals[key]
	if !had && len(t.vals) >= s.maxKeys {
		return fmt.Errorf("kv.set: this tab already holds %d keys, the limit", s.maxKeys)
	}
	delta := int64(len(v) - len(old))
	if !had {
		delta += int64(len(key))
	}
	if held := s.byClient[t.client]; delta > 0 && held+delta > s.clientBytes {
		return fmt.Errorf("kv.set: this client's tabs hold %d bytes; the limit is %d", held, s.clientBytes)
	}
	t.vals[key] = v
	t.bytes += delta
	s.bytes += delta
	s.byClient[t.client] += delta
	for s.bytes > s.totalBytes && s.tabs.Len() > 1 {
		s.tabs.RemoveOldest() // the store is full: the least recently used tabs go first
	}
	return nil
}

func (s *kvStore) delete(session, key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tabLocked(session, "", false)
	if t == nil {
		return
	}
	if v, ok := t.vals[key]; ok {
		n := int64(len(key) + len(v))
		delete(t.vals, key)
		t.bytes -= n
		s.bytes -= n
		if s.byClient[t.client] -= n; s.byClient[t.client] <= 0 {
			delete(s.byClient, t.client)
		}
	}
}

func (s *kvStore) keys(session string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tabLocked(session, "", false); t != nil {
		return slices.Sorted(maps.Keys(t.vals))
	}
	return []string{}
}

// usage returns the bytes the store holds in all and for client.
func (s *kvStore) usage(client string) (total, ofClient int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytes, s.byClient[client]
}
