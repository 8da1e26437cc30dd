const m = new Map([["a", 1]]); m.set(NaN, "nan"); m.set(-0, "zero");
console.log(m.get(NaN), m.get(0), m.size, [...m.keys()].map(String).join());
const s = new Set([1, 1, 2, "2"]); const wm = new WeakMap(); const k = {}; wm.set(k, 3);
console.log(s.size, wm.get(k), wm.has({}));
