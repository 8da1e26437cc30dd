const a = [5, 3, 1, 4, 2]; a.sort((x, y) => { a.length = 0; return x - y; }); console.log(a, a.length);
const b = [5, 3, 1, 4, 2]; b.sort((x, y) => { b.length = 2; return x - y; }); console.log(b, b.length);
const c = [5, undefined, , 3, 1, , 4, 2]; c.sort(); console.log(c, c.length);
console.log([5, 3, 1, 4, 2, 10, 1].sort().join());
console.log(["\uFF61", "\uD83D\uDE00", "b", "a"].sort().map((s) => s.codePointAt(0)));
const o = { length: 4, 0: "b", 2: "a", 3: undefined }; console.log(Array.prototype.sort.call(o));
console.log(Array.from({ length: 30 }, (_, i) => ({ k: i % 3, i })).sort((x, y) => x.k - y.k).map((v) => v.i).join());
try { [1, 2].sort(5); } catch (e) { console.log(e.name, e.message); }
console.log(Array.prototype.sort.length, Array.prototype.sort.name, String(Array.prototype.sort));
