package js

import (
	"encoding/json"
	"slices"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/jsonvalue"
)

// Data in and out of a run: the input parsed into frozen values, JSON
// text of the run's own parsed by jsonvalue, and output and facts encoded
// as JSON (jsonvalue's plain-data encoder, else the preview encoder).

// parseInput turns the run's input JSON into a deep-frozen value.
func (e *Runtime) parseInput() (goja.Value, error) {
	if len(e.input) == 0 {
		return goja.Undefined(), nil
	}
	if fastJSON {
		p := e.jsonParser()
		if v, ok := p.Parse(e.input, true); ok {
			for _, o := range p.Built() {
				_, _ = e.b.Freeze(goja.Undefined(), o)
			}
			return v, nil
		}
	}
	v, err := e.b.JSONParse(goja.Undefined(), e.vm.ToValue(string(e.input)))
	if err != nil {
		return nil, err
	}
	e.deepFreeze(v)
	return v, nil
}

// parseJSON is JSON.parse of the run's own JSON text (the input, a host
// reply): jsonvalue's parser, or the intrinsic where it does not take it.
func (e *Runtime) parseJSON(text []byte) (goja.Value, error) {
	if fastJSON {
		if v, ok := e.jsonParser().Parse(text, false); ok {
			return v, nil
		}
	}
	return e.b.JSONParse(goja.Undefined(), e.vm.ToValue(string(text)))
}

// fastJSON selects package jsonvalue for plain data in and out; tests turn
// it off to compare with the intrinsic and the preview encoder.
var fastJSON = true

func (e *Runtime) jsonParser() *jsonvalue.Parser {
	if e.jsonIn == nil {
		e.jsonIn = jsonvalue.NewParser(e.vm)
	}
	return e.jsonIn
}

// deepFreeze freezes a value parsed from JSON (plain data: no accessors, no
// cycles) at every depth: input is read-only all the way down.
func (e *Runtime) deepFreeze(v goja.Value) {
	stack := []goja.Value{v} // iterative: JSON may nest deeper than any stack we would want
	for len(stack) > 0 {
		o, ok := stack[len(stack)-1].(*goja.Object)
		stack = stack[:len(stack)-1]
		if !ok {
			continue
		}
		for _, k := range o.Keys() {
			stack = append(stack, o.Get(k))
		}
		_, _ = e.b.Freeze(goja.Undefined(), o)
	}
}

// endOutput reads the run's output (a script's output global) and encodes
// it, once its program has ended, as a call into the runtime: a getter
// read there (the output global's, a plain object's accessor) is the
// snippet's code, which may throw or be stopped by the deadline or a
// cancel; err then says so, as a task's error does. ok is false when the
// output does not fit (jsonValue); out is nil when there is none.
func (e *Runtime) endOutput() (json.RawMessage, bool, error) {
	if !e.script {
		if !e.gotOutput {
			return nil, true, nil
		}
		if _, obj := e.output.(*goja.Object); !obj {
			// A primitive has no getter to run: no call needed.
			out, ok := e.jsonValue(e.output, e.lim.MaxOutputBytes+1)
			return out, ok, nil
		}
	}
	return e.endOutputCall()
}

// endOutputCall is endOutput's call into the runtime (its variables
// escape into the closure, so a plain run never makes them).
func (e *Runtime) endOutputCall() (out json.RawMessage, ok bool, err error) {
	ok = true
	f, _ := goja.AssertFunction(e.vm.ToValue(func(goja.FunctionCall) goja.Value {
		if e.script {
			e.scriptOutput()
		}
		if e.gotOutput {
			out, ok = e.jsonValue(e.output, e.lim.MaxOutputBytes+1)
		}
		return goja.Undefined()
	}))
	_, err = f(goja.Undefined())
	return out, ok, err
}

// jsonValue encodes v for facts and output, whole, within about budget
// bytes of JSON; ok is false when v does not fit (or nests deeper than
// inspect.NewJSONEncoder): facts and output are data, and a cut copy would be
// silently wrong. Plain data (jsonvalue.Encoder) is written straight from
// the values; anything else as the preview encoder shows it.
func (e *Runtime) jsonValue(v goja.Value, budget int) (_ json.RawMessage, ok bool) {
	b, owned, ok := e.jsonText(v, budget)
	if ok && !owned {
		b = slices.Clone(b)
	}
	return b, ok
}

// jsonText is jsonValue without the copy: owned says whether the text is
// the caller's; otherwise it is the encoder's buffer, valid until the next
// jsonText or jsonValue (facts compare it with what they sent and copy
// only what they send).
func (e *Runtime) jsonText(v goja.Value, budget int) (_ json.RawMessage, owned, ok bool) {
	e.jsonDeep = false
	if _, obj := v.(*goja.Object); obj && fastJSON { // a primitive costs the preview encoder nothing
		if e.jsonOut == nil {
			e.jsonOut = jsonvalue.NewEncoder(e.vm)
		}
		if b, ok := e.jsonOut.Encode(v, budget); ok {
			return b, false, true
		}
		if ie := e.jsonOut.Interrupted(); ie != nil {
			// A getter was stopped (the deadline, a cancel): the run ends
			// with that cause, and the code that runs next, if any, is
			// stopped too; the value is shown below without its getters.
			if cause, ok := ie.Value().(error); ok && e.stop == nil {
				e.stop = cause
			}
			e.vm.Interrupt(ie.Value())
		}
	}
	p := e.jsonEn.EncodeBudget(v, budget)
	if !e.jsonEn.Complete() {
		e.jsonDeep = e.jsonEn.CutDeep()
		return nil, true, false
	}
	b, err := json.Marshal(p)
	if err != nil {
		return json.RawMessage(`null`), true, true
	}
	return b, true, true
}
