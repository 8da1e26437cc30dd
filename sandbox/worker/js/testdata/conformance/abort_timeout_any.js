const keepAlive = setTimeout(() => {}, 100); // Node's timeout signal does not keep the process alive
const s = AbortSignal.timeout(5);
const c = new AbortController();
const any = AbortSignal.any([s, c.signal]);
await new Promise((r) => s.addEventListener("abort", r));
clearTimeout(keepAlive);
console.log(s.reason.name, any.aborted, any.reason.name);
try { new AbortSignal(); } catch (e) { console.log(e.name); }
