const log = [];
const p = new Proxy({ a: 1 }, { get(t, k, r) { log.push(String(k)); return Reflect.get(t, k, r); }, has(t, k) { return k === "hidden" || k in t; } });
console.log(p.a, "hidden" in p, "b" in p, log.join(","), Reflect.ownKeys({ x: 1, [Symbol("s")]: 2 }).length);
