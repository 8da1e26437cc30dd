const c = new AbortController();
const seen = [];
c.signal.addEventListener("abort", (e) => seen.push(e.type + ":" + (e.target === c.signal)));
c.signal.onabort = () => seen.push("onabort");
console.log(c.signal.aborted);
c.abort("why");
c.abort("again");
console.log(c.signal.aborted, c.signal.reason, seen.join(","));
