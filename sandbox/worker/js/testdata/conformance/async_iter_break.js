let closed = false;
const it = { [Symbol.asyncIterator]() { let i = 0; return { next: async () => ({ value: i++, done: false }), return: async () => { closed = true; return { done: true }; } }; } };
for await (const v of it) { if (v === 2) break; }
console.log("closed", closed);
