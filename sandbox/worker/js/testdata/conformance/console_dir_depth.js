const deep = { l1: { l2: { l3: { l4: { l5: { l6: { l7: 1 } } } } } } };
console.dir(deep, { depth: null });
console.dir(deep, { depth: Infinity });
console.dir(deep, { depth: 4 });
console.dir([[[[[[[1]]]]]]], { depth: null });
console.dir(new Map([[1, { a: { b: { c: { d: {} } } } }]]), { depth: null });
const long = {}; let cur = long; for (let i = 0; i < 30; i++) { cur.n = {}; cur = cur.n; } console.dir(long, { depth: null }); console.dir(long, { depth: 7 });
