class A { static #count = 0; #x; static { A.#count = 10; } constructor(x) { this.#x = x; A.#count++; } get x() { return this.#x; } static get count() { return A.#count; } #priv() { return 1; } has(o) { return #x in o; } }
const a = new A(5);
console.log(a.x, A.count, a.has(a), a.has({}));
