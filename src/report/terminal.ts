// What a terminal is given must not drive it: a ticket's value, a file name or a diff line holding ESC, BEL or a
// C1 control (CSI is U+009B) could retitle, clear or recolour the operator's terminal, and a bidi override
// (U+202A-U+202E, U+2066-U+2069, Unicode's "Trojan Source" characters) could show text in another order than it
// is. Each is written as \uXXXX, as a JSON string writes a control. A tab is kept: it only moves the cursor on.

const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

const escaped = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every C0 control but tab, DEL, every C1 control and every bidi embedding, override and isolate written as \uXXXX. */
export function forTerminal(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, escaped) : text;
}

/** Lines of text (a diff) for a terminal: each line as forTerminal writes it, its "\n" and a "\r" just before it kept. */
export function linesForTerminal(text: string): string {
  if (!UNSAFE.test(text.replace(/\r?\n/g, ''))) return text;
  return text.split('\n').map((line) => (line.endsWith('\r') ? forTerminal(line.slice(0, -1)) + '\r' : forTerminal(line))).join('\n');
}
