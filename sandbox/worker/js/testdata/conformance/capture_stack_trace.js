class AppError extends Error {
  constructor(code, msg) { super(msg); this.name = "AppError"; this.code = code; Error.captureStackTrace(this, AppError); }
}
function f() { throw new AppError("E_PERM", "not allowed"); }
try { f() } catch (e) { console.log(e.name, e.code, e.message, e instanceof AppError, typeof e.stack, e.stack.split("\n")[0]); }
const o = {}; Error.captureStackTrace(o); console.log(typeof o.stack, o.stack.split("\n")[0], Object.keys(o), JSON.stringify(Object.getOwnPropertyDescriptor(o, "stack") && Object.keys(Object.getOwnPropertyDescriptor(o, "stack"))));
const p = {name: "N", message: "M"}; Error.captureStackTrace(p); console.log(p.stack.split("\n")[0]);
try { Error.captureStackTrace(1) } catch (e) { console.log(e.name, e.message) }
console.log(Error.stackTraceLimit, typeof Error.captureStackTrace, Error.captureStackTrace.length, Error.captureStackTrace.name);
function g() { const x = {}; Error.captureStackTrace(x, g); return x.stack; }
console.log(g().split("\n")[0], g().split("\n").length > 1);
function h() { const x = {}; Error.captureStackTrace(x, function nope() {}); return x.stack; }
console.log(JSON.stringify(h().trim()));
class Base extends Error { constructor(m) { super(m); this.name = this.constructor.name; Error.captureStackTrace(this, this.constructor); } }
class NotFound extends Base {}
const nf = new NotFound("gone");
console.log(nf.name, nf.message, nf instanceof Base, nf instanceof Error, nf.stack.split("\n")[0]);
const guarded = {}; if (typeof Error.captureStackTrace === "function") Error.captureStackTrace(guarded); console.log("stack" in guarded);
{
try { const p = new Proxy({}, {}); Error.captureStackTrace(p); console.log("ok", typeof p.stack) } catch (e) { console.log(e.message) }
Error.stackTraceLimit = "x"; const o = {}; Error.captureStackTrace(o); console.log("stack" in o, JSON.stringify(o.stack));
Error.stackTraceLimit = 0; const q = {}; Error.captureStackTrace(q); console.log(JSON.stringify(q.stack));
}
