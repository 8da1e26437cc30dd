const b = new ArrayBuffer(3);
new Uint8Array(b).set([1, 255, 16]);
console.log(b);
console.log(new ArrayBuffer(120));
console.log({ buf: new TextEncoder().encode("hi").buffer }, new ArrayBuffer(0));
