console.log(this === globalThis, typeof this);
function f() { return this; }
console.log(f() === globalThis);
const o = { m() { return (function () { return this; })(); } };
console.log(o.m() === globalThis);
