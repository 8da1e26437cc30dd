const o = Object.fromEntries([["a", 1], ["b", 2]]);
console.log(Object.hasOwn(o, "a"), Object.hasOwn(o, "toString"), JSON.stringify(Object.entries(o)), JSON.stringify([1, [2, [3, [4]]]].flat(Infinity)));
