const e = new TextEncoder();
console.log(e.encoding, Array.from(e.encode("héllo €😀")).join(","));
const dst = new Uint8Array(5);
console.log(JSON.stringify(e.encodeInto("a€b", dst)), Array.from(dst).join(","));
