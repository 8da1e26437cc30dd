class Money { constructor(c) { this.c = c } toString() { return `${this.c / 100} USD` } }
class Plain { constructor() { this.a = { b: { c: 1 } } } }
class MyErr extends Error {}
console.log("%s|%s|%s", new Money(1234), new Plain(), { a: { b: 1 }, s: "x" });
console.log("%s", { toString() { return "own" } }, Object.create(null), new Map([[1, { a: 1 }]]));
console.log("%s", new MyErr("boom").message, -0, 12n, Symbol("q"), undefined, null, "str");
console.log("%s", () => 1, function named() { return 2 }, class A {});
console.log("%s", [new Money(5)], { n: new Money(7) }, Object.assign(Object.create({ toString() { return "proto" } }), { x: 1 }));
try { console.log("%s", { toString() { throw new Error("from toString") } }) } catch (e) { console.log("thrown:", e.message) }
class P { [Symbol.toPrimitive]() { return "prim" } }
console.log("%s|%s|%s|%s", new URL("http://a"), new URLSearchParams("a=1&b=2"), new P(), new Date(0));
