const out = [];
setTimeout(() => out.push("t20"), 20); // far enough from t0 that a busy machine cannot swap them
setTimeout(() => out.push("t0"), 0);
queueMicrotask(() => out.push("micro"));
Promise.resolve().then(() => out.push("then"));
out.push("sync");
await new Promise((r) => setTimeout(r, 40));
console.log(out.join(","));
