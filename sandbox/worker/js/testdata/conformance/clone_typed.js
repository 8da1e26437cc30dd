const u = new Uint8Array([1, 2, 3]);
const c = structuredClone({ u, b: u.buffer });
c.u[0] = 9;
console.log(u[0], c.u[0], c.u.length, c.b.byteLength, c.u.buffer === c.b);
class P { constructor() { this.x = 1 } get y() { return 2 } }
const p = structuredClone(new P());
console.log(p instanceof P, JSON.stringify(p), Object.getPrototypeOf(p) === Object.prototype);
