// The d flag's conformance snippets: each line printed is compared with
// what Node 20 printed (golden.txt). Record:
//
//	node sandbox/worker/js/regexpidx/testdata/cases.js > sandbox/worker/js/regexpidx/testdata/golden.txt
//
// TestMatchesNode runs this file in the playground's runtime (jstest) and
// TestGoldenIsFresh re-records it under Node.
const show = (v) => JSON.stringify(v, (k, x) => (x === undefined ? "<undefined>" : x));
const cases = [
  ["exec", () => /a(b)?(c)/d.exec("xxabc").indices],
  ["unmatched optional group", () => /a(b)?(c)/d.exec("ac").indices],
  ["named groups", () => { const m = /(?<year>\d{4})-(?<month>\d\d)(?:-(?<day>\d\d))?/d.exec("on 2024-05!"); return [m.indices, m.indices.groups, Object.getPrototypeOf(m.indices.groups)]; }],
  ["no named groups: groups undefined", () => "groups" in /a/d.exec("a").indices && /a/d.exec("a").indices.groups],
  ["flags and hasIndices", () => [/x/d.flags, /x/dgimsuy.flags, /x/gd.hasIndices, /x/g.hasIndices, String(/a\/b/dg), new RegExp("a", "d").flags, RegExp("a", "yd").flags]],
  // index and input left out: goja lists input first, for every RegExp
  ["result keys", () => Object.keys(/(a)/d.exec("a")).filter((k) => k !== "index" && k !== "input")],
  ["hasIndices getter", () => { const g = Object.getOwnPropertyDescriptor(RegExp.prototype, "hasIndices").get; try { g.call({}); } catch (e) { return [g.call(RegExp.prototype), g.call(/a/), e.name]; } }],
  ["surrogate pairs, no u", () => /(😀)(x)/d.exec("a😀x").indices],
  ["surrogate pairs, u", () => /(.)(x)/du.exec("a😀x").indices],
  ["u, index after an astral", () => /(?<c>\p{L})/du.exec("😀😀é").indices],
  ["non-BMP in class, u", () => /[😀-😂]+(b)/du.exec("a😁😂b").indices],
  ["global lastIndex", () => { const re = /(\d)/dg; const out = []; let m; while ((m = re.exec("a1b22")) !== null) out.push([m.indices, re.lastIndex]); return out; }],
  ["sticky", () => { const re = /(a)/dy; re.lastIndex = 1; const m = re.exec("ba"); const n = re.exec("ba"); return [m.indices, n, re.lastIndex]; }],
  ["matchAll", () => [..."a1b2c3".matchAll(/(?<l>[a-z])(\d)/dg)].map((m) => [m.index, m.indices, m.indices.groups])],
  ["matchAll of a number, empty matches", () => [...(/a*/gd)[Symbol.matchAll](5)].map((m) => [m.index, m.indices[0]])],
  ["a pattern whose toString builds another RegExp", () => { const re = new RegExp({ toString() { RegExp("x"); return "A"; } }, "gid"); return [re.flags, re.exec("xa").indices]; }],
  ["matchAll non-global throws", () => { try { "a".matchAll(/a/d); return "no"; } catch (e) { return e.name; } }],
  ["String.prototype.match", () => "xyz".match(/(y)(z)/d).indices],
  ["match global: no indices", () => "a1a2".match(/a(\d)/dg)],
  ["replace", () => "a1b2".replace(/(\d)/dg, "<$1>")],
  ["replace with function", () => "a1b2".replace(/(?<d>\d)/d, (...a) => JSON.stringify(a))],
  ["split", () => "a1b2c".split(/(\d)/d)],
  ["search", () => "abc".search(/c/d)],
  ["test", () => [/b/d.test("abc"), /z/d.test("abc")]],
  ["i and m flags", () => /^(B)$/dim.exec("a\nb").indices],
  ["s flag", () => /a(.)c/ds.exec("a\nc").indices],
  ["lookbehind", () => /(?<=\$)(\d+)/d.exec("cost $42").indices],
  ["backreference", () => /(a+)b\1/d.exec("xaabaa").indices],
  ["empty match", () => /(x?)/d.exec("abc").indices],
  ["nested groups", () => /((a)(b(c)))/d.exec("zabc").indices],
  ["alternation", () => /(a)|(b)/d.exec("b").indices],
  ["no match", () => /(q)/d.exec("abc")],
  ["from a RegExp with flags", () => new RegExp(/(a)/g, "d").exec("ba").indices],
  ["dd is a SyntaxError", () => { try { new RegExp("a", "dd"); return "no"; } catch (e) { return e.name; } }],
];
for (const [name, f] of cases) {
  let out;
  try {
    out = show(f());
  } catch (e) {
    out = "throws " + e.name;
  }
  console.log(name + ": " + out);
}
