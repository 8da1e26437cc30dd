const o = { v: 1 };
const r = new WeakRef(o);
console.log(r.deref() === o, Object.prototype.toString.call(r));
try { new WeakRef(1); } catch (e) { console.log(e.name); }
const reg = new FinalizationRegistry(() => {});
const token = {};
reg.register({}, "held", token);
console.log(reg.unregister(token), reg.unregister(token));
