const src = {
  [Symbol.asyncIterator]() {
    let i = 0;
    return { next: async () => (i < 3 ? { value: i++, done: false } : { value: undefined, done: true }) };
  },
};
const out = [];
for await (const v of src) out.push(v);
console.log(out.join(","), typeof Symbol.asyncIterator, String(Symbol.asyncIterator));
