package parity_test

import (
	"strings"
	"testing"
)

// TestScansAsNode: Array.prototype.includes, indexOf and lastIndexOf
// (scan.go) give Node's results and run getters in Node's order on
// arrays, array-likes, strings, holes, NaN, -0 and every fromIndex shape
// (the want lines were printed by Node 20), and answer at once on
// array-likes whose length goja would count to (2^53 - 1, a sparse array
// of 2^32 - 1): the specification's result, with getters in its order —
// where goja looped past the run's deadline (Node too: its answer is the
// same once it gets there).
func TestScansAsNode(t *testing.T) {
	small := `const log = [];
const getterObj = { length: 4, get 0() { log.push("g0"); return 1; }, get 2() { log.push("g2"); return NaN; }, 3: -0 };
const rs = [];
const P = Array.prototype;
for (const [name, recv, args] of [
  ["includes", [1, 2, NaN], [NaN]], ["indexOf", [1, 2, NaN], [NaN]], ["includes", [1, , 3], [undefined]], ["indexOf", [1, , 3], [undefined]],
  ["lastIndexOf", [1, 2, 1], [1]], ["lastIndexOf", [1, 2, 1], [1, -2]], ["lastIndexOf", [1, 2, 1], [1, -10]], ["indexOf", [1, 2, 1], [1, -1]],
  ["includes", getterObj, [NaN]], ["indexOf", getterObj, [0]], ["lastIndexOf", getterObj, [1]], ["includes", getterObj, [undefined]],
  ["includes", { length: 3, 1: "x" }, [undefined, 1]], ["includes", { length: 3, 1: "x" }, [undefined, 2]], ["indexOf", { length: "2", 1: "y" }, ["y"]],
  ["includes", "abc", ["b"]], ["indexOf", "abc", ["c", -1]], ["lastIndexOf", { length: -5 }, [undefined]], ["includes", { length: Infinity, 0: 1 }, [1]],
  ["indexOf", [1, 2, 3], [3, Infinity]], ["includes", [1, 2, 3], [1, -Infinity]], ["lastIndexOf", [1, 2, 3], [3, -Infinity]], ["indexOf", [0], [-0]],
]) {
  log.length = 0;
  rs.push(name + " " + String(P[name].apply(recv, args)) + " " + log.join(","));
}
try { P.includes.call(null, 1) } catch (e) { rs.push(e.constructor.name) }
console.log(rs.join("\n"));
`
	big := `const log = [];
const P = Array.prototype;
const big = { length: 2 ** 53 - 1, 5: "x", 7: NaN, get 9() { log.push("g9"); return "y"; } };
const sparse = new Array(2 ** 32 - 1); sparse[5] = "x";
const tail = []; tail[2 ** 32 - 2] = 1;
const rs = [];
for (const [name, recv, args] of [
  ["includes", big, ["x"]], ["includes", big, [NaN]], ["indexOf", big, ["y"]], ["lastIndexOf", big, ["x"]],
  ["includes", big, [undefined]], ["indexOf", big, [undefined]], ["includes", big, ["z", 6]], ["lastIndexOf", big, ["y", 8]],
  ["includes", big, [undefined, 5]], ["includes", { length: 2 ** 40, 0: 1, 1: 2 }, [3]], ["includes", { length: 2 ** 40, 0: 1, 1: 2 }, [undefined]],
  ["includes", sparse, ["x"]], ["indexOf", sparse, ["x"]], ["includes", sparse, [undefined]],
  ["indexOf", tail, [1]], ["lastIndexOf", tail, [1]], ["includes", tail, [undefined]],
]) {
  log.length = 0;
  rs.push(name + " " + String(P[name].apply(recv, args)) + " " + log.join(","));
}
Object.prototype[3] = "proto";
rs.push("chain " + P.indexOf.call({ length: 2 ** 40 }, "proto"));
delete Object.prototype[3];
console.log(rs.join("\n"));`
	runHostile(t, []hostileCase{
		{name: "small", src: small, want: []string{strings.Join([]string{
			"includes true ",
			"indexOf -1 ",
			"includes true ",
			"indexOf -1 ",
			"lastIndexOf 2 ",
			"lastIndexOf 0 ",
			"lastIndexOf -1 ",
			"indexOf 2 ",
			"includes true g0,g2",
			"indexOf 3 g0,g2",
			"lastIndexOf 0 g2,g0",
			"includes true g0",
			"includes true ",
			"includes true ",
			"indexOf 1 ",
			"includes true ",
			"indexOf 2 ",
			"lastIndexOf -1 ",
			"includes true ",
			"indexOf -1 ",
			"includes true ",
			"lastIndexOf -1 ",
			"indexOf 0 ",
			"TypeError",
		}, "\n")}},
		{name: "long array-likes", src: big, want: []string{strings.Join([]string{
			"includes true ", "includes true ", "indexOf 9 g9", "lastIndexOf 5 g9",
			"includes true ", "indexOf -1 g9", "includes false g9", "lastIndexOf -1 ",
			"includes true ", "includes false ", "includes true ",
			"includes true ", "indexOf 5 ", "includes true ",
			"indexOf 4294967294 ", "lastIndexOf 4294967294 ", "includes true ",
			"chain 3",
		}, "\n")}},
	})
}
