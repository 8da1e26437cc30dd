const b = new ArrayBuffer(8); const v = new DataView(b);
v.setFloat32(0, 1.5); v.setUint16(4, 0xbeef, true);
console.log(v.getFloat32(0), new Uint8Array(b).join(","), Float64Array.of(1, 2).map((x) => x / 2).join(), new Int8Array([200])[0]);
