async function f() { throw new TypeError("boom"); }
try { await f(); } catch (e) { console.log(e.name, e.message); }
const p = Promise.reject(new Error("handled"));
p.catch((e) => console.log("caught", e.message));
await new Promise((r) => setTimeout(r, 1));
