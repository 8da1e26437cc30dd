// %TypedArray%.from of primitives: the base64-to-bytes idiom iterates a string by code points.
const b64 = btoa("hi!");
console.log(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
console.log(Uint8Array.from("123"), Int16Array.from("😀a", (c) => c.length), Uint8Array.from(5), Float32Array.from(true));
try { Uint8Array.from(null) } catch (e) { console.log(e.constructor.name) }
try { Uint8Array.from(Symbol("s")) } catch (e) { console.log(e.constructor.name) }
console.log(BigInt64Array.from("12", (c) => BigInt(c)));
