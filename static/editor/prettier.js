// Prettier's standalone build with the parsers the playground's files
// need, bundled into ../prettier.bundle.js and imported by the page only
// when Format is first used.
import { format as prettierFormat } from "prettier/standalone";
import * as babel from "prettier/plugins/babel";
import * as estree from "prettier/plugins/estree";
import * as typescript from "prettier/plugins/typescript";

const parsers = { ts: "typescript", tsx: "typescript", mts: "typescript", cts: "typescript", js: "babel", jsx: "babel", mjs: "babel", json: "json" };

/**
 * format returns source formatted by Prettier, the parser chosen by path's
 * extension; it rejects with Prettier's error (with line and column) when
 * source does not parse.
 */
export function format(source, path) {
  const ext = /\.([a-z]+)$/.exec(path)?.[1] ?? "ts";
  return prettierFormat(source, { parser: parsers[ext] ?? "typescript", plugins: [babel, estree, typescript] });
}
