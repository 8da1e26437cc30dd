// Bundling turns top-level classes into class expressions; their names stay as written.
class Self { static make() { return new Self(); } }
console.log(Self.name, Self.make(), new Self().constructor.name);
class Registry { static instance = new Registry(); items = []; }
console.log(Registry.instance, Registry.instance instanceof Registry);
const Anon = class {};
console.log(Anon.name, new Anon());
function outer() { return function inner() {}; }
console.log(outer.name, outer().name, (() => {}).name);
const obj = { method() {}, arrow: () => {} };
console.log(obj.method.name, obj.arrow.name);
