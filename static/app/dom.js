// DOM helpers shared by the page's modules. Text always goes in through
// textContent (the "text" prop or string children), never as HTML.

/** $ returns the element with data-testid=id (the page's stable hooks). */
export const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

/**
 * el creates an element: props are attributes, except "class", "text"
 * (textContent) and on* (event listeners); false/null/undefined props and
 * empty children are skipped.
 */
export const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children.filter((c) => c !== undefined && c !== null && c !== ""));
  return node;
};
