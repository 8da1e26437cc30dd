// crypto.subtle.digest: SHA digests of every BufferSource, an unknown algorithm, bad data.
const hex = (b) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, "0")).join("");
const data = new TextEncoder().encode("hello");
console.log(hex(await crypto.subtle.digest("SHA-256", data)));
console.log(hex(await crypto.subtle.digest({ name: "sha-1" }, data.buffer)));
console.log(hex(await crypto.subtle.digest("SHA-512", new DataView(data.buffer, 1, 3))).slice(0, 32));
console.log(hex(await crypto.subtle.digest("SHA-384", new Uint16Array([1, 2]))).slice(0, 32));
const r = await crypto.subtle.digest("MD5", data).catch((e) => [e.name, e.message]);
console.log(r);
const t = await crypto.subtle.digest("SHA-256", "text").catch((e) => [e.name]);
console.log(t);
