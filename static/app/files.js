// Files: the snippet's files in tabs (each with its own CodeMirror state),
// the entry file, saving to localStorage, share links and download, and
// the error marks of the shown run.
import { $, el } from "./dom.js";
import { systemLine } from "./console.js";
import { decodeFiles, encodeFiles, readShared, validPath } from "./share.js";

export { decodeFiles, encodeFiles, validPath };

const STORAGE_KEY = "playground.files.v1";

// files: [{ path, state }] where state is the file's CodeMirror EditorState.
const files = [];
let active = 0;
let entry = "src/main.ts";
let errorMarks = new Map(); // path -> [{ line, message }] of the shown run
let editor = null;

/** useEditor sets the editor the files are shown in (call once, first). */
export function useEditor(e) {
  editor = e;
}

/** activePath is the path of the file in the editor. */
export const activePath = () => files[active]?.path ?? entry;

/** entryPath is the file the run starts from. */
export const entryPath = () => entry;

/** loadFiles replaces the files with { entry, files: [{ path, source }] }. */
export function loadFiles({ entry: e, files: fs }) {
  files.length = 0;
  for (const f of fs) files.push({ path: f.path, state: editor.newState(f.source, f.path) });
  entry = fs.some((f) => f.path === e) ? e : fs[0].path;
  active = Math.max(0, files.findIndex((f) => f.path === entry));
  editor.setState(files[active].state);
  renderTabs();
  save();
}

/** currentFiles returns the files as the protocol sends them: [{ path, source }]. */
export function currentFiles() {
  files[active].state = editor.getState();
  return files.map((f) => ({ path: f.path, source: f.state.doc.toString() }));
}

let onSave = () => {};

/** setOnSave sets what runs after every save (each edit, add, rename, removal, load). */
export function setOnSave(fn) {
  onSave = fn;
}

export function save() {
  if (files.length === 0) return;
  localStorage.setItem(STORAGE_KEY, JSON.stringify({ entry, files: currentFiles() }));
  onSave();
}

/** savedFiles returns the files saved in this browser, or null. */
export function savedFiles() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null");
    return saved && Array.isArray(saved.files) && saved.files.length > 0 ? saved : null;
  } catch {
    return null;
  }
}

export function select(i) {
  if (i < 0 || i >= files.length) return;
  files[active].state = editor.getState();
  active = i;
  editor.setState(files[i].state);
  editor.markErrors(errorMarks.get(files[i].path) ?? []);
  renderTabs();
  editor.focus();
}

/** selectNext moves to the next (step 1) or previous (step -1) tab, wrapping. */
export function selectNext(step) {
  select((active + step + files.length) % files.length);
}

function renderTabs() {
  const tabs = $("file-tabs");
  tabs.replaceChildren();
  files.forEach((f, i) => {
    const selected = i === active;
    // A group per file (not an ARIA tablist: a tablist may hold only tabs,
    // and each file has its own buttons); aria-current marks the open file.
    tabs.append(el("div", { class: selected ? "tab selected" : "tab", role: "group", "aria-label": f.path },
      el("button", {
        "data-testid": "file-tab", "data-path": f.path, "aria-current": selected ? "true" : undefined,
        onclick: () => select(i),
      }, f.path, f.path === entry ? el("span", { class: "entry-mark", "data-testid": "entry-mark", text: "entry" }) : ""),
      selected && f.path !== entry ? el("button", { class: "icon", "data-testid": "set-entry", title: "Make this the entry file", "aria-label": `Make ${f.path} the entry file`, onclick: () => setEntry(f.path) }, "★") : "",
      selected ? el("button", { class: "icon", "data-testid": "rename-file", title: "Rename", "aria-label": `Rename ${f.path}`, onclick: () => renameFile(i) }, "✎") : "",
      el("button", { class: "icon close", "data-testid": "remove-file", "aria-label": `Remove ${f.path}`, onclick: () => removeFile(i) }, "×")));
  });
  tabs.append(el("button", { class: "icon", "data-testid": "add-file", "aria-label": "Add a file", title: "Add a file", onclick: addFile }, "+"));
}

function setEntry(path) {
  entry = path;
  renderTabs();
  save();
}

function askPath(message, initial) {
  const path = prompt(message, initial);
  if (!path) return null;
  if (!validPath(path)) {
    systemLine(`"${path}" is not a valid path: relative, segments of A-Z a-z 0-9 . _ -, ending in .ts .tsx .js .jsx .mjs or .json`, "error");
    return null;
  }
  return path;
}

function addFile() {
  const path = askPath("New file path (e.g. src/util.ts)", "src/util.ts");
  if (!path) return;
  if (files.some((f) => f.path === path)) return select(files.findIndex((f) => f.path === path));
  files[active].state = editor.getState();
  files.push({ path, state: editor.newState("", path) });
  select(files.length - 1);
  save();
}

function renameFile(i) {
  const old = files[i].path;
  const path = askPath(`Rename ${old} to`, old);
  if (!path || path === old) return;
  if (files.some((f) => f.path === path)) {
    systemLine(`${path} already exists`, "error");
    return;
  }
  files[active].state = editor.getState();
  files[i] = { path, state: editor.newState(files[i].state.doc.toString(), path) };
  if (entry === old) entry = path;
  if (i === active) editor.setState(files[i].state);
  renderTabs();
  save();
}

function removeFile(i) {
  if (files.length === 1) return;
  if (!confirm(`Remove ${files[i].path}?`)) return;
  files[active].state = editor.getState();
  const [removed] = files.splice(i, 1);
  if (removed.path === entry) entry = files[0].path;
  active = Math.min(active >= i && active > 0 ? active - 1 : active, files.length - 1);
  editor.setState(files[active].state);
  renderTabs();
  save();
}

// ---- error marks of the shown run ----

export function clearErrorMarks() {
  errorMarks = new Map();
  editor.markErrors([]);
}

/** markError marks line of path with message (shown now if path is open). */
export function markError(path, line, message) {
  const marks = errorMarks.get(path) ?? [];
  marks.push({ line, message });
  errorMarks.set(path, marks);
  if (files[active]?.path === path) editor.markErrors(marks);
}

/** openAt shows path and puts the cursor at line:column (1-based). */
export function openAt(path, line, column) {
  const i = files.findIndex((f) => f.path === path);
  if (i < 0) return;
  if (i !== active) select(i);
  editor.goTo(line, column);
}

// ---- sharing ----

/** embedSnippet is the one-line script a docs page pastes to embed files packed as code. */
export function embedSnippet(code) {
  return `<script src="${location.origin}/static/embed.js" data-code="${code}" data-height="320"></script>`;
}

/** fromHash reads files from a #code= share link, or returns null (saying why, for a link it cannot open). */
export async function fromHash() {
  const m = /^#code=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!m) return null;
  const { data, error } = await readShared(m[1]);
  if (error) systemLine(`${error}; showing your saved files`, "warn");
  return data ?? null;
}

/** wireSharing connects the Share and Download buttons. */
export function wireSharing() {
  $("share-button").addEventListener("click", async () => {
    const code = await encodeFiles({ entry, files: currentFiles() });
    const url = `${location.origin}${location.pathname}#code=${code}`;
    $("share-url").value = url;
    $("embed-snippet").value = embedSnippet(code);
    $("share-panel").hidden = false;
    $("share-url").select();
    navigator.clipboard?.writeText(url).catch(() => {});
  });
  $("share-close").addEventListener("click", () => ($("share-panel").hidden = true));
  $("download-button").addEventListener("click", () => {
    const blob = new Blob([JSON.stringify({ entry, files: currentFiles() }, null, 2)], { type: "application/json" });
    const a = el("a", { href: URL.createObjectURL(blob), download: "playground-files.json" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });
}
