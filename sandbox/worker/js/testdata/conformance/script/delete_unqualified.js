x = 1;
console.log(delete x, typeof x);
globalThis.z = 3;
console.log(delete z, typeof z);
console.log(delete Math.PI, typeof Math.PI);
