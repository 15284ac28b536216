// jdf-filespec.config.json: JSON text to a checked config, or problems each with its line and column. Pure:
// the caller reads the file and hands over the schema's validator (parse.ts compiles one with Ajv; the page,
// whose policy forbids compiling code, brings one Ajv generated at build time).
import type { ErrorObject, ValidateFunction } from 'ajv';
import jsonc from 'jsonc-parser';
import { unknownRule, type RuleSetting } from '../rules/settings.js';
import { KEEP_TAKES } from './keep.js';
import { unknownVocabulary } from '../ticket/vendor.js';
import { parseUrlAttribute } from '../ticket/vocabulary.js';
import { buildTable, type TableProblem, type ViewsConfig } from '../views/build.js';
import type { ViewTable } from '../views/types.js';

export interface ConfigProblem {
  line: number;
  column: number;
  message: string;
}

export interface Config extends ViewsConfig {
  /** ELEMENT/@ATTR[=directory], as --url-attribute takes them. */
  urlAttributes?: string[];
  /** Vendor vocabularies read as well, by name (validateTicket's `vocabularies`). */
  vocabularies?: string[];
  /** Rule codes at another severity, or off (validateTicket's `rules`). */
  rules?: Record<string, RuleSetting>;
  /** `serve`: where it keeps jobs and passes accepted ones on (paths relative to the config's folder). */
  serve?: ServeConfig;
}

export interface ServeConfig {
  /** The outbox folder: each queue entry's submission, reports and status. */
  outbox?: string;
  /** A downstream device's JMF URL: accepted jobs are forwarded to it as sent. */
  forward?: string;
  /** A hot folder (watch's IN): accepted jobs are dropped into it. */
  hotFolder?: string;
  /** The URL serve is reached at, for the report links in its answers. */
  publicUrl?: string;
  /** The URL prefixes serve may fetch http(s) tickets from; none by default. */
  fetchFrom?: string[];
  /** How long a finished queue entry is kept in the outbox, as --keep takes it (keep.ts reads it): 30d, 12h, forever. */
  keep?: string;
}

export type ParsedConfig = { config: Config; table: ViewTable; problems: [] } | { problems: ConfigProblem[] };

type Path = Array<string | number>;

/** 1-based line and column (UTF-16 code units) of an offset. */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** Where a JSON path sits in the text: the value, or with `key` the property name. */
function offsetOf(root: jsonc.Node | undefined, path: Path, key = false): number {
  if (!root) return 0;
  const node = jsonc.findNodeAtLocation(root, path);
  if (!node) return path.length > 0 ? offsetOf(root, path.slice(0, -1)) : 0;
  if (key && node.parent?.type === 'property') return node.parent.offset;
  return node.offset;
}

function pointerPath(pointer: string, root: jsonc.Node | undefined): Path {
  if (pointer === '') return [];
  const out: Path = [];
  for (const raw of pointer.slice(1).split('/')) {
    const name = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const parent = root ? jsonc.findNodeAtLocation(root, out) : undefined;
    out.push(parent?.type === 'array' ? Number(name) : name);
  }
  return out;
}

/** jsonc-parser's error codes in words a person reads (its own names, printParseErrorCode, are identifiers). */
const JSON_WORDS: Record<string, string> = {
  InvalidSymbol: 'a character JSON does not allow here',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'a property name in double quotes was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: "':' was expected after the property name",
  CommaExpected: "',' was expected between two items",
  CloseBraceExpected: "'}' was expected to close the object",
  CloseBracketExpected: "']' was expected to close the array",
  EndOfFileExpected: 'there is more after the end of the JSON value',
  InvalidCommentToken: 'a comment, which JSON does not allow; remove it',
  UnexpectedEndOfComment: 'the comment is not closed',
  UnexpectedEndOfString: 'the string is not closed (a \'"\' is missing)',
  UnexpectedEndOfNumber: 'the number is cut off',
  InvalidUnicode: 'a malformed \\u escape',
  InvalidEscapeCharacter: 'an escape JSON does not know (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)',
  InvalidCharacter: 'a control character inside a string; escape it',
};

/**
 * The first JSON syntax error, in words, as JSON.parse reports one: what follows it is read from a wrong place
 * (a trailing comma is both "property name expected" and "value expected"). A comma before '}' or ']' is named.
 */
function jsonProblem(text: string, errors: readonly jsonc.ParseError[]): ConfigProblem {
  const first = errors[0];
  if (first === undefined) return { line: 1, column: 1, message: 'not valid JSON: the file is empty' };
  const before = text.slice(0, first.offset).trimEnd();
  const next = text.slice(first.offset).trimStart()[0];
  if (before.endsWith(',') && (next === '}' || next === ']')) {
    return { ...position(text, before.length - 1), message: `not valid JSON: a trailing comma before '${next}', which JSON does not allow; remove it` };
  }
  if (first.error === jsonc.ParseErrorCode.ValueExpected && text.trim() === '') return { line: 1, column: 1, message: 'not valid JSON: the file is empty' };
  const code = jsonc.printParseErrorCode(first.error);
  return { ...position(text, first.offset), message: `not valid JSON: ${JSON_WORDS[code] ?? code}` };
}

const TYPE_WORDS: Record<string, string> = { string: 'a string', object: 'an object', array: 'an array', boolean: 'true or false', number: 'a number', integer: 'a whole number', null: 'null' };

/** Type errors at one place (a oneOf of types gives one per branch) as one: "must be a string or an object, not a number". */
function mergedTypes(errors: readonly ErrorObject[], root: jsonc.Node | undefined): ErrorObject[] {
  const types = new Map<string, string[]>();
  for (const e of errors) if (e.keyword === 'type') types.set(e.instancePath, [...(types.get(e.instancePath) ?? []), ...[(e.params as { type: string | string[] }).type].flat()]);
  const done = new Set<string>();
  const out: ErrorObject[] = [];
  for (const e of errors) {
    if (e.keyword !== 'type') {
      if (!types.has(e.instancePath)) out.push(e);
      continue;
    }
    if (done.has(e.instancePath)) continue;
    done.add(e.instancePath);
    const node = root ? jsonc.findNodeAtLocation(root, pointerPath(e.instancePath, root)) : undefined;
    const wanted = [...new Set(types.get(e.instancePath)!)].map((t) => TYPE_WORDS[t] ?? t).join(' or ');
    out.push({ ...e, message: `must be ${wanted}${node ? `, not ${TYPE_WORDS[node.type] ?? node.type}` : ''}` });
  }
  return out;
}

/** What a value held to a pattern takes, in words, by its place: the pattern itself says it to no one. */
const PATTERN_WORDS: Record<string, string> = { '/serve/keep': KEEP_TAKES };

const shown = (path: Path) => (path.length === 0 ? 'the config' : path.map(String).join('.'));

function schemaProblem(text: string, root: jsonc.Node | undefined, e: ErrorObject): ConfigProblem {
  let path = pointerPath(e.instancePath, root);
  let message = e.message ?? 'is not valid';
  if (e.keyword === 'additionalProperties') {
    const name = String((e.params as { additionalProperty: string }).additionalProperty);
    path = [...path, name];
    message = 'is not a setting jdf-filespec knows';
    return { ...position(text, offsetOf(root, path, true)), message: `${shown(path)}: ${message}` };
  }
  if (e.keyword === 'propertyNames') {
    const name = String((e.params as { propertyName: string }).propertyName);
    path = [...path, name];
    return { ...position(text, offsetOf(root, path, true)), message: `${shown(path)}: '${name}' is not a valid name (letters, digits, "_", "." and "-", not first)` };
  }
  const takes = e.keyword === 'pattern' ? PATTERN_WORDS[e.instancePath] : undefined;
  if (takes !== undefined) {
    const node = root ? jsonc.findNodeAtLocation(root, path) : undefined;
    message = `must be ${takes}${node ? `, not ${JSON.stringify(jsonc.getNodeValue(node))}` : ''}`;
  }
  if (e.keyword === 'enum') message += `: ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  return { ...position(text, offsetOf(root, path)), message: `${shown(path)}: ${message}` };
}

/** Checks a config: strict JSON (no comments, no trailing commas), the schema (`validate`), then the table's own rules. */
export function checkConfig(text: string, validate: ValidateFunction, hostname = ''): ParsedConfig {
  const errors: jsonc.ParseError[] = [];
  const root = jsonc.parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length > 0 || !root) {
    return { problems: [jsonProblem(text, errors)] };
  }
  const value: unknown = jsonc.getNodeValue(root);
  if (!validate(value)) {
    // oneOf reports every branch, and a bad property name twice (its pattern, then propertyNames): one line each.
    const problems = mergedTypes((validate.errors ?? []).filter((e) => (e.keyword !== 'oneOf' || validate.errors!.length === 1) && e.propertyName === undefined), root).map((e) => schemaProblem(text, root, e));
    const unique = problems.filter((p, k) => problems.findIndex((q) => q.line === p.line && q.column === p.column && q.message === p.message) === k);
    return { problems: unique };
  }
  const config = value as Config;
  const built = buildTable(config, hostname);
  const table = built.table;
  const problems = [...built.problems, ...urlAttributeProblems(config), ...ruleProblems(config), ...vocabularyProblems(config)];
  if (problems.length > 0) return { problems: problems.map((p) => ({ ...position(text, offsetOf(root, p.at, p.key)), message: `${shown(p.at)}: ${p.message}` })) };
  return { config, table, problems: [] };
}

/** Each urlAttributes entry must read as --url-attribute reads it. */
function urlAttributeProblems(config: Config): TableProblem[] {
  const problems: TableProblem[] = [];
  (config.urlAttributes ?? []).forEach((text, k) => {
    if (parseUrlAttribute(text) === undefined) problems.push({ at: ['urlAttributes', k], message: `'${text}' is not ELEMENT/@ATTR or ELEMENT/@ATTR=directory (such as Device/@HDM:Hotfolder=directory or HDM:ReportList/@Directory=directory)` });
  });
  return problems;
}

/** Each rules key must be a rule's code; the message names the nearest one. */
function ruleProblems(config: Config): TableProblem[] {
  return Object.keys(config.rules ?? {}).flatMap((code) => {
    const problem = unknownRule(code);
    return problem !== undefined ? [{ at: ['rules', code], key: true, message: problem }] : [];
  });
}

/** Each vocabularies entry must name a vendor vocabulary. */
function vocabularyProblems(config: Config): TableProblem[] {
  return (config.vocabularies ?? []).flatMap((name, k) => {
    const problem = unknownVocabulary(name);
    return problem !== undefined ? [{ at: ['vocabularies', k], message: problem }] : [];
  });
}
