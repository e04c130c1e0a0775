// The page's elements: found by id, and made. Every module takes these from here.

/** The element with this id (the page's ids are unique). */
export const $ = (id) => document.getElementById(id);

/** A new element: `props` set on it as properties (className, textContent, type, id…), and
 * `children` (elements or strings) appended. */
export function element(tag, props = {}, ...children) {
  const made = Object.assign(document.createElement(tag), props);
  made.append(...children);
  return made;
}
