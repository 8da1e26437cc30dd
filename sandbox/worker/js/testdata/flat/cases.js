// Array.prototype.flat and flatMap's differential corpus: each case runs
// under Node 20 (node cases.js > cases.golden) and in the playground
// (TestFlatAsNode), which compare line by line. A line is `name | text`
// (show's rendering of the result), or `name | ! Name: message` for what it
// threw.
const show = (v) => {
  if (Array.isArray(v)) {
    let out = "[";
    for (let i = 0; i < v.length; i++) out += (i ? "," : "") + (i in v ? show(v[i]) : "<hole>");
    return out + "]";
  }
  if (v && typeof v === "object") return (v.constructor && v.constructor.name || "null") + "{" + Object.keys(v).map((k) => k + ":" + show(v[k])).join(",") + "}";
  return typeof v === "string" ? JSON.stringify(v) : String(v);
};
const logged = (target, log) => new Proxy(target, {
  get(t, k, r) { log.push("get " + String(k)); return Reflect.get(t, k, r); },
  has(t, k) { log.push("has " + String(k)); return Reflect.has(t, k); },
});
class MyArray extends Array {}
const cases = {
  flatDefault: () => [1, [2, [3, [4]]]].flat(),
  flatTwo: () => [1, [2, [3, [4]]]].flat(2),
  flatInfinity: () => [1, [2, [3, [4, [5]]]]].flat(Infinity),
  flatZero: () => [1, [2]].flat(0),
  flatNegative: () => [1, [2]].flat(-1),
  flatNaN: () => [1, [2]].flat(NaN),
  flatFraction: () => [1, [2, [3]]].flat(1.9),
  flatStringDepth: () => [1, [2, [3]]].flat("2"),
  flatDepthObject: () => [1, [2, [3]]].flat({ valueOf() { return 2; } }),
  flatUndefinedDepth: () => [1, [2, [3]]].flat(undefined),
  flatHoles: () => [1, , [2, , 3], , ].flat(),
  flatUndefinedKept: () => [undefined, [undefined, null]].flat(),
  flatEmpty: () => [].flat(),
  flatEmptyNested: () => [[], [[]], [[], 1]].flat(),
  flatArrayLikeNotFlattened: () => [{ length: 1, 0: "x" }, "ab", [new String("cd")]].flat(),
  flatArrayLikeReceiver: () => Array.prototype.flat.call({ length: 3, 0: [1, 2], 2: 3 }),
  flatStringReceiver: () => Array.prototype.flat.call("ab"),
  flatNumberReceiver: () => Array.prototype.flat.call(5),
  flatNullReceiver: () => Array.prototype.flat.call(null),
  flatUndefinedReceiver: () => Array.prototype.flat.call(undefined),
  flatArguments: () => (function () { return Array.prototype.flat.call(arguments); })(1, [2, [3]]),
  flatNestedArguments: () => [(function () { return arguments; })(1, 2)].flat(),
  flatTypedArrayNotFlattened: () => show([new Uint8Array([1, 2])].flat()[0] instanceof Uint8Array),
  flatProtoElement: () => { Array.prototype[1] = "p"; try { return [0, , 2].flat(); } finally { delete Array.prototype[1]; } },
  flatGetterElements: () => { const log = []; const a = [1, 2]; Object.defineProperty(a, 0, { get() { log.push("g0"); return [7]; } }); return show(a.flat()) + " " + log.join(","); },
  flatProxyReceiver: () => { const log = []; const r = Array.prototype.flat.call(logged([1, , [2]], log)); return show(r) + " " + log.join(","); },
  flatProxyNested: () => { const log = []; const r = [logged([1, , 2], log)].flat(); return show(r) + " " + log.join(","); },
  flatProxyOfProxy: () => [new Proxy(new Proxy([1, [2]], {}), {})].flat(Infinity),
  flatRevokedNested: () => { const r = Proxy.revocable([], {}); r.revoke(); return [r.proxy].flat(); },
  flatRevokedDepthZero: () => { const r = Proxy.revocable([], {}); r.revoke(); return show([r.proxy].flat(0).length); },
  flatCycleInfinity: () => { const a = [1]; a.push(a); return a.flat(Infinity); },
  flatCycleFinite: () => { const a = [1]; a.push(a); return show(a.flat(3).length); },
  flatDeepOk: () => { let a = [1]; for (let i = 0; i < 3000; i++) a = [a]; return a.flat(Infinity); },
  flatDeepTooDeep: () => { let a = [1]; for (let i = 0; i < 20000; i++) a = [a]; return a.flat(Infinity); },
  flatSubclass: () => { const a = MyArray.from([1, [2]]); const r = a.flat(); return show(r instanceof MyArray) + show(r); },
  flatSpeciesNull: () => { const a = [1, [2]]; a.constructor = { [Symbol.species]: null }; return a.flat(); },
  flatSpeciesUndefined: () => { const a = [1, [2]]; a.constructor = undefined; return a.flat(); },
  flatSpeciesNotConstructor: () => { const a = [1]; a.constructor = { [Symbol.species]: 1 }; return a.flat(); },
  flatConstructorPrimitive: () => { const a = [1]; a.constructor = 1; return a.flat(); },
  flatSpeciesCustom: () => { const log = []; const a = [1, [2]]; a.constructor = { [Symbol.species]: function (n) { log.push("new " + n + " " + (new.target !== undefined)); return {}; } }; const r = a.flat(); return show(r) + " " + log.join(","); },
  flatSpeciesFrozen: () => { const a = [1, [2]]; a.constructor = { [Symbol.species]: function () { return Object.freeze([]); } }; return a.flat(); },
  flatSpeciesNonExtensible: () => { const a = [1]; a.constructor = { [Symbol.species]: function () { return Object.preventExtensions({}); } }; return a.flat(); },
  flatSpeciesSetter: () => { const log = []; const a = [1, [2]]; a.constructor = { [Symbol.species]: function () { return Object.defineProperty([], "0", { set(v) { log.push("set " + v); }, configurable: true }); } }; return show(a.flat()) + " " + log.join(","); },
  flatArraySpeciesOverridden: () => { const d = Object.getOwnPropertyDescriptor(Array, Symbol.species); Object.defineProperty(Array, Symbol.species, { get() { return MyArray; }, configurable: true }); try { return show([1, [2]].flat() instanceof MyArray); } finally { Object.defineProperty(Array, Symbol.species, d); } },
  flatOrderOfReads: () => { const log = []; const o = { get length() { log.push("len"); return 2; }, get 0() { log.push("g0"); return [1]; }, get 1() { log.push("g1"); return 2; } }; Array.prototype.flat.call(o, { valueOf() { log.push("depth"); return 1; } }); return log.join(","); },
  flatLengthProxyLie: () => Array.prototype.flat.call(new Proxy([], { get: (t, k) => (k === "length" ? 3 : k === "1" ? ["x"] : Reflect.get(t, k)), has: (t, k) => k === "1" || k === "2" })),
  flatName: () => [Array.prototype.flat.name, Array.prototype.flat.length, Array.prototype.flatMap.name, Array.prototype.flatMap.length].join(),
  flatToString: () => Function.prototype.toString.call(Array.prototype.flat),
  flatUnscopables: () => show(Array.prototype[Symbol.unscopables].flat) + show(Array.prototype[Symbol.unscopables].flatMap),
  flatThrowingGetter: () => [Object.defineProperty([], 0, { get() { throw new RangeError("getter"); } })].flat(),
  // flatMap
  flatMapBasic: () => [1, 2, 3].flatMap((x) => [x, x * 2]),
  flatMapOneLevel: () => [1, 2].flatMap((x) => [[x]]),
  flatMapArgs: () => { const a = ["a", , "c"]; const log = []; const that = {}; a.flatMap(function (v, i, arr) { log.push(v + i + (arr === a) + (this === that)); return v; }, that); return log.join(","); },
  flatMapThisUndefinedSloppy: () => { let t; [1].flatMap(function () { t = this; return 1; }); return show(t === globalThis || t === undefined); },
  flatMapNonCallable: () => [1].flatMap(1),
  flatMapMissing: () => [1].flatMap(),
  flatMapNullReceiver: () => Array.prototype.flatMap.call(null, (x) => x),
  flatMapArrayLikeResult: () => [1].flatMap(() => ({ length: 1, 0: 2 })),
  flatMapHolesInResult: () => [1].flatMap(() => [, 2, , ]),
  flatMapProxyResult: () => { const log = []; const r = [1].flatMap(() => logged([5, , 6], log)); return show(r) + " " + log.join(","); },
  flatMapMapperThrows: () => [1].flatMap(() => { throw new SyntaxError("mapper"); }),
  flatMapMutates: () => { const a = [1, 2, 3]; return [a.flatMap((x, i) => { if (i === 0) a.pop(); return x; }), a.length].join("|"); },
  flatMapGrows: () => { const a = [1, 2]; return a.flatMap((x) => { a.push(9); return x; }); },
  flatMapArgumentsReceiver: () => (function () { return Array.prototype.flatMap.call(arguments, (x) => [x, x]); })(1, 2),
  flatMapSubclass: () => { const r = MyArray.of(1, 2).flatMap((x) => [x]); return show(r instanceof MyArray) + show(r); },
  flatMapString: () => ["ab", "c"].flatMap((s) => s.split("")),
};
for (const [name, fn] of Object.entries(cases)) {
  let line;
  try {
    line = show(fn());
  } catch (e) {
    line = "! " + e.name + ": " + e.message;
  }
  console.log(name + " | " + line);
}
