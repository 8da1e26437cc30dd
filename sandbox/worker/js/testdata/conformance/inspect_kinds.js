// Functions, classes, promises, symbol keys and errors as util.inspect prints them.
class A {} class B extends A {} const C = class {}; class D extends Array {}
console.log(A, B, C, D, async function af() {}, function* gf() {}, async () => 1, Map, Math.max, [A], { B });
const rejected = Promise.reject(new RangeError("no")); rejected.catch(() => {});
console.log(Promise.resolve(5), new Promise(() => {}), Promise.resolve({ a: [1] }), [Promise.resolve("s")]);
console.log({ [Symbol("k")]: 1, a: 2, [Symbol.iterator]: 3 }, Object.defineProperty({}, Symbol("hidden"), { value: 1 }));
console.log({ get [Symbol("g")]() { return 1; }, s: Symbol("v") });
const e = new TypeError("typed"); e.code = "E_CODE";
console.log(Object.keys(e), e.name, e.message, e.code, String(e));
