const people = [{ n: "a", g: 2 }, { n: "b", g: 1 }, { n: "c", g: 2 }, { n: "d", g: 1 }];
console.log(people.sort((x, y) => x.g - y.g).map((p) => p.n).join(""), [10, 9, 1, 100].sort().join(), [3, undefined, 1].sort().join());
