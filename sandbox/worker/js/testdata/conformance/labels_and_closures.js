const fns = [];
for (let i = 0; i < 3; i++) fns.push(() => i);
outer: for (const a of [1, 2]) { for (const b of [1, 2]) { if (b === 2) continue outer; console.log(a, b); } }
console.log(fns.map((f) => f()).join());
