// Edges: typed-array from of lone surrogates, parseInt's radix by ToInt32, digest's length and
// rejections, %i past 2^53.
console.log(Uint8Array.from("\ud800x😀", (c) => c.charCodeAt(0)), Array.from(Uint16Array.from("\udc00\ud83d\ude00", (c) => c.length)));
console.log(parseInt("123456789012345678901", -4294967286), crypto.subtle.digest.length);
const p = crypto.subtle.digest({ get name() { throw new Error("boom"); } }, new Uint8Array(1));
console.log(p instanceof Promise);
p.catch((e) => console.log("rejected", e.message));
crypto.subtle.digest(Symbol("s"), new Uint8Array(1)).catch((e) => console.log(e.name));
console.log("%i", "123456789012345678901");
