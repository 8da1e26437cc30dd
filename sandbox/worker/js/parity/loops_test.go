package parity_test

import (
	"strings"
	"testing"
)

// TestLoopGuardsAsNode: the guarded Array.prototype loops (loops.go) give
// Node's results, call getters, traps and callbacks in Node's order with
// Node's arguments (the array argument is the receiver, never the guard's
// Proxy), return the receiver itself, and throw Node's error classes, on
// array-likes (which always take the guarded path), typed arrays and
// arguments objects, a Proxy, frozen objects, and an ordinary array longer
// than the guards' dense limit; so do concat (what it spreads and what it
// keeps), Object.freeze and seal of a long array, String.raw, Array.from
// (of iterables too: generators, Map, Set, a class's iterator see their
// own receivers) and %TypedArray%.prototype.set of array-likes. The want
// lines were printed by Node 20 (v20.20.2) running the same source.
func TestLoopGuardsAsNode(t *testing.T) {
	runHostile(t, []hostileCase{{name: "loops", src: loopsSource, want: []string{strings.Join([]string{
		"copyWithin this | {1:d,3:d,length:4} | len,len",
		"every false | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"fill this | {0:a,1:1,2:1,3:d,length:4} | len,g0,len",
		"filter [b,d] | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"find d | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"findIndex 3 | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"findLast a | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"findLastIndex -1 | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"flat [a,b,d] | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"flatMap [a,0,b,1,d,3] | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"forEach undefined | {0:a,1:b,3:d,length:4} | len,g0,cb0,cb1,cb3,g0,len",
		"join a-b--d | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"join a,b,,d | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"map [a0,b1,,d3] | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"reduce abd | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"reduce >abd | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"reduceRight dba | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"reverse TypeError | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"shift TypeError | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"slice [b,,d] | {0:a,1:b,3:d,length:4} | len,g0,len",
		"slice [b,] | {0:a,1:b,3:d,length:4} | len,g0,len",
		"some false | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"splice TypeError | {0:a,1:x,2:y,3:z,4:d,length:4} | len,g0,len",
		"toLocaleString a,b,,d | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"toReversed [d,undefined,b,a] | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"toSpliced [n,b,undefined,d] | {0:a,1:b,3:d,length:4} | len,g0,len",
		"unshift TypeError | {0:a,1:a,2:b,4:d,length:4} | len,g0,g0,len",
		"with [a,b,w,d] | {0:a,1:b,3:d,length:4} | len,g0,g0,len",
		"args true/true,true/true",
		"reduce4 truetrue",
		"proxy reverse true get length,has 0,get 0,has 2,get 2,set 0,set 2",
		"proxy join r++p get length,get 0,get 1,get 2",
		"fill TypeError",
		"reverse TypeError",
		"forEach TypeError",
		"reduce TypeError",
		"join TypeError",
		"toLocaleString TypeError",
		"splice TypeError",
		"long true 7 true 7 [x,7,7,x,7]",
		"concat 11 [{0:p,length:1},s,,t,{0:p,length:1},g,1,,3] truetruetrue spread?",
		"concat this [s,,t,9] [{0:a,1:b},1]",
		"freeze true true true true false 1 [1]",
		"raw a1\\n2 x1yz p-q a1b2c raw,r1",
		"raw TypeError",
		"typed [7,3,5] 3/1/2 true 2,1,3 [2,3]",
		"from [a,b,undefined,d] raw,r1,len,g0",
		"from iterables [1,2] [3] [[4,5]] [true] [6]",
		"from map [[undefined,0],[5,1]]",
		"set 0,7,9,0 {0:3,1:0}",
	}, "\n")}}})
}

const loopsSource = `const log = [];
const P = Array.prototype;
const rs = [];
const show = (v) => {
  if (Array.isArray(v)) return "[" + v.map(show).join(",") + "]";
  if (v && typeof v === "object") return "{" + Object.keys(v).map((k) => k + ":" + show(v[k])).join(",") + "}";
  return String(v);
};
const like = () => ({
  get length() { log.push("len"); return 4; },
  get 0() { log.push("g0"); return "a"; },
  1: "b",
  3: "d",
});
for (const [name, args] of [
  ["copyWithin", [0, 2]], ["every", [(v) => v !== "d"]], ["fill", [1, 1, 3]], ["filter", [(v) => v > "a"]],
  ["find", [(v) => v === "d"]], ["findIndex", [(v) => v === "d"]], ["findLast", [(v) => v === "a"]],
  ["findLastIndex", [(v) => v === "z"]], ["flat", []], ["flatMap", [(v, i) => [v, i]]], ["forEach", [(v, i) => log.push("cb" + i)]],
  ["join", ["-"]], ["join", []], ["map", [(v, i) => v + i]], ["reduce", [(a, v) => a + v]], ["reduce", [(a, v) => a + v, ">"]],
  ["reduceRight", [(a, v) => a + v]], ["reverse", []], ["shift", []], ["slice", [1]], ["slice", [-3, -1]], ["some", [(v) => v === "q"]],
  ["splice", [1, 2, "x", "y", "z"]], ["toLocaleString", []], ["toReversed", []], ["toSpliced", [0, 1, "n"]], ["unshift", [0]],
  ["with", [2, "w"]],
]) {
  const o = like();
  log.length = 0;
  let r;
  try {
    r = P[name].apply(o, args);
    if (r === o) r = "this";
  } catch (e) {
    r = e.constructor.name;
  }
  rs.push(name + " " + show(r) + " | " + show(o) + " | " + log.join(","));
}
// The callback's array argument and thisArg.
const o = { length: 2, 0: 1, 1: 2 };
const that = {};
rs.push("args " + P.map.call(o, function (v, i, a) { return (a === o) + "/" + (this === that); }, that).join());
rs.push("reduce4 " + P.reduce.call(o, (acc, v, i, a) => acc + (a === o), ""));
// A Proxy receiver: its traps see every operation, in order.
const seen = [];
const px = new Proxy({ length: 3, 0: "p", 2: "r" }, {
  get(t, k, rcv) { seen.push("get " + String(k)); return Reflect.get(t, k, rcv); },
  has(t, k) { seen.push("has " + String(k)); return Reflect.has(t, k); },
  set(t, k, v, rcv) { seen.push("set " + String(k)); return Reflect.set(t, k, v, rcv); },
  deleteProperty(t, k) { seen.push("delete " + String(k)); return Reflect.deleteProperty(t, k); },
});
rs.push("proxy reverse " + show(P.reverse.call(px) === px) + " " + seen.join(","));
seen.length = 0;
rs.push("proxy join " + P.join.call(px, "+") + " " + seen.join(","));
// Errors keep their kind.
for (const [name, recv, args] of [
  ["fill", Object.freeze({ length: 2, 0: 1 }), [0]], ["reverse", Object.freeze({ length: 2, 0: 1, 1: 2 }), []],
  ["forEach", { length: 1 }, [5]], ["reduce", { length: 0 }, [(a) => a]], ["join", { length: 2 ** 32 }, []],
  ["toLocaleString", { length: 2 ** 40 }, []], ["splice", { length: 2 ** 53 - 1 }, [0, 0, 1]],
]) {
  try {
    rs.push(name + " " + show(P[name].apply(recv, args)));
  } catch (e) {
    rs.push(name + " " + e.constructor.name);
  }
}
// A long ordinary array (past the guards' dense limit) keeps its identity.
const long = [];
long.length = 2 ** 23;
long[0] = "x";
rs.push("long " + (long.fill(7, 1, 3) === long) + " " + long[1] + " " + (long.copyWithin(3, 0, 2) === long) + " " + long[4] + " " + show(long.slice(0, 5)));
// concat spreads what Node spreads, and keeps what it does not spread.
const spreadLike = { length: 3, 0: "s", 2: "t", [Symbol.isConcatSpreadable]: true };
const plain = { length: 1, 0: "p" };
const askSpread = { length: 1, 0: "g", get [Symbol.isConcatSpreadable]() { log.push("spread?"); return true; } };
const unspread = [];
unspread.length = 2 ** 23;
unspread[Symbol.isConcatSpreadable] = false;
log.length = 0;
const cc = P.concat.call(plain, spreadLike, plain, askSpread, [1, , 3], unspread, "x");
rs.push("concat " + cc.length + " " + show(cc.slice(0, 9)) + " " + (cc[0] === plain) + (cc[4] === plain) + (cc[9] === unspread) + " " + log.join(","));
rs.push("concat this " + show(P.concat.call(spreadLike, [9])) + " " + show(P.concat.call("ab", 1)));
// Object.freeze and seal of a long array freeze and seal the array itself.
const fz = [];
fz.length = 2 ** 23;
fz[1] = "f";
const sl = [];
sl.length = 2 ** 23;
sl[2] = "s";
rs.push("freeze " + (Object.freeze(fz) === fz) + " " + Object.isFrozen(fz) + " " + (Object.seal(sl) === sl) + " " + Object.isSealed(sl) + " " + Object.isFrozen(sl) + " " + Object.freeze(1) + " " + show(Object.freeze([1])));
// String.raw reads its template's raw once and its elements in order.
log.length = 0;
const rawGet = { get raw() { log.push("raw"); return { length: 2, 0: "p", get 1() { log.push("r1"); return "q"; } }; } };
rs.push("raw " + String.raw` + "`" + `a${1}\n${2}` + "`" + ` + " " + String.raw({ raw: ["x", "y", "z"] }, 1) + " " + String.raw(rawGet, "-") + " " + String.raw({ raw: "abc" }, 1, 2) + " " + log.join(","));
try { String.raw({}); } catch (e) { rs.push("raw " + e.constructor.name); }
// Array.prototype methods on typed arrays and arguments.
const ta = new Uint8Array([3, 1, 2]);
rs.push("typed " + show(P.map.call(ta, (x, i, a) => x * 2 + (a === ta))) + " " + P.join.call(ta, "/") + " " + (P.reverse.call(ta) === ta) + " " + ta.join() + " " + (function () { return show(P.slice.call(arguments, 1)); })(1, 2, 3));
// Array.from and %TypedArray%.prototype.set of array-likes.
rs.push("from " + show(Array.from(like())) + " " + log.join(","));
function* gen() { yield 1; yield 2; }
class It { *[Symbol.iterator]() { yield this instanceof It; } }
rs.push("from iterables " + show(Array.from(gen())) + " " + show(Array.from(new Set([3]))) + " " + show(Array.from(new Map([[4, 5]]))) + " " + show(Array.from(new It())) + " " + show(Array.from(Uint8Array.from(new Set([6])))));
rs.push("from map " + show(Array.from({ length: 2, 1: 5 }, (v, i) => [v, i])));
const u = new Uint8Array(4);
u.set({ length: 2, 0: 7, 1: 9 }, 1);
rs.push("set " + u.join() + " " + show(Uint8Array.from({ length: 2, 0: 3 })));
console.log(rs.join("\n"));
`
