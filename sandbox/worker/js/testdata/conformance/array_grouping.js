// beyond Node 20: Object.groupBy and Map.groupBy are ES2024 (Node 21)
const inv = [{ n: "a", t: "veg" }, { n: "b", t: "fruit" }, { n: "c", t: "veg" }];
const g = Object.groupBy(inv, ({ t }) => t);
console.log(Object.getPrototypeOf(g) === null, Object.keys(g).join(), g.veg.map((x) => x.n).join());
const m = Map.groupBy([1, 2, 3, 4], (x) => (x % 2 ? "odd" : "even"));
console.log(m instanceof Map, [...m.keys()].join(), m.get("even").join());
