// Compares the lighter entry of a library (mathjs/number) with the full one
// for every name given as a JSON array in argv[2], over a fixed set of
// inputs, and prints the differences as JSON lines
// {"name","args","full","lighter"}; a thrown error shows as "ERR".
// Run from sandbox/libs (it imports the installed packages):
//   node testdata/lighter.mjs '["mean","round"]'
import * as full from "mathjs";
import * as lighter from "mathjs/number";

const names = JSON.parse(process.argv[2]);
const inputs = [[], [2], [-2], [2.5], [-2.5], [0], [[1, 2, 3]], [[-1, 2, -3]], [[[1, 2], [3, 4]]], [[1, 2, 3], 1],
  [[[1, 2], [3, 4]], 0], [3, 2], [-3, 2], [1.5, 2], [[1, 2], [3, 4]], ["2"], ["a", "b"], [true], [null], [NaN],
  [10, 4], [[1, 2, 3, 4], 0.5], [[1, 2, 3, 4], [0.25, 0.75]], [2, 3, 4]];
const random = new Set(["random", "randomInt", "pickRandom"]);
const show = (f) => {
  try {
    const v = f();
    if (typeof v === "function") return "fn";
    return full.format(v) + ":" + (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  } catch {
    return "ERR";
  }
};
for (const name of names) {
  if (random.has(name)) continue;
  for (const args of inputs) {
    const call = (lib) => (typeof lib[name] === "function" ? () => lib[name](...structuredClone(args)) : () => lib[name]);
    const f = show(call(full)), l = show(call(lighter));
    if (f !== l) console.log(JSON.stringify({ name, args, full: f, lighter: l }));
  }
}
