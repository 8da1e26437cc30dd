const o = {}; let store = 0;
Object.defineProperty(o, "v", { get: () => store, set: (x) => { store = x * 2; }, enumerable: false });
o.v = 4;
console.log(o.v, Object.keys(o).length, JSON.stringify(Object.getOwnPropertyDescriptor(o, "v").enumerable));
const f = Object.freeze({ q: 1 });
try { "use strict"; f.q = 2; } catch (e) { console.log(e.name); }
console.log(Object.isFrozen(f), f.q);
