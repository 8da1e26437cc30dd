package js

import (
	"bytes"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"hash"
	"reflect"
	"strings"

	"github.com/dop251/goja"

	"github.com/playground-dev/playground/sandbox/worker/js/inspect"
)

// integerTypedArray holds the export types of the integer typed arrays
// (Uint8ClampedArray exports as []uint8 too).
var integerTypedArray = map[reflect.Type]bool{
	reflect.TypeOf([]uint8(nil)): true, reflect.TypeOf([]int8(nil)): true, reflect.TypeOf([]uint16(nil)): true,
	reflect.TypeOf([]int16(nil)): true, reflect.TypeOf([]uint32(nil)): true, reflect.TypeOf([]int32(nil)): true,
	reflect.TypeOf([]uint64(nil)): true, reflect.TypeOf([]int64(nil)): true,
}

// throwDOM throws a DOMException named name (its code follows from the
// name), as Web APIs do.
func (e *Runtime) throwDOM(name, msg string) {
	ctor := e.group("DOMException").Get("DOMException")
	o, err := e.vm.New(ctor, e.vm.ToValue(msg), e.vm.ToValue(name))
	if err != nil {
		panic(err)
	}
	e.markGoThrown(o)
	panic(o)
}

// cryptoObject is the Web Crypto subset snippets (and libraries such as
// uuid) rely on: crypto.getRandomValues and crypto.randomUUID. Randomness
// comes from crypto/rand, or from the run's seeded generator in
// deterministic mode.
func (e *Runtime) cryptoObject(deterministic bool) *goja.Object {
	fill := func(b []byte) { _, _ = rand.Read(b) }
	if deterministic {
		next := newRand(0xc0ffee)
		fill = func(b []byte) {
			for i := range b {
				b[i] = byte(next() * 256)
			}
		}
	}
	o := e.vm.NewObject()
	must(e.setNative(o, "getRandomValues", func(c goja.FunctionCall) goja.Value {
		if len(c.Arguments) == 0 {
			e.throw("TypeError", "Failed to execute 'getRandomValues' on 'Crypto': 1 argument required, but only 0 present.")
		}
		// The type is read from goja (ExportType), not from the object: no
		// getter, Proxy trap or Symbol.toStringTag of the snippet runs, and
		// nothing is exported (a Map holding itself would recurse).
		arr, ok := c.Argument(0).(*goja.Object)
		if !ok || !integerTypedArray[arr.ExportType()] {
			e.throwDOM("TypeMismatchError", "The data argument must be an integer-type TypedArray")
		}
		v := reflect.ValueOf(arr.Export()) // a typed array exports its backing slice
		size := v.Len() * int(v.Type().Elem().Size())
		if size > 65536 { // Web Crypto API, getRandomValues: QuotaExceededError past 65,536 bytes
			e.throwDOM("QuotaExceededError", "The requested length exceeds 65,536 bytes")
		}
		buf := make([]byte, 8)
		for i := range v.Len() {
			fill(buf)
			el := v.Index(i)
			if el.CanUint() {
				el.SetUint(binary.LittleEndian.Uint64(buf))
			} else {
				el.SetInt(int64(binary.LittleEndian.Uint64(buf)))
			}
		}
		return arr
	}))
	must(e.setNative(o, "randomUUID", func(goja.FunctionCall) goja.Value {
		var b [16]byte
		fill(b[:])
		b[6] = b[6]&0x0f | 0x40 // version 4 (RFC 9562, section 5.4)
		b[8] = b[8]&0x3f | 0x80 // variant 10
		return e.vm.ToValue(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]))
	}))
	subtle := e.vm.NewObject()
	must(e.setNative(subtle, "digest", e.digest))
	must(subtle.Get("digest").ToObject(e.vm).DefineDataProperty("length", e.vm.ToValue(2), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE))
	must(o.Set("subtle", subtle))
	return o
}

// digests are SubtleCrypto.digest's algorithms (Web Crypto API, section
// 30 "SHA"), by their names in upper case.
var digests = map[string]func() hash.Hash{"SHA-1": sha1.New, "SHA-256": sha256.New, "SHA-384": sha512.New384, "SHA-512": sha512.New}

// digest is crypto.subtle.digest(algorithm, data): a Promise of an
// ArrayBuffer holding data's SHA digest. algorithm is a name or an object
// with one ({name: "SHA-256"}), in any case; data an ArrayBuffer, a typed
// array or a DataView. An unknown algorithm rejects with a
// NotSupportedError DOMException, other data with a TypeError, as Node's.
// The other SubtleCrypto methods (keys, signing, encryption) are not
// provided: undefined.
func (e *Runtime) digest(c goja.FunctionCall) goja.Value {
	vm := e.vm
	promise, resolve, reject := vm.NewPromise()
	func() {
		defer func() {
			// What the checks below or a getter of the snippet's throw
			// rejects the promise, as Node's digest does; an interrupt
			// (the run's limit) goes on.
			switch r := recover().(type) {
			case nil:
			case *goja.Object:
				must(reject(r))
			case *goja.Exception:
				must(reject(r.Value()))
			default:
				panic(r)
			}
		}()
		name := c.Argument(0)
		if o, ok := name.(*goja.Object); ok {
			name = o.Get("name") // a getter of the snippet's runs, as in Node
		}
		if _, isSymbol := name.(*goja.Symbol); isSymbol {
			e.throw("TypeError", "Cannot convert a Symbol value to a string")
		}
		newHash, ok := digests[strings.ToUpper(name.String())]
		if !ok || goja.IsUndefined(name) {
			e.throwDOM("NotSupportedError", "Unrecognized algorithm name")
		}
		data, ok := e.bufferSourceBytes(c.Argument(1))
		if !ok {
			e.throw("TypeError", `Failed to execute 'digest' on 'SubtleCrypto': 2nd argument is not instance of ArrayBuffer, Buffer, TypedArray, or DataView.`)
		}
		h := newHash()
		h.Write(data)
		must(resolve(vm.NewArrayBuffer(h.Sum(nil))))
	}()
	return vm.ToValue(promise)
}

// bufferSourceBytes copies the bytes a BufferSource views (an ArrayBuffer,
// a typed array or a DataView), read from goja's export: no getter of the
// snippet's runs. ok is false for any other value.
func (e *Runtime) bufferSourceBytes(v goja.Value) (_ []byte, ok bool) {
	o, isObject := v.(*goja.Object)
	if !isObject {
		return nil, false
	}
	switch x := o.Export().(type) {
	case goja.ArrayBuffer:
		return bytes.Clone(x.Bytes()), true
	}
	if inspect.IsTypedArray(o) {
		var b bytes.Buffer // a typed array's elements, in memory's (little-endian) order
		if err := binary.Write(&b, binary.LittleEndian, o.Export()); err != nil {
			return nil, false
		}
		return b.Bytes(), true
	}
	b, err := e.enc.DataViewBytes(o) // the intrinsic getters throw for anything but a DataView
	return b, err == nil
}
