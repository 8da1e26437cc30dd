console.log(JSON.stringify({ u: undefined, f() {}, n: NaN, i: -Infinity, d: new Date(0), nested: [undefined] }));
console.log(JSON.stringify({ b: 1, a: [1, { c: 2 }] }, null, 2));
console.log(JSON.parse('{"x":[1,2]}', (k, v) => (typeof v === "number" ? v * 10 : v)).x.join());
