let n = 0;
await new Promise((resolve) => { const id = setInterval(() => { n++; if (n === 3) { clearInterval(id); resolve(); } }, 1); });
console.log("ticks", n);
