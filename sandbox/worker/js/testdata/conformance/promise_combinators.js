const r = await Promise.allSettled([Promise.resolve(1), Promise.reject(new Error("x"))]);
console.log(r.map((x) => x.status).join(","));
console.log(await Promise.any([Promise.reject(1), Promise.resolve(2)]));
try { await Promise.any([Promise.reject(1)]); } catch (e) { console.log(e.constructor.name, e.errors.join()); }
console.log(await Promise.race([new Promise((r) => setTimeout(() => r("slow"), 20)), new Promise((r) => setTimeout(() => r("fast"), 1))]));
