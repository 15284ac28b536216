// JSON.stringify(value, null, 2), the same text, in pieces. A report of a million references is more text than
// one V8 string may hold (2^29 characters), so big arrays are written an element at a time and the objects
// around them a property at a time; everything small is stringified whole.

/** Arrays longer than this, and whatever holds one, are written in pieces. */
export const WHOLE_LIMIT = 64;

/**
 * An array whose elements are made as they are written, never held all at once (SARIF's results: one object per
 * finding, each bigger than the finding). Written as JSON.stringify would write the array of its elements.
 */
export class LazyArray {
  constructor(readonly elements: () => Iterable<unknown>) {}
}

/** Values JSON.stringify leaves out of an object (and writes as null in an array). */
const omitted = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

function isSmall(value: unknown, limit: number, depth: number): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (value instanceof LazyArray) return false;
  // Deep inside a report there are no big arrays; toJSON is left to JSON.stringify.
  if (depth > 6 || typeof (value as { toJSON?: unknown }).toJSON === 'function') return true;
  if (Array.isArray(value)) {
    if (value.length > limit) return false;
    for (const v of value) if (!isSmall(v, limit, depth + 1)) return false;
    return true;
  }
  for (const key of Object.keys(value)) if (!isSmall((value as Record<string, unknown>)[key], limit, depth + 1)) return false;
  return true;
}

export function* jsonPieces(value: unknown, indent = '', limit = WHOLE_LIMIT): Generator<string> {
  if (isSmall(value, limit, 0)) {
    yield indented(value, indent);
    return;
  }
  const inner = indent + '  ';
  if (value instanceof LazyArray) {
    const it = value.elements()[Symbol.iterator]();
    let next = it.next();
    if (next.done) {
      yield '[]';
      return;
    }
    yield '[\n';
    while (!next.done) {
      const element = next.value;
      next = it.next();
      yield inner;
      yield* jsonPieces(omitted(element) ? null : element, inner, limit);
      yield next.done ? '\n' : ',\n';
    }
    yield indent + ']';
    return;
  }
  if (Array.isArray(value)) {
    yield '[\n';
    for (let i = 0; i < value.length; i++) {
      yield inner;
      yield* jsonPieces(omitted(value[i]) ? null : value[i], inner, limit);
      yield i < value.length - 1 ? ',\n' : '\n';
    }
    yield indent + ']';
    return;
  }
  const keys = Object.keys(value as object).filter((k) => !omitted((value as Record<string, unknown>)[k]));
  yield '{\n';
  for (let i = 0; i < keys.length; i++) {
    yield `${inner}${JSON.stringify(keys[i])}: `;
    yield* jsonPieces((value as Record<string, unknown>)[keys[i]!], inner, limit);
    yield i < keys.length - 1 ? ',\n' : '\n';
  }
  yield indent + '}';
}

/**
 * JSON.stringify(value, null, 2) with each line after the first at `indent`. An object (or array) at an indent of
 * spaces is stringified inside arrays nested that deep, which JSON.stringify indents as it writes: one pass over
 * the text, where replacing each line end made it twice (the CLI's JSON report of the corpus is 7 MB of it).
 */
function indented(value: unknown, indent: string): string {
  const depth = indent.length / 2;
  if (indent === '' || typeof value !== 'object' || value === null || typeof (value as { toJSON?: unknown }).toJSON === 'function' || !Number.isInteger(depth) || indent !== ' '.repeat(indent.length)) {
    const text = JSON.stringify(value, null, 2);
    return indent === '' || !text.includes('\n') ? text : text.replace(/\n/g, '\n' + indent);
  }
  let wrapped: unknown = value;
  for (let i = 0; i < depth; i++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, null, 2);
  // Before the value, a "[" line at each depth and the value's indent: d(d + 3) characters; after it, a line end
  // and "]" at each depth: d(d + 1).
  return text.slice(depth * (depth + 3), text.length - depth * (depth + 1));
}

/** The pieces of a JSON document as the CLI writes it: the value, then a line end. */
export function* jsonDocument(value: unknown): Generator<string> {
  yield* jsonPieces(value);
  yield '\n';
}
