// JSON.stringify's differential corpus: each case runs under Node 20
// (node cases.js > cases.golden) and in the playground (TestStringifyAsNode),
// which compare line by line. A line is `name | "text"` (the result, every
// code unit outside printable ASCII as \uXXXX), `name | undefined`, or
// `name | ! Name: message` for what it threw.
const S = JSON.stringify;
const trace = (log) => new Proxy({}, { get: (t, k) => (...a) => { log.push(String(k) + (typeof a[1] === "string" || typeof a[1] === "number" ? " " + String(a[1]) : "")); return Reflect[k](...a); } });
const traced = (target) => { const log = []; return [new Proxy(target, trace(log)), log]; };
function Legacy() { this.x = 1; }
Legacy.prototype.y = 2;
class Point { constructor() { this.x = 1; this.y = 2; } get sum() { return 3; } }
class MyArray extends Array {}
class Named {}
const cases = {
  // primitives
  undefinedTop: () => S(undefined),
  nullTop: () => S(null),
  trueTop: () => S(true),
  falseTop: () => S(false),
  string: () => S("abc"),
  emptyString: () => S(""),
  integer: () => S(42),
  negZero: () => S(-0),
  negZeroInArray: () => S([-0, 0, -0.0]),
  nanInf: () => S([NaN, Infinity, -Infinity]),
  numbers: () => S([0.1, 1e21, 1e-7, 123456789012345680000, 5e-324, 1.7976931348623157e308, -1.5, 2 ** 53, 1e15, 1e16, 0.000001, 123.456e10]),
  functionTop: () => S(function () {}),
  symbolTop: () => S(Symbol("s")),
  bigintTop: () => S(1n),
  bigintInObject: () => S({ a: 1n }),
  bigintBoxed: () => S(Object(2n)),
  bigintToJSONProto: () => { BigInt.prototype.toJSON = function () { return this.toString() + "n"; }; try { return S({ a: 5n, b: [6n], c: Object(7n) }); } finally { delete BigInt.prototype.toJSON; } },
  bigintPrototype: () => S(BigInt.prototype),
  // boxed
  boxedNumber: () => S(new Number(3)),
  boxedString: () => S(new String("s")),
  boxedBoolean: () => S([new Boolean(false), new Boolean(true)]),
  boxedNumberValueOf: () => { const n = new Number(3); n.valueOf = () => 7; return S({ n }); },
  boxedStringToString: () => { const s = new String("a"); s.toString = () => "b"; return S([s]); },
  boxedBooleanValueOfIgnored: () => { const b = new Boolean(false); b.valueOf = () => true; return S(b); },
  boxedSymbol: () => S(Object(Symbol("x"))),
  protoBoxes: () => S([Number.prototype, String.prototype, Boolean.prototype]),
  // objects and keys
  plain: () => S({ a: 1, b: "x", c: null, d: [1, 2], e: { f: true } }),
  keyOrder: () => S({ b: 1, 2: 2, a: 3, 1: 4, "-1": 5, "01": 6, 4294967295: 7, 4294967294: 8 }),
  undefinedMembers: () => S({ a: undefined, b: () => 1, c: Symbol("s"), d: 1 }),
  arrayUndefineds: () => S([undefined, function () {}, Symbol("s"), null]),
  symbolKeys: () => S({ [Symbol("k")]: 1, a: 2 }),
  nonEnumerable: () => S(Object.defineProperty({ a: 1 }, "hidden", { value: 2, enumerable: false })),
  createNull: () => S(Object.assign(Object.create(null), { a: 1 })),
  inheritedSkipped: () => S(Object.create({ inherited: 1 }, { own: { value: 2, enumerable: true } })),
  classInstance: () => S(new Point()),
  legacyInstance: () => S(new Legacy()),
  getters: () => { let n = 0; return S({ get a() { return ++n; }, get b() { return ++n; }, c: 0 }) + " " + n; },
  getterSideEffect: () => { const o = { a: 1, get b() { delete this.c; this.d = 4; return 2; }, c: 3 }; return S(o); },
  getterAddsLater: () => { const o = { get a() { o.z = 9; return 1; } }; return S(o) + S(o); },
  getterThrows: () => S({ get a() { throw new RangeError("from getter"); } }),
  emptyObject: () => S({}),
  emptyArray: () => S([]),
  nested: () => S({ a: [{ b: [[], {}] }] }),
  map: () => S(new Map([[1, 2]])),
  set: () => S(new Set([1])),
  weakMap: () => S(new WeakMap()),
  regexp: () => S(/x/g),
  error: () => S(new Error("e")),
  errorWithProps: () => { const e = new TypeError("t"); e.code = 7; return S(e); },
  typedArray: () => S(new Uint8Array([1, 2, 3])),
  float64Array: () => S([new Float64Array([0.5, NaN])]),
  arrayBuffer: () => S(new ArrayBuffer(4)),
  argumentsObject: () => S((function () { return arguments; })(1, "a")),
  promise: () => S(Promise.resolve(1)),
  // arrays
  sparse: () => S([1, , 3, , ]),
  holesLength: () => { const a = [1]; a.length = 4; return S(a); },
  arrayExtraProps: () => { const a = [1, 2]; a.x = 3; return S(a); },
  arrayProtoElement: () => { Array.prototype[1] = "proto"; try { return S([0, , 2]); } finally { delete Array.prototype[1]; } },
  arraySubclass: () => { const a = new MyArray(); a.push(1, 2); return S(a); },
  arrayLikeObject: () => S({ length: 2, 0: "a", 1: "b" }),
  arrayGetterElement: () => S(Object.defineProperty([1, 2], 1, { get() { return "g"; } })),
  arrayLengthShrinks: () => { const a = [1, { toJSON() { a.length = 1; return 2; } }, 3]; return S(a); },
  // dates
  date: () => S(new Date(0)),
  dateInvalid: () => S({ d: new Date(NaN) }),
  dateToJSONReplaced: () => { const d = new Date(0); d.toISOString = () => "custom"; return S(d); },
  // toJSON
  toJSONOwn: () => S({ toJSON() { return { x: 1 }; } }),
  toJSONKeys: () => { const keys = []; const t = { toJSON(k) { keys.push(typeof k + ":" + k); return 1; } }; S({ a: t, b: [t, t] }); S(t); return keys.join(","); },
  toJSONProto: () => S({ a: new (class { toJSON() { return "proto"; } })() }),
  toJSONNonCallable: () => S({ toJSON: 1, a: 2 }),
  toJSONUndefined: () => S({ a: { toJSON() { return undefined; } }, b: 1 }),
  toJSONThis: () => { const o = { v: 5, toJSON() { return this.v; } }; return S([o]); },
  toJSONThrows: () => S({ toJSON() { throw new SyntaxError("from toJSON"); } }),
  toJSONOnObjectProto: () => { Object.prototype.toJSON = function () { return "P"; }; try { return S({ a: 1 }); } finally { delete Object.prototype.toJSON; } },
  toJSONGetter: () => { let n = 0; const o = { get toJSON() { n++; return () => "g"; } }; return S([o, o]) + n; },
  // replacer function
  replacerFunction: () => S({ a: 1, b: [1, 2], c: "x" }, (k, v) => (typeof v === "number" ? v * 10 : v)),
  replacerThisKeys: () => { const log = []; S({ a: [1] }, function (k, v) { log.push(JSON.stringify(k) + (this[k] === v ? "=" : "!=") + (Array.isArray(this) ? "arr" : typeof this)); return v; }); return log.join(","); },
  replacerTopHolder: () => { let h; S(1, function (k, v) { if (k === "") h = this; return v; }); return Object.keys(h).length + ":" + (Object.getPrototypeOf(h) === Object.prototype) + ":" + h[""]; },
  replacerUndefinedTop: () => S(1, () => undefined),
  replacerRemoves: () => S({ a: 1, b: 2, c: [1, 2] }, (k, v) => (k === "b" || k === "0" ? undefined : v)),
  replacerAfterToJSON: () => S({ a: { toJSON() { return "t"; } } }, (k, v) => (k === "a" ? v + "!" : v)),
  replacerReturnsObject: () => S(1, (k, v) => (k === "" ? { x: [v] } : v)),
  replacerThrows: () => S({ a: 1 }, () => { throw new EvalError("from replacer"); }),
  replacerBigIntBoxed: () => S({ a: 1 }, (k, v) => (k === "a" ? Object(3n) : v)),
  // replacer array
  replacerArray: () => S({ b: 1, a: 2, c: 3 }, ["a", "b"]),
  replacerArrayDupes: () => S({ a: 1, b: 2 }, ["b", "a", "b", "a"]),
  replacerArrayNumbers: () => S({ 1: "one", 2: "two", "1.5": "x", "1e+21": "big" }, [2, 1, 1.5, 1e21, "1"]),
  replacerArrayBoxed: () => S({ a: 1, 3: 2, b: 3 }, [new String("a"), new Number(3), { toString() { return "b"; } }, true, null]),
  replacerArrayBoxedToString: () => { const s = new String("a"); s.toString = () => "b"; return S({ a: 1, b: 2 }, [s]); },
  replacerArrayNested: () => S({ a: { a: 1, b: 2 }, b: [{ a: 3, c: 4 }] }, ["a", "b"]),
  replacerArrayMissing: () => S({ a: 1 }, ["z"]),
  replacerArraySparse: () => S({ a: 1, undefined: 2 }, ["a", , "undefined"]),
  replacerArrayProxy: () => S({ a: 1, b: 2 }, new Proxy(["b"], {})),
  replacerNotArrayObject: () => S({ a: 1 }, { 0: "b", length: 1 }),
  replacerPrimitive: () => S({ a: 1 }, "a"),
  // space
  spaceNumber: () => S({ a: [1, { b: 2 }], c: {} , d: []}, null, 2),
  spaceBig: () => S([1, [2]], null, 20),
  spaceFraction: () => S([1], null, 1.9),
  spaceNegative: () => S([1], null, -5),
  spaceString: () => S({ a: [1] }, null, "--"),
  spaceLongString: () => S({ a: 1 }, null, "abcdefghijklmnop"),
  spaceBoxedNumber: () => S([1], null, new Number(3)),
  spaceBoxedString: () => S([1], null, new String("\t")),
  spaceEmptyNested: () => S({ errors: [], data: { a: 1, e: {} } }, null, 2),
  spaceOther: () => S([1], null, true) + S([1], null, {}),
  spaceOrder: () => { const log = []; S({}, [Object.assign(new String("a"), { toString() { log.push("r"); return "a"; } })], Object.assign(new Number(1), { valueOf() { log.push("s"); return 1; } })); return log.join(""); },
  spaceWithReplacerArray: () => S({ a: 1, b: [1] }, ["b"], "\t"),
  // strings
  escapes: () => S("\"\\/\b\f\n\r\t\u0000\u0001\u001f\u007f\u0080"),
  loneSurrogates: () => S(["\ud800", "\udfff", "\ud800\udc00", "\udc00\ud800", "a\ud83dz", "\ud83d\ude00"]),
  unicode: () => S({ "ключ": "значение", "😀": "é" }),
  loneSurrogateKey: () => S({ "\ud800": 1, "a\udc00": 2 }),
  lineSeparators: () => S("\u2028\u2029"),
  // proxies
  proxyObject: () => { const [p, log] = traced({ a: 1, b: { c: 2 } }); return S(p) + " " + log.join(","); },
  proxyArray: () => { const [p, log] = traced([1, [2]]); return S(p) + " " + log.join(","); },
  proxyArrayWithReplacer: () => { const [p, log] = traced({ a: 1, b: 2 }); return S(p, ["b"]) + " " + log.join(","); },
  proxyNested: () => S({ a: new Proxy([1, 2], {}), b: new Proxy({ c: 3 }, {}) }),
  proxyOfProxyArray: () => S(new Proxy(new Proxy([1], {}), {})),
  proxyFunction: () => S([new Proxy(function () {}, {})]),
  proxyRevoked: () => { const r = Proxy.revocable({}, {}); r.revoke(); return S(r.proxy); },
  proxyRevokedNested: () => { const r = Proxy.revocable([], {}); r.revoke(); return S({ a: r.proxy }); },
  proxyRevokedReplacer: () => { const r = Proxy.revocable([], {}); r.revoke(); return S({ a: 1 }, r.proxy); },
  proxyTrapThrows: () => S(new Proxy({}, { ownKeys() { throw new Error("ownKeys trap"); } })),
  proxyLengthLie: () => S(new Proxy([], { get: (t, k) => (k === "length" ? 3 : k === "1" ? "one" : undefined) })),
  proxyLengthTooLong: () => { const log = []; try { return S(new Proxy([], { get: (t, k) => { log.push(String(k)); return k === "length" ? 2 ** 28 : undefined; } })); } finally { log.push("end"); console.log("  reads " + log.join(",")); } },
  proxyLengthLongestRead: () => S(new Proxy([], { get: (t, k) => { if (k === "0") throw new Error("read 0"); return k === "length" ? 268435444 : undefined; } })),
  arrayLengthTooLong: () => { const a = []; a.length = 2 ** 32 - 1; return S({ a }); },
  // cycles
  cycleSelf: () => { const a = {}; a.self = a; return S(a); },
  cycleArray: () => { const a = []; a.push(a); return S(a); },
  cycleLong: () => { const p = { a: { b: { c: { d: { e: {} } } } } }; p.a.b.c.d.e.f = p; return S(p); },
  cycleThree: () => { const p = { a: { b: {} } }; p.a.b.c = p; return S(p); },
  cycleFour: () => { const p = { a: { b: { c: {} } } }; p.a.b.c.d = p; return S(p); },
  cycleMixed: () => { const q = [{ x: [0] }]; q[0].x[0] = q; return S(q); },
  cycleInner: () => { const inner = { n: 1 }; inner.back = inner; return S({ top: [1, { inner }] }); },
  cycleClass: () => { const a = new Named(); a.me = { it: a }; return S(a); },
  cycleNullProto: () => { const a = Object.create(null); a.me = a; return S(a); },
  cycleEmptyKey: () => { const a = {}; a[""] = a; return S(a); },
  cycleError: () => { const e = new Error("x"); e.self = e; return S(e); },
  cycleMap: () => { const m = new Map(); m.self = m; return S(m); },
  cycleToStringTag: () => { const a = { [Symbol.toStringTag]: "Tagged" }; a.self = a; return S(a); },
  cycleArguments: () => { const a = (function () { return arguments; })(1); a[0] = a; return S(a); },
  cycleViaToJSON: () => { const a = { toJSON() { return { a }; } }; return S(a); },
  notCycleRepeated: () => { const shared = { s: 1 }; return S([shared, shared, { shared }]); },
  // depth
  deepArrayOk: () => { let a = []; for (let i = 0; i < 3000; i++) a = [a]; return S(a).length; },
  deepArrayTooDeep: () => { let a = []; for (let i = 0; i < 10000; i++) a = [a]; return S(a); },
  deepObjectTooDeep: () => { let a = {}; for (let i = 0; i < 10000; i++) a = { a }; return S(a); },
  // JSON.stringify itself
  stringifyName: () => JSON.stringify.name + JSON.stringify.length + typeof JSON.stringify.prototype,
  stringifyToString: () => Function.prototype.toString.call(JSON.stringify),
  stringifyDescriptor: () => { const d = Object.getOwnPropertyDescriptor(JSON, "stringify"); return [d.writable, d.enumerable, d.configurable].join(); },
  stringifyNotConstructor: () => new JSON.stringify(1),
  roundTrip: () => S(JSON.parse(S({ a: [1, "2", { b: null }], "k\"": "\n" }))),
};
const enc = (r) => {
  if (typeof r !== "string") return String(r);
  let out = '"';
  for (let i = 0; i < r.length; i++) {
    const c = r.charCodeAt(i);
    out += c >= 0x20 && c < 0x7f && c !== 0x5c ? r[i] : "\\u" + c.toString(16).padStart(4, "0");
  }
  return out + '"';
};
for (const [name, fn] of Object.entries(cases)) {
  let line;
  try {
    line = enc(fn());
  } catch (e) {
    line = "! " + e.name + ": " + enc(e.message);
  }
  console.log(name + " | " + line);
}
