console.log(new Proxy({ a: 1, b: 2 }, { get() { return 5; }, ownKeys() { return []; } }));
console.log(new Proxy(new Proxy({ x: 1 }, {}), {}));
const r = Proxy.revocable({}, {}); r.revoke(); console.log(r.proxy, [r.proxy]);
console.log(new Proxy(function foo() {}, {}), new Proxy([1, 2], {}));
class Store { constructor() { this.n = 1; } }
console.log(new Proxy(new Store(), { get() { throw new Error("trap"); } }));
