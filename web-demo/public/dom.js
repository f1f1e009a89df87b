// DOM helpers of the demo page, shared by its modules: an element by id, and a new element
// with a class and text (text nodes only: never parsed as HTML).

export const $ = (id) => document.getElementById(id);

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
