package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"

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
// session) and is bounded: 100 keys of 64 KiB per tab, 10,000 tabs.
func hostFunctions(store *kvStore) map[string]sandbox.HostFunc {
	return map[string]sandbox.HostFunc{
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
		"time": func(context.Context, sandbox.HostCall) (json.RawMessage, error) {
			return json.Marshal(time.Now().UTC().Format(time.RFC3339Nano))
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
			return nil, store.set(c.Session, key, c.Args[1])
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
}

func kvKey(c sandbox.HostCall) (string, error) {
	var key string
	if len(c.Args) == 0 || json.Unmarshal(c.Args[0], &key) != nil || key == "" || len(key) > 256 {
		return "", fmt.Errorf("%s: the key must be a string of 1-256 bytes", c.Name)
	}
	return key, nil
}

// kvStore holds each tab's key/value pairs, evicting the least recently
// used tab past maxTabs. It is safe for concurrent use.
type kvStore struct {
	maxKeys, maxValue int

	mu   sync.Mutex                     // guards tabs and every tab's values
	tabs *simplelru.LRU[string, *kvTab] // by session id
}

type kvTab struct {
	vals map[string]json.RawMessage
}

// newKVStore returns a store of at most maxTabs tabs of 100 keys of 64 KiB.
func newKVStore(maxTabs int) *kvStore {
	tabs, err := simplelru.NewLRU[string, *kvTab](maxTabs, nil)
	if err != nil {
		panic(err) // only for a size < 1
	}
	return &kvStore{maxKeys: 100, maxValue: 64 << 10, tabs: tabs}
}

// tabLocked returns session's values, creating them when create is set. s.mu must be held.
func (s *kvStore) tabLocked(session string, create bool) *kvTab {
	if t, ok := s.tabs.Get(session); ok {
		return t
	}
	if !create {
		return nil
	}
	t := &kvTab{vals: map[string]json.RawMessage{}}
	s.tabs.Add(session, t)
	return t
}

func (s *kvStore) get(session, key string) json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tabLocked(session, false); t != nil {
		return t.vals[key]
	}
	return nil
}

func (s *kvStore) set(session, key string, v json.RawMessage) error {
	if len(v) > s.maxValue {
		return fmt.Errorf("kv.set: the value is %d bytes; the limit is %d", len(v), s.maxValue)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tabLocked(session, true)
	if _, ok := t.vals[key]; !ok && len(t.vals) >= s.maxKeys {
		return fmt.Errorf("kv.set: this tab already holds %d keys, the limit", s.maxKeys)
	}
	t.vals[key] = v
	return nil
}

func (s *kvStore) delete(session, key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tabLocked(session, false); t != nil {
		delete(t.vals, key)
	}
}

func (s *kvStore) keys(session string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tabLocked(session, false); t != nil {
		return slices.Sorted(maps.Keys(t.vals))
	}
	return []string{}
}
