function work(signal) {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => resolve("done"), 50);
    signal.addEventListener("abort", () => { clearTimeout(t); reject(signal.reason); }, { once: true });
  });
}
const c = new AbortController();
setTimeout(() => c.abort(new Error("stop")), 5);
try { await work(c.signal); } catch (e) { console.log("aborted:", e.message); }
