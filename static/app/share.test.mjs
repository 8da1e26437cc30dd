// Checks share links (share.js): they round-trip, and reading one is
// bounded: a link past MAX_LINK_CODE and one that inflates past
// MAX_SHARED_BYTES are refused with a message, without inflating it all.
// Run with `node --test static/`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { deflateRawSync } from "node:zlib";
import { encodeFiles, readShared, sameFiles, MAX_LINK_CODE, MAX_SHARED_BYTES } from "./share.js";

const b64url = (buf) => Buffer.from(buf).toString("base64url");

test("a share link round-trips", async () => {
  const data = { entry: "main.ts", files: [{ path: "main.ts", source: "console.log('hi')" }] };
  const { data: got, error } = await readShared(await encodeFiles(data));
  assert.equal(error, undefined);
  assert.deepEqual(got, data);
  assert.ok(sameFiles(got, data));
  assert.ok(!sameFiles(got, { entry: "main.ts", files: [{ path: "main.ts", source: "changed" }] }));
});

const bomb = (mib) =>
  b64url(deflateRawSync(Buffer.concat([Buffer.from('{"entry":"main.ts","files":[{"path":"main.ts","source":"'), Buffer.alloc(mib << 20, 97), Buffer.from('"}]}')]), { level: 9 }));

test("the issue's link (265 KiB, 200 MiB inflated) is refused by its length", async () => {
  const code = bomb(200);
  assert.equal(Math.ceil(code.length / 1024), 266);
  const { data, error } = await readShared(code);
  assert.equal(data, undefined);
  assert.match(error, /the share link is 266 KiB; the limit is 256 KiB/);
});

test("a link that inflates past the limit is refused", async () => {
  const code = bomb(100); // ~133 KiB of link: under its limit

  assert.ok(code.length < MAX_LINK_CODE, `the link is ${code.length} characters`);
  const { data, error } = await readShared(code);
  assert.equal(data, undefined);
  assert.match(error, new RegExp(`inflate past ${MAX_SHARED_BYTES / 1024} KiB`));
});

test("a link longer than the limit is refused unread", async () => {
  const { data, error } = await readShared("A".repeat(MAX_LINK_CODE + 1));
  assert.equal(data, undefined);
  assert.match(error, /the share link is 257 KiB; the limit is 256 KiB/);
});

test("a link that is not files says it could not be read", async () => {
  assert.equal((await readShared(b64url(deflateRawSync('{"files":[]}')))).error, "the share link could not be read");
  assert.equal((await readShared("not_valid")).error, "the share link could not be read");
});
