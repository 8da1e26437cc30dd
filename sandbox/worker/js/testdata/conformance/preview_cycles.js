const m = new Map(); m.set(m, m); console.log(m);
const s = new Set(); s.add(s); console.log(s);
const a = [1]; a.push(a); console.log(a);
const o = { name: "root", child: { list: [1] } }; o.child.parent = o; console.log(o);
const k = {}; const mk = new Map([[k, 1]]); k.m = mk; console.log(mk);
