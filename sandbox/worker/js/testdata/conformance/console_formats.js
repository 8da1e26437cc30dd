console.log("%s is %d years and %i", "Bob", 42.5, 7.9, "extra");
console.log([1, "a", { b: [2, { c: 3 }] }], null, undefined, -0, 1n);
console.log(new Map([["k", { v: 1 }]]), new Set([1]), [undefined, , 3]);
