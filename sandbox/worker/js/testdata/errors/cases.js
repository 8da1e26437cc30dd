// Error situations a snippet meets, one per line of cases.golden: each
// case's thrown error as `name: message`, caught by the snippet. Recorded
// from Node 20 by record.mjs; errors_v8_test.go runs each case in the
// playground and compares.
const cases = {
  nullRead: () => { const o = null; return o.x; },
  undefinedRead: () => { let o; return o.x; },
  nullReadIndex: () => { const o = null; return o[0]; },
  undefinedNested: () => { const o = {}; return o.a.b; },
  nullWrite: () => { const o = null; o.x = 1; },
  undefinedWrite: () => { let o; o.x = 1; },
  notAFunction: () => { const f = 1; f(); },
  methodNotAFunction: () => { const o = {}; o.m(); },
  notAConstructor: () => { const f = () => 1; return new f(); },
  reduceEmpty: () => [].reduce((a, b) => a + b),
  reduceRightEmpty: () => [].reduceRight((a, b) => a + b),
  keysOfNull: () => Object.keys(null),
  keysOfUndefined: () => Object.keys(undefined),
  entriesOfNull: () => Object.entries(null),
  assignToNull: () => Object.assign(null, {}),
  matchAllNonGlobal: () => "abc".matchAll(/b/),
  replaceAllNonGlobal: () => "abc".replaceAll(/b/, "x"),
  invalidArrayLength: () => new Array(-1),
  invalidArrayLengthSet: () => { const a = []; a.length = -1; },
  repeatNegative: () => "a".repeat(-1),
  toFixedRange: () => (1).toFixed(101),
  toPrecisionRange: () => (1).toPrecision(0),
  toStringRadix: () => (10).toString(1),
  jsonParseEnd: () => JSON.parse("{"),
  jsonParseToken: () => JSON.parse("{x}"),
  jsonParseEmpty: () => JSON.parse(""),
  jsonCircular: () => { const o = {}; o.self = o; return JSON.stringify(o); },
  bigintMix: () => 1n + 1,
  bigintFromFloat: () => BigInt(1.5),
  symbolToString: () => `${Symbol("s")}`,
  undefinedVariable: () => notDefinedAnywhere,
  tdz: () => { const f = () => later; f(); let later = 1; },
  constAssign: () => { const c = 1; eval("c = 2"); },
  freezeWrite: () => { "use strict"; const o = Object.freeze({ a: 1 }); o.a = 2; },
  definePropertyNonObject: () => Object.defineProperty(1, "x", {}),
  createNonObject: () => Object.create(1),
  setPrototypeNull: () => Object.setPrototypeOf(null, {}),
  inOnPrimitive: () => "x" in "str",
  instanceofNonCallable: () => ({}) instanceof {},
  iterateNonIterable: () => { for (const x of 5) return x; },
  spreadNonIterable: () => [...{}],
  destructureNull: () => { const { a } = null; return a; },
  destructureUndefined: () => { const [a] = undefined; return a; },
  classWithoutNew: () => { class A {} return A(); },
  decodeURIMalformed: () => decodeURIComponent("%"),
  newSymbol: () => new Symbol(),
  mapWithoutNew: () => Map(),
  promiseResolver: () => new Promise(1),
  regExpInvalid: () => new RegExp("["),
  dateToISOInvalid: () => new Date(NaN).toISOString(),
  weakMapKey: () => new WeakMap().set(1, 1),
  normalizeForm: () => "a".normalize("x"),
  arrayFromNonCallable: () => Array.from([1], 1),
  sortComparator: () => [2, 1].sort(1),
  proxyRevoked: () => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy.x; },
  callNull: () => { const o = { f: null }; o.f(); },
  structuredFunc: () => structuredClone(() => 1),
};
for (const [name, fn] of Object.entries(cases)) {
  try {
    fn();
    console.log(name + " | no error");
  } catch (e) {
    console.log(name + " | " + e.name + ": " + e.message);
  }
}
