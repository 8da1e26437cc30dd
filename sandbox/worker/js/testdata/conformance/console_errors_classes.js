class Foo { constructor() { this.a = 1; } }
console.log(new Foo(), [new Foo()], { f() {}, g: () => 1, h: class Bar {} });
console.log(Symbol("s"), [Symbol.iterator], { [Symbol("k")]: 1 });
