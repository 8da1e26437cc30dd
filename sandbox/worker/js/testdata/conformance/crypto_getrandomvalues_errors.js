const m = new Map(); m.set(m, m);
for (const a of [m, new Float32Array(2), new Uint8Array(65537), { get length() { console.log("GETTER"); return 1; } }]) {
  try { crypto.getRandomValues(a); console.log("ok", a.length); } catch (e) { console.log(e.name, e.code, e.message, e instanceof DOMException); }
}
try { crypto.getRandomValues(); } catch (e) { console.log(e.name, e.message); }
console.log(crypto.getRandomValues(new Uint8ClampedArray(3)).length, crypto.getRandomValues(new BigInt64Array(2)).length);
