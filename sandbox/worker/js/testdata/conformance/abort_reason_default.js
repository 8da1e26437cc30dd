const c = new AbortController();
c.abort();
console.log(c.signal.reason.name, c.signal.reason.message, c.signal.reason instanceof DOMException);
try { c.signal.throwIfAborted(); } catch (e) { console.log("threw", e.name); }
const s = AbortSignal.abort(42);
console.log(s.aborted, s.reason);
