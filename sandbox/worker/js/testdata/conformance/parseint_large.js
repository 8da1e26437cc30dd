// parseInt past 2^53: correctly rounded decimal digits (goja's drifted), hex, octal, radix edges.
console.log(parseInt("15511210043330985984000000"), parseInt("123456789012345678901"), parseInt("  -9007199254740993xyz"));
console.log(parseInt("ffffffffffffffffff", 16), parseInt("0x1fffffffffffff1"), Number.parseInt("777777777777777777777", 8));
console.log(parseInt("9007199254740993"), parseInt("1e21"), parseInt("12", 37), parseInt(""), parseInt("\uFEFF42"), parseInt("zzzzzzzzzzzzzz", 36));
console.log(Number.parseInt === parseInt, parseInt.length, parseInt.name, parseInt(0.0000005), parseInt(null, 36));
let n = 0; console.log(parseInt({ toString() { n++; return "99999999999999999999"; } }), n);
