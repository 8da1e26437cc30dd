// beyond Node 20: Array.fromAsync is ES2024 (Node 22)
async function* g() { yield 1; yield 2; }
console.log((await Array.fromAsync(g())).join(), (await Array.fromAsync([Promise.resolve(3), 4], (x) => x * 10)).join(), (await Array.fromAsync({ length: 2, 0: "a", 1: "b" })).join());
