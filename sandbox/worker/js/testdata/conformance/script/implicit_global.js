total = 0;
for (const x of [1, 2, 3]) total += x;
console.log(total, typeof globalThis.total, JSON.stringify(Object.getOwnPropertyDescriptor(globalThis, "total")));
function bump() { counter = (typeof counter === "number" ? counter : 0) + 1; }
bump(); bump();
console.log(counter, "counter" in globalThis);
