package js

import (
	"bytes"
	"encoding/json"
	"slices"
	"time"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// factStore backs the `facts` object: a plain-looking object whose
// top-level sets and deletes emit fact events at once, and whose nested
// mutations are found by flush, which re-encodes every key and emits the
// ones that changed. flush runs whenever the run yields (after every task)
// and when it ends.
//
// Rapid sets of one key are coalesced: within one task a key is sent at
// once the first time and then at most every factInterval; the sets between
// are sent by the next flush as one event with the final value. A loop of
// 100,000 assignments sends a handful of events, never the last one lost.
// It lives on the runtime's goroutine.
type factStore struct {
	e    *Runtime
	obj  *goja.Object
	keys []string
	vals map[string]goja.Value
	sent map[string]json.RawMessage // last value emitted per key
	// sentAt is when (on the run's clock) each key was last emitted in the
	// current task; flush clears it.
	sentAt map[string]time.Duration
}

// factInterval is how often one key may be sent within a single task.
const factInterval = 50 * time.Millisecond

func newFactStore(e *Runtime) *factStore {
	f := &factStore{e: e, vals: map[string]goja.Value{}, sent: map[string]json.RawMessage{}, sentAt: map[string]time.Duration{}}
	f.obj = e.vm.NewDynamicObject(f)
	return f
}

// Get implements goja.DynamicObject.
func (f *factStore) Get(key string) goja.Value { return f.vals[key] }

// Has implements goja.DynamicObject.
func (f *factStore) Has(key string) bool { _, ok := f.vals[key]; return ok }

// Keys implements goja.DynamicObject.
func (f *factStore) Keys() []string { return slices.Clone(f.keys) }

// Set implements goja.DynamicObject: it stores val and emits its fact.
func (f *factStore) Set(key string, val goja.Value) bool {
	if _, ok := f.vals[key]; !ok {
		f.keys = append(f.keys, key)
	}
	f.vals[key] = val
	now := f.e.clock.now()
	if at, ok := f.sentAt[key]; ok && now-at < factInterval {
		return true // coalesced: the next flush sends the final value
	}
	if v := f.e.jsonValue(val); !bytes.Equal(v, f.sent[key]) {
		f.sentAt[key] = now
		f.emit(key, v)
	}
	return true
}

// Delete implements goja.DynamicObject: it removes key and emits a deletion.
func (f *factStore) Delete(key string) bool {
	if _, ok := f.vals[key]; !ok {
		return true
	}
	delete(f.vals, key)
	f.keys = slices.DeleteFunc(f.keys, func(k string) bool { return k == key })
	delete(f.sent, key)
	f.e.send(pipe.Event{Kind: pipe.EventFact, Key: key, Value: json.RawMessage("null"), Deleted: true})
	return true
}

func (f *factStore) emit(key string, v json.RawMessage) {
	f.sent[key] = v
	f.e.send(pipe.Event{Kind: pipe.EventFact, Key: key, Value: v})
}

// flush emits the facts whose encoding changed since they were last sent:
// nested mutations such as facts.todos.push(x).
func (f *factStore) flush() {
	clear(f.sentAt)
	for _, k := range f.keys {
		v := f.e.jsonValue(f.vals[k])
		if !bytes.Equal(v, f.sent[k]) {
			f.emit(k, v)
		}
	}
}

// snapshot returns the current facts, encoded.
func (f *factStore) snapshot() map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(f.keys))
	for _, k := range f.keys {
		if v, ok := f.sent[k]; ok {
			out[k] = v
		} else {
			out[k] = f.e.jsonValue(f.vals[k])
		}
	}
	return out
}
