package js

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/pipe"
)

// factStore backs the `facts` object: a plain-looking object whose
// top-level sets and deletes emit fact events at once, and whose nested
// mutations are found by flush, which re-encodes every key and emits the
// ones that changed. flush runs whenever the run yields (after every task,
// within a share of the run's time: taskEnd) and when it ends (final: not
// again when the last task end scanned everything and no code ran since).
//
// Rapid sets of one key are coalesced: within one task a key is sent at
// once its first factBurst times and then at most every factInterval; the
// sets between are sent by the next flush as one event with the final
// value. A loop of 100,000 assignments sends a handful of events, never the
// last one lost; a few sets in a row are each sent at once, so they reach
// done.facts even when the run is then killed inside a builtin (which
// never flushes).
// It lives on the runtime's goroutine.
//
// The snapshot (done.facts) is what was sent: every key's last emitted
// value. Its bytes (keys and values) are capped by Limits.MaxFactsBytes; a
// change past the cap is not sent and ends the run (errFactsLimit).
type factStore struct {
	e     *Runtime
	obj   *goja.Object
	keys  []string
	vals  map[string]goja.Value
	sent  map[string]json.RawMessage // last value emitted per key
	bytes int                        // Σ len(key)+len(sent[key])
	// sentAt is when (on the run's clock) each key was last emitted in the
	// current task; flush clears it.
	sentAt map[string]time.Duration
	sentN  map[string]int // how often each key was emitted in the current task
	// scanCost is the wall time the task-end scans took (taskEnd).
	scanCost time.Duration
	// scanned is whether the last task end (taskEnd) scanned every key
	// and no fact was set or deleted since: when the run then ends by
	// itself, no code ran after that scan and its final flush has nothing
	// to find (final).
	scanned bool
}

// scanShare and scanAllowance bound the task-end scans for nested changes
// (taskEnd): they may take a tenth of the run's time plus 2 ms. A run that
// holds a large fact and yields thousands of times (a timer loop) would
// otherwise spend most of its time re-encoding it.
const (
	scanShare     = 10
	scanAllowance = 2 * time.Millisecond
)

// taskEnd runs when a task ends: the keys set during the task whose
// later sets were coalesced are sent, and every key is scanned for nested
// changes (flush) while the scans stay within their share of the run's
// time; past it, nested changes wait for a task that is within it again,
// or for the run's end. A deterministic run always scans (its event
// stream must not depend on timing).
func (f *factStore) taskEnd() {
	if f.e.deterministic || f.scanCost <= f.e.clock.now()/scanShare+scanAllowance {
		start := time.Now()
		f.scanned = true // a getter the scan runs may set a fact: Set clears it
		all := f.flush(false)
		f.scanned = f.scanned && all
		f.scanCost += time.Since(start)
		return
	}
	f.scanned = false
	f.flush(true)
}

// final is the flush when the run ends (Execute), after the code ran
// without an error (ended): when the last task end scanned every key,
// which is the last thing a run that ends by itself does (afterTask), no
// code ran since and nothing can have changed, so the facts are not
// encoded again.
func (f *factStore) final(ended bool) {
	if ended && f.scanned {
		return
	}
	f.flush(false)
}

// factInterval is how often one key may be sent within a single task.
const factInterval = 50 * time.Millisecond

// factBurst is how many sets of one key a task sends at once before
// coalescing them.
const factBurst = 8

// FactsSymbol is the registered symbol (Symbol.for(FactsSymbol)) under
// which the global object holds the run's facts object, the same one the
// "playground" module exports. It is the fact API of operator library
// adapters (README, "Libraries that keep their own state"): an adapter
// cannot import "playground", so it reads
// globalThis[Symbol.for("playground.facts")] and assigns or deletes keys.
const FactsSymbol = "playground.facts"

func newFactStore(e *Runtime) *factStore {
	f := &factStore{e: e, vals: map[string]goja.Value{}, sent: map[string]json.RawMessage{}, sentAt: map[string]time.Duration{}, sentN: map[string]int{}}
	f.obj = e.vm.NewDynamicObject(f)
	return f
}

// defineGlobal puts the facts object on the global object under
// Symbol.for(FactsSymbol). Only a program that may reach anything (a
// library, a computed member of globalThis) can read it there, so install
// adds it for those only (needFactsGlobal): it builds goja's Symbol.
func (f *factStore) defineGlobal() {
	e := f.e
	symFor, ok := goja.AssertFunction(e.vm.Get("Symbol").ToObject(e.vm).Get("for"))
	if !ok {
		panic("Symbol.for is not a function")
	}
	sym, err := symFor(goja.Undefined(), e.vm.ToValue(FactsSymbol))
	must(err)
	must(e.vm.GlobalObject().DefineDataPropertySymbol(sym.(*goja.Symbol), f.obj, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE))
}

// Get implements goja.DynamicObject.
func (f *factStore) Get(key string) goja.Value { return f.vals[key] }

// Has implements goja.DynamicObject.
func (f *factStore) Has(key string) bool { _, ok := f.vals[key]; return ok }

// Keys implements goja.DynamicObject.
func (f *factStore) Keys() []string { return slices.Clone(f.keys) }

// Set implements goja.DynamicObject: it stores val and emits its fact.
func (f *factStore) Set(key string, val goja.Value) bool {
	f.scanned = false
	if _, ok := f.vals[key]; !ok {
		f.keys = append(f.keys, key)
	}
	f.vals[key] = val
	now := f.e.clock.now()
	if at, ok := f.sentAt[key]; ok && f.sentN[key] >= factBurst && now-at < factInterval {
		return true // coalesced: the next flush sends the final value
	}
	v, owned, ok := f.e.jsonText(val, f.e.lim.MaxFactsBytes+1)
	if !ok {
		f.e.limit(f.e.factsLimit()) // larger than all the facts may be, or nested too deep
		return true
	}
	if !bytes.Equal(v, f.sent[key]) {
		f.sentAt[key] = now
		f.sentN[key]++
		f.emit(key, v, owned)
	}
	return true
}

// Delete implements goja.DynamicObject: it removes key and emits a deletion.
func (f *factStore) Delete(key string) bool {
	f.scanned = false
	if _, ok := f.vals[key]; !ok {
		return true
	}
	delete(f.vals, key)
	f.keys = slices.DeleteFunc(f.keys, func(k string) bool { return k == key })
	if old, ok := f.sent[key]; ok && f.e.send(pipe.Event{Kind: pipe.EventFact, Key: key, Value: json.RawMessage("null"), Deleted: true}) {
		delete(f.sent, key)
		f.bytes -= len(key) + len(old)
	}
	return true
}

// emit sends key's new value unless it would take the snapshot past
// MaxFactsBytes, which ends the run instead. Unless owned, v is the
// encoder's (jsonText), copied when it is sent.
func (f *factStore) emit(key string, v json.RawMessage, owned bool) {
	n := f.bytes + len(key) + len(v)
	if old, ok := f.sent[key]; ok {
		n -= len(key) + len(old)
	}
	if n > f.e.lim.MaxFactsBytes {
		f.e.limit(errFactsLimit)
		return
	}
	if !owned {
		v = slices.Clone(v)
	}
	if f.e.send(pipe.Event{Kind: pipe.EventFact, Key: key, Value: v}) {
		f.sent[key], f.bytes = v, n
	}
}

// flush emits the facts whose encoding changed since they were last sent:
// nested mutations such as facts.todos.push(x), and sets that were
// coalesced. With onlySet it looks only at the keys set in the current task.
// It reports whether it looked at every key and the run goes on (no limit
// or interrupt stopped it).
func (f *factStore) flush(onlySet bool) (all bool) {
	all = !onlySet
	for _, k := range f.keys {
		if _, set := f.sentAt[k]; onlySet && !set {
			continue
		}
		v, owned, ok := f.e.jsonText(f.vals[k], f.e.lim.MaxFactsBytes+1)
		if !ok {
			f.e.limit(f.e.factsLimit())
			all = false
			break
		}
		if !bytes.Equal(v, f.sent[k]) {
			f.emit(k, v, owned)
		}
	}
	clear(f.sentAt)
	clear(f.sentN)
	return all && f.e.stop == nil
}

// snapshot returns the facts as sent: what the parent's mirror of the fact
// events holds too. After the final flush that is every fact, unless a
// limit stopped the run first.
func (f *factStore) snapshot() map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(f.sent))
	for _, k := range f.keys {
		if v, ok := f.sent[k]; ok {
			out[k] = v
		}
	}
	return out
}

// errFactsLimit stops a run whose facts grew past Limits.MaxFactsBytes;
// errFactsDepth one whose fact nests deeper than inspect.MaxJSONDepth.
var (
	errFactsLimit = errors.New("facts limit reached")
	errFactsDepth = errors.New("a fact nested too deep")
)

// factsLimit is why the fact jsonValue just refused ends the run.
func (e *Runtime) factsLimit() error {
	if e.jsonDeep {
		return errFactsDepth
	}
	return errFactsLimit
}
