package webapi

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

	"github.com/playground-dev/playground/sandbox/worker/js/intrinsic"
	"github.com/playground-dev/playground/sandbox/worker/js/parity"
)

// integerTypedArray holds the export types of the integer typed arrays
// (Uint8ClampedArray exports as []uint8 too).
var integerTypedArray = map[reflect.Type]bool{
	reflect.TypeOf([]uint8(nil)): true, reflect.TypeOf([]int8(nil)): true, reflect.TypeOf([]uint16(nil)): true,
	reflect.TypeOf([]int16(nil)): true, reflect.TypeOf([]uint32(nil)): true, reflect.TypeOf([]int32(nil)): true,
	reflect.TypeOf([]uint64(nil)): true, reflect.TypeOf([]int64(nil)): true,
}

// Host is what the web APIs need from the runtime that installs them.
// Its throwing methods panic with the JS error (goja's way to throw from
// Go) and do not return.
type Host interface {
	// Throw throws a new error of the global class (TypeError, …).
	Throw(class, msg string)
	// ThrowDOM throws a DOMException named name.
	ThrowDOM(name, msg string)
	// DataViewBytes copies the bytes the DataView o views, through the
	// intrinsic getters; an error for anything but a DataView.
	DataViewBytes(o *goja.Object) ([]byte, error)
}

// Crypto is the Web Crypto subset snippets (and libraries such as uuid)
// rely on: crypto.getRandomValues, crypto.randomUUID and
// crypto.subtle.digest. Randomness comes from crypto/rand, or, when next
// is not nil (deterministic mode), from next's floats in [0, 1).
func Crypto(vm *goja.Runtime, h Host, next func() float64) *goja.Object {
	fill := func(b []byte) { _, _ = rand.Read(b) }
	if next != nil {
		fill = func(b []byte) {
			for i := range b {
				b[i] = byte(next() * 256)
			}
		}
	}
	o := vm.NewObject()
	must(parity.SetNative(vm, o, "getRandomValues", func(c goja.FunctionCall) goja.Value {
		if len(c.Arguments) == 0 {
			h.Throw("TypeError", "Failed to execute 'getRandomValues' on 'Crypto': 1 argument required, but only 0 present.")
		}
		// The type is read from goja (ExportType), not from the object: no
		// getter, Proxy trap or Symbol.toStringTag of the snippet runs, and
		// nothing is exported (a Map holding itself would recurse).
		arr, ok := c.Argument(0).(*goja.Object)
		if !ok || !integerTypedArray[arr.ExportType()] {
			h.ThrowDOM("TypeMismatchError", "The data argument must be an integer-type TypedArray")
		}
		v := reflect.ValueOf(arr.Export()) // a typed array exports its backing slice
		size := v.Len() * int(v.Type().Elem().Size())
		if size > 65536 { // Web Crypto API, getRandomValues: QuotaExceededError past 65,536 bytes
			h.ThrowDOM("QuotaExceededError", "The requested length exceeds 65,536 bytes")
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
	must(parity.SetNative(vm, o, "randomUUID", func(goja.FunctionCall) goja.Value {
		var b [16]byte
		fill(b[:])
		b[6] = b[6]&0x0f | 0x40 // version 4 (RFC 9562, section 5.4)
		b[8] = b[8]&0x3f | 0x80 // variant 10
		return vm.ToValue(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]))
	}))
	subtle := vm.NewObject()
	must(parity.SetNative(vm, subtle, "digest", func(c goja.FunctionCall) goja.Value { return digest(vm, h, c) }))
	must(subtle.Get("digest").ToObject(vm).DefineDataProperty("length", vm.ToValue(2), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE))
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
func digest(vm *goja.Runtime, h Host, c goja.FunctionCall) goja.Value {
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
			if name == nil || goja.IsUndefined(name) {
				// An algorithm object without a name: Node's WebIDL check
				// (Go's Get is nil for a missing property: no panic).
				h.Throw("TypeError", "Failed to normalize algorithm: Algorithm: name: Missing or not a string")
			}
		}
		if _, isSymbol := name.(*goja.Symbol); isSymbol {
			h.Throw("TypeError", "Cannot convert a Symbol value to a string")
		}
		newHash, ok := digests[strings.ToUpper(name.String())]
		if !ok || goja.IsUndefined(name) {
			h.ThrowDOM("NotSupportedError", "Unrecognized algorithm name")
		}
		data, ok := bufferSourceBytes(h, c.Argument(1))
		if !ok {
			h.Throw("TypeError", `Failed to execute 'digest' on 'SubtleCrypto': 2nd argument is not instance of ArrayBuffer, Buffer, TypedArray, or DataView.`)
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
func bufferSourceBytes(h Host, v goja.Value) (_ []byte, ok bool) {
	o, isObject := v.(*goja.Object)
	if !isObject {
		return nil, false
	}
	switch x := o.Export().(type) {
	case goja.ArrayBuffer:
		return bytes.Clone(x.Bytes()), true
	}
	if intrinsic.IsTypedArray(o) {
		var b bytes.Buffer // a typed array's elements, in memory's (little-endian) order
		if err := binary.Write(&b, binary.LittleEndian, o.Export()); err != nil {
			return nil, false
		}
		return b.Bytes(), true
	}
	b, err := h.DataViewBytes(o) // the intrinsic getters throw for anything but a DataView
	return b, err == nil
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
