const out = [];
for await (const v of [Promise.resolve(1), 2, new Promise((r) => setTimeout(() => r(3), 1))]) out.push(v);
console.log(out.join(","));
