async function* gen() { for (let i = 0; i < 3; i++) { await null; yield i * 2; } }
const out = [];
for await (const v of gen()) out.push(v);
const g = gen();
console.log(out.join(","), typeof g[Symbol.asyncIterator], g[Symbol.asyncIterator]() === g);
