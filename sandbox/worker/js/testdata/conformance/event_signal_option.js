const t = new EventTarget();
const c = new AbortController();
t.addEventListener("x", () => console.log("got x"), { signal: c.signal });
t.dispatchEvent(new Event("x"));
c.abort();
t.dispatchEvent(new Event("x"));
console.log("end");
