package webapi_test

import (
	"testing"
)

func TestCryptoGetRandomValuesHostile(t *testing.T) {
	runHostile(t, []hostileCase{{"node's errors", `
const m = new Map(); m.set(m, m);
for (const a of [m, new Float32Array(2), new Uint8Array(65537), {get length(){console.log('GETTER');return 1}}, new Proxy(new Uint8Array(2), {get(){console.log('TRAP')}})]) {
  try { crypto.getRandomValues(a); console.log('ok', a.length) } catch (e) { console.log(e.name, e.code, e.message, e instanceof DOMException) }
}
try { crypto.getRandomValues() } catch (e) { console.log(e.name, e.message) }
console.log(crypto.getRandomValues(new Uint8ClampedArray(3)).length, crypto.getRandomValues(new BigInt64Array(2)).length)`, []string{
		"TypeMismatchError 17 The data argument must be an integer-type TypedArray true",
		"TypeMismatchError 17 The data argument must be an integer-type TypedArray true",
		"QuotaExceededError 22 The requested length exceeds 65,536 bytes true",
		"TypeMismatchError 17 The data argument must be an integer-type TypedArray true",
		"TypeMismatchError 17 The data argument must be an integer-type TypedArray true",
		"TypeError Failed to execute 'getRandomValues' on 'Crypto': 1 argument required, but only 0 present.",
		"3 2"}, ""}})
}

// TestCryptoDigestAlgorithmWithoutName reproduces issue 22: an algorithm
// object without `name` was a Go nil-pointer panic that ended the run with
// Go's text; Node rejects with a TypeError the snippet can catch.
func TestCryptoDigestAlgorithmWithoutName(t *testing.T) {
	runHostile(t, []hostileCase{{"rejects, catchable", `
const data = new Uint8Array([1, 2, 3]);
for (const alg of [{}, { name: undefined }, Object.create(null)]) {
  try { await crypto.subtle.digest(alg, data); console.log("resolved") } catch (e) { console.log(e.name, e instanceof TypeError) }
}
console.log(new Uint8Array(await crypto.subtle.digest({ name: "sha-1" }, data)).length)`, []string{
		"TypeError true", "TypeError true", "TypeError true", "20"}, ""}})
}
