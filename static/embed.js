// embed.js turns one <script> tag on any page into a runnable playground
// example: it writes an iframe of this server's /embed next to itself.
//
//   <script src="https://playground.example/static/embed.js"
//           data-autorun data-readonly data-theme="dark" data-height="260"
//           data-preamble="export const db = new Map([['a', 1]]);">
//   console.log("hello");
//   </script>
//
// The example's code is, first found: data-code (a share link's #code=
// value), data-files (JSON [{ "path", "source" }], data-entry names the
// entry), the element data-source selects (its text), or the script's own
// text (as src/main.ts). data-preamble's text is a hidden file,
// src/preamble.ts, the example may import. The iframe (returned in the
// script's "playground:embed" event and found as the script's next sibling)
// has run() and dispatches a "playground:result" CustomEvent with the run's
// result; see docs/editor.md for the postMessage API underneath.
(() => {
  const script = document.currentScript;
  if (!script) return;
  const d = script.dataset;
  const base = new URL("..", script.src).href.replace(/\/$/, ""); // .../static/embed.js → ...
  const origin = new URL(script.src).origin;
  const flag = (name) => name in d && d[name] !== "false" && d[name] !== "0";
  const dedent = (text) => {
    const lines = text.replace(/^\s*\n/, "").replace(/\s+$/, "").split("\n");
    const pad = Math.min(...lines.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)[0].length));
    return lines.map((l) => l.slice(pad)).join("\n") + "\n";
  };

  function filesOf() {
    if (d.files) {
      const files = JSON.parse(d.files);
      return { entry: d.entry || files[0].path, files };
    }
    const src = d.source ? document.querySelector(d.source)?.textContent ?? "" : script.textContent;
    return { entry: "src/main.ts", files: [{ path: "src/main.ts", source: dedent(src) }] };
  }

  async function pack(data) {
    const bytes = new TextEncoder().encode(JSON.stringify(data));
    const packed = new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer());
    let s = "";
    for (let i = 0; i < packed.length; i += 0x8000) s += String.fromCharCode(...packed.subarray(i, i + 0x8000));
    return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  }

  const iframe = document.createElement("iframe");
  const id = d.id || `pg-${Math.random().toString(36).slice(2, 10)}`;
  iframe.id = id;
  iframe.title = d.title || "Runnable example";
  iframe.loading = "lazy";
  iframe.style.cssText = `display:block;width:100%;height:${Math.max(120, Number(d.height) || 320)}px;border:1px solid #d0d7de;border-radius:6px;`;
  iframe.run = () => iframe.contentWindow?.postMessage({ type: "playground:run" }, origin);
  script.after(iframe);

  window.addEventListener("message", (e) => {
    if (e.source !== iframe.contentWindow || e.origin !== origin || !e.data || e.data.id !== id) return;
    if (e.data.type === "playground:result" || e.data.type === "playground:ready") {
      iframe.dispatchEvent(new CustomEvent(e.data.type, { detail: e.data }));
    }
  });

  (async () => {
    let code = d.code;
    const hidden = [];
    if (!code) {
      const data = filesOf();
      if (d.preamble) {
        data.files.push({ path: "src/preamble.ts", source: dedent(d.preamble) });
        hidden.push("src/preamble.ts");
      }
      code = await pack(data);
    }
    const q = new URLSearchParams({ id });
    if (flag("readonly")) q.set("readonly", "1");
    if (flag("autorun")) q.set("autorun", "1");
    if (d.theme) q.set("theme", d.theme);
    if (d.hidden) hidden.push(...d.hidden.split(","));
    if (hidden.length) q.set("hidden", hidden.join(","));
    iframe.src = `${base}/embed?${q}#code=${code}`;
  })();
})();
