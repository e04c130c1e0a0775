// @ts-check
// The page's elements: found by id, and made. Every module takes these from here.

/**
 * The element with this id (the page's ids are unique), of the kind asked: `$("board")` is
 * an HTMLElement, `$("player-name", HTMLInputElement)` an input. An id that is missing, or
 * names another kind of element, throws at once, naming it: the page's markup and its
 * scripts disagree, and the type tsc gives the element is then true.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {new (...args: any[]) => T} [kind]
 * @returns {T}
 */
export function $(id, kind) {
  const found = document.getElementById(id);
  const wanted = kind ?? HTMLElement;
  if (!(found instanceof wanted)) {
    const is = found ? `a ${found.constructor.name}` : "missing";
    throw new Error(`#${id} is ${is}, not a ${wanted.name}`);
  }
  return /** @type {T} */ (found);
}

/**
 * A new element: `props` set on it as properties (className, textContent, type, id…), and
 * `children` (elements or strings) appended.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Partial<HTMLElementTagNameMap[K]>} [props]
 * @param {...(Node | string)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function element(tag, props = {}, ...children) {
  const made = document.createElement(tag);
  Object.assign(made, props);
  made.append(...children);
  return made;
}
