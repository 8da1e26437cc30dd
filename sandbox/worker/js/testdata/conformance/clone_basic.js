const src = { a: 1, d: new Date(0), m: new Map([[1, { x: 2 }]]), s: new Set([1, 2]), arr: [1, [2, 3]], re: /ab+c/gi };
src.self = src;
const c = structuredClone(src);
console.log(c !== src, c.self === c, c.d instanceof Date, c.d.getTime(), c.m.get(1).x, c.m.get(1) !== src.m.get(1), [...c.s].join(","), JSON.stringify(c.arr), c.re.source, c.re.flags);
