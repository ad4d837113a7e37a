// The raw JSON request editor: CodeJar (vendored) with a small JSON
// highlighter that builds spans, and {{variables}} marked.
import { CodeJar } from "../vendor/codejar.js";

const TOKENS = /("(?:\\.|[^"\\])*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b|(\{\{[^}]*\}\})|([{}[\],:])/g;

export function highlight(el) {
  const text = el.textContent;
  const frag = document.createDocumentFragment();
  let last = 0, m;
  TOKENS.lastIndex = 0;
  while ((m = TOKENS.exec(text)) !== null) {
    if (m.index > last) frag.appendChild(document.createTextNode(text.slice(last, m.index)));
    let cls;
    if (m[1] !== undefined) cls = m[5] === undefined && m[2] !== undefined ? "tk-key" : "tk-str";
    else if (m[3] !== undefined) cls = "tk-num";
    else if (m[4] !== undefined) cls = "tk-lit";
    else if (m[5] !== undefined) cls = "tk-var";
    else cls = "tk-punct";
    if (m[1] !== undefined && m[2] !== undefined) {
      frag.appendChild(span("tk-key", m[1]));
      frag.appendChild(document.createTextNode(m[2]));
    } else {
      frag.appendChild(span(cls, m[0]));
    }
    last = m.index + m[0].length;
  }
  if (last < text.length) frag.appendChild(document.createTextNode(text.slice(last)));
  el.replaceChildren(frag);
}

function span(cls, text) {
  const s = document.createElement("span");
  s.className = cls;
  s.textContent = text;
  return s;
}

// makeEditor turns el into an editor holding text; onChange gets each edit.
export function makeEditor(el, text, onChange) {
  el.classList.add("editor");
  el.setAttribute("spellcheck", "false");
  el.setAttribute("role", "textbox");
  el.setAttribute("aria-multiline", "true");
  const jar = CodeJar(el, highlight, { tab: "  ", addClosing: false });
  jar.updateCode(text);
  jar.onUpdate((code) => onChange(code));
  return jar;
}
