const out = [];
setTimeout(() => out.push("t2"), 2);
setTimeout(() => out.push("t0"), 0);
queueMicrotask(() => out.push("micro"));
Promise.resolve().then(() => out.push("then"));
out.push("sync");
await new Promise((r) => setTimeout(r, 10));
console.log(out.join(","));
