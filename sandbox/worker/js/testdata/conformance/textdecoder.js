const d = new TextDecoder();
console.log(d.decode(new Uint8Array([104, 195, 169, 240, 159, 152, 128])));
console.log(d.decode(new Uint8Array([0xe2, 0x82, 0x41, 0xff])));
console.log(new TextDecoder("utf-8", { fatal: false }).decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]).buffer));
try { new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array([0xc3])); } catch (e) { console.log(e.name); }
