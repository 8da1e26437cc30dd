// JSON.stringify with a space argument: nesting after an empty [] or {}, string
// and Number-object gaps, a replacer, toJSON.
console.log(JSON.stringify({ a: [], b: {}, c: [1, { d: [] }], e: 1 }, null, 2));
console.log(JSON.stringify([[], [1], {}], null, "--"));
console.log(JSON.stringify({ x: [{}], y: "s\u2028\ud800" }, null, new Number(3)));
console.log(JSON.stringify({ k: 1 }, null, "abcdefghijklmnop"));
console.log(JSON.stringify({ k: [1, 2] }, (k, v) => (typeof v === "number" ? v * 2 : v), 1.7));
console.log(JSON.stringify({ k: 1 }, ["k"], 20), JSON.stringify(undefined, null, 2), JSON.stringify("x", null, 2));
console.log(JSON.stringify({ t: { toJSON() { return [] } }, u: 2 }, null, 2));
