// Share links: files packed as #code=<base64url(deflate-raw(JSON {entry,
// files}))>, the form web/api.ShareURL writes too. Reading one is bounded:
// a link is at most MAX_LINK_CODE characters and its files at most
// MAX_SHARED_BYTES once inflated, so that a small link cannot make the page
// inflate hundreds of MB (a 265 KiB link once inflated to 200 MiB and the
// page never started). No DOM here: node --test runs it.

const EXT = /\.(ts|tsx|js|jsx|mjs|json)$/;
const PATH = /^(?!\/)(?:[A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+$/;

/** MAX_LINK_CODE bounds the #code= part of a link (the server's share links are at most 256 KiB). */
export const MAX_LINK_CODE = 256 << 10;
/** MAX_SHARED_BYTES bounds a link's JSON once inflated: room for the 256 KiB of source a run may have, escaped. */
export const MAX_SHARED_BYTES = 2 << 20;

/** validPath reports whether path is a relative snippet path with a known extension. */
export function validPath(path) {
  return PATH.test(path) && EXT.test(path) && !path.split("/").some((s) => s === "." || s === "..");
}

const b64url = {
  encode(bytes) {
    let s = "";
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  },
  decode: (s) => Uint8Array.from(atob(s.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0)),
};

/** encodeFiles packs { entry, files } into the #code= form (deflate-raw, base64url). */
export async function encodeFiles(data) {
  const json = new TextEncoder().encode(JSON.stringify(data));
  const out = await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer();
  return b64url.encode(new Uint8Array(out));
}

const kib = (n) => `${Math.ceil(n / 1024)} KiB`;

/** inflate decompresses deflate-raw bytes, stopping (and failing) past limit bytes. */
async function inflate(bytes, limit) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const parts = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > limit) {
      await reader.cancel();
      throw new RangeError(`its files inflate past ${kib(limit)}, the limit`);
    }
    parts.push(value);
  }
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * readShared unpacks encodeFiles' form: { data } with { entry, files }, or
 * { error } saying why the link cannot be opened (too long, inflating past
 * the limit, or not valid files).
 */
export async function readShared(code) {
  if (code.length > MAX_LINK_CODE) return { error: `the share link is ${kib(code.length)}; the limit is ${kib(MAX_LINK_CODE)}` };
  let json;
  try {
    json = await inflate(b64url.decode(code), MAX_SHARED_BYTES);
  } catch (e) {
    return { error: e instanceof RangeError ? `the share link was not opened: ${e.message}` : "the share link could not be read" };
  }
  try {
    const data = JSON.parse(new TextDecoder().decode(json));
    if (Array.isArray(data.files) && data.files.length > 0 && data.files.every((f) => validPath(f.path) && typeof f.source === "string")) return { data };
  } catch {
    /* not JSON */
  }
  return { error: "the share link could not be read" };
}

/** decodeFiles is readShared's files, or null. */
export async function decodeFiles(code) {
  return (await readShared(code)).data ?? null;
}

/** sameFiles reports whether a and b ({ entry, files }) hold the same files. */
export function sameFiles(a, b) {
  if (a.files.length !== b.files.length) return false;
  const m = new Map(b.files.map((f) => [f.path, f.source]));
  return a.files.every((f) => m.get(f.path) === f.source);
}
