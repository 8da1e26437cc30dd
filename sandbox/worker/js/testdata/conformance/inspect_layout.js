// util.inspect's layout: line breaking at 80 columns, grouped numeric and
// short arrays, depth 2, quotes, keys, null prototypes, nested errors' stacks.
console.log({ alpha: "aaaaaaaaaaaa", beta: "bbbbbbbbbbbbbbbb", gamma: "cccccccccccccc", delta: "ddddddddddd" });
console.log(Array.from({ length: 30 }, (_, i) => i * 7));
console.log(Array.from({ length: 26 }, (_, i) => String.fromCharCode(97 + i).repeat(i % 4 + 1)));
console.log(Array.from({ length: 120 }, (_, i) => i));
console.log({ a: { b: { c: { d: { e: 1 } } } } }, [[[[1]]]], { m: new Map([[1, { x: { y: 1 } }]]) });
console.log(["it's", 'say "hi"', `both ' and "`, "tab\there", "nul\0", "\x7f", "é ü 中文"]);
console.log({ "a-b": 1, $dollar: 2, _ok: 3, "1x": 4, ünï: 5, "": 6 });
console.log(Object.create(null), Object.assign(Object.create(null), { x: 1 }), new WeakMap(), new WeakSet());
console.log({ list: [1, 2, 3], nested: { deeper: { deepest: { gone: true } } }, text: "a fairly long string value" });
console.log(new Map([["first key", { value: 1, more: "text here" }], ["second key", { value: 2, more: "and here" }]]));
console.log(new Set(Array.from({ length: 12 }, (_, i) => "item" + i)));
console.log({ s: "line one\nline two\nline three of a long multi-line string value" });
console.log([{ id: 1, name: "one", tags: ["a", "b"] }, { id: 2, name: "two", tags: [] }, { id: 3, name: "three", tags: ["c"] }]);
console.log([1.5, -0, NaN, 1e21, 2n ** 70n, -3]);
console.log(new Array(5), [1, , , 4]);
console.log([[1, 2, [3, 4, [5, [6]]]], { k: [{ k: [{ k: 1 }] }] }]);
console.log(new Uint16Array(20).map((_, i) => i * 1000));
console.log({ fn() {}, arrow: () => 1, anon: function () {} });
console.log(Array.from({ length: 8 }, (_, i) => ({ i })));
console.table([{ a: { x: 1, y: [1, 2, 3, 4, 5] }, b: [1, 2, 3, 4, 5, 6], c: "s" }, { a: { p: 1, q: 2, r: 3 } }]);
