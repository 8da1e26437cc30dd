try { await Promise.any([]); } catch (e) { console.log(e.name, JSON.stringify(e.message), e.errors, e instanceof AggregateError, Object.keys(e)); }
try { await Promise.any([Promise.reject(1), Promise.reject(2)]); } catch (e) { console.log(JSON.stringify(e.message), e.errors); }
console.log(await Promise.any([Promise.reject(1), Promise.resolve(2), 3]));
const order = [];
Promise.any([Promise.resolve("a")]).then((v) => order.push("any " + v));
Promise.resolve().then(() => order.push("t1")).then(() => order.push("t2")).then(() => order.push("t3"));
await new Promise((r) => setTimeout(r, 5));
console.log(order.join(","));
console.log(Promise.any.length, Promise.any.name, String(Promise.any));
Promise.any([]).catch((e) => console.log(e));
