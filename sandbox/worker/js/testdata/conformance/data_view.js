const b = new ArrayBuffer(4);
new Uint8Array(b).set([1, 2, 3, 4]);
const v = new DataView(b, 1, 2);
console.log(v);
console.log([new DataView(new ArrayBuffer(0))]);
class DataView2 {}
console.log(new DataView2());
