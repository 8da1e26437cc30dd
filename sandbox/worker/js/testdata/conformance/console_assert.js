// Node's console.assert prints through console.warn (stderr); sent to stdout to be recorded.
console.warn = console.log;
console.assert(false, {a: 1}, "x");
console.assert(false, "msg %s", "sub", {b: 2});
console.assert(false);
console.assert(0, 5, [1,2]);
console.assert(false, [1, [2]], 3);
console.assert(false, {toString() { return "custom %d" }}, 7);
console.assert(true, "nope");
try { console.assert(false, Symbol("s")) } catch (e) { console.log(e.message) }
try { console.assert(false, {toString() { throw new Error("boom") }}) } catch (e) { console.log(e.message) }
