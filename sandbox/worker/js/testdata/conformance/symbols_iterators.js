class Range { constructor(n) { this.n = n; } *[Symbol.iterator]() { for (let i = 0; i < this.n; i++) yield i; } }
console.log([...new Range(4)].join(), Array.from(new Range(3), (x) => x * 2).join(), Symbol.iterator.toString(), Symbol("d").description);
