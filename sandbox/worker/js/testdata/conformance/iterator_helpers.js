// beyond Node 20: iterator helpers are ES2025 (Node 22)
function* nat() { let i = 0; while (true) yield i++; }
console.log(nat().filter((x) => x % 2).map((x) => x * x).drop(1).take(3).toArray().join());
console.log([1, 2, 3].values().reduce((a, b) => a + b), new Set([1, 2]).values().some((x) => x > 1), Iterator.from({ next() { return { done: true }; } }).toArray().length, typeof Iterator);
