const d = new TextDecoder();
const bytes = new TextEncoder().encode("€uro");
console.log(JSON.stringify(d.decode(bytes.subarray(0, 2), { stream: true }) + "|" + d.decode(bytes.subarray(2))));
