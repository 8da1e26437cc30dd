const deep = { a: { b: { c: { d: 1 } } }, arr: [[1, [2, [3]]]] };
console.dir(deep);
console.dir(deep, { depth: 0 });
console.dir(deep, { depth: null });
console.dir(deep, { depth: Infinity });
console.dir(deep, { depth: 1 });
console.dir("str");
console.dir({ x: 1 }, { depth: -1 });
console.dir();
