package js

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"reflect"

	"github.com/dop251/goja"
)

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
	must(o.Set("getRandomValues", func(c goja.FunctionCall) goja.Value {
		arr, ok := c.Argument(0).(*goja.Object)
		if !ok {
			e.throw("TypeError", "crypto.getRandomValues: the argument must be an integer typed array")
		}
		v := reflect.ValueOf(arr.Export())
		switch arr.ExportType() {
		case reflect.TypeOf([]byte(nil)), reflect.TypeOf([]int8(nil)), reflect.TypeOf([]uint16(nil)), reflect.TypeOf([]int16(nil)),
			reflect.TypeOf([]uint32(nil)), reflect.TypeOf([]int32(nil)), reflect.TypeOf([]uint64(nil)), reflect.TypeOf([]int64(nil)):
		default:
			e.throw("TypeError", "crypto.getRandomValues: the argument must be an integer typed array")
		}
		size := v.Len() * int(v.Type().Elem().Size())
		if size > 65536 { // Web Crypto API, getRandomValues: QuotaExceededError past 65,536 bytes
			e.throw("RangeError", fmt.Sprintf("crypto.getRandomValues: %d bytes requested; the limit is 65536", size))
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
	must(o.Set("randomUUID", func(goja.FunctionCall) goja.Value {
		var b [16]byte
		fill(b[:])
		b[6] = b[6]&0x0f | 0x40 // version 4 (RFC 9562, section 5.4)
		b[8] = b[8]&0x3f | 0x80 // variant 10
		return e.vm.ToValue(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]))
	}))
	return o
}
