// beyond Node 20: Promise.withResolvers is ES2024 (Node 22)
const { promise, resolve, reject } = Promise.withResolvers();
setTimeout(() => resolve("ok"), 1);
console.log(await promise, typeof reject);
