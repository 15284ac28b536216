import { XMLValidator } from 'fast-xml-parser';
import { checkUrl } from '../check.js';
import type { Locality } from '../fileurl/locality.js';
import { redactPassword, redactText } from '../fileurl/redact.js';
import { redactSecrets } from '../fileurl/secrets.js';
import { rulesByCode } from '../rules/catalog.js';
import type { CheckOptions, Finding, Platform, Profile, ReferenceKind, Role } from '../rules/types.js';
import { parseReference } from '../uri/parse.js';
import type { MappedBy } from '../views/types.js';
import { fileSpecFacts, type FileSpecFacts } from './filespec-facts.js';
import { resolveReference } from '../uri/resolve.js';
import type { Attribute } from './attributes.js';
import { decodeTicket } from './decode.js';
import { scanMarkup } from './markup-scan.js';
import { doctypeProblems, readDoctype } from './doctype.js';
import { LineIndex } from './positions.js';
import { disagreement } from './readings.js';
import { NONE, type ElementTree } from './elements.js';
import { MAX_DEPTH } from './runs.js';
import { buildTree, firstNonMisc, FORBIDDEN_CHAR, TooDeepError } from './tree.js';
import { checkIdentifier } from './identifier.js';
import { FAMILY_ROOTS, isRefElement, NOT_RESOURCES, TICKET_ROOTS, vocabularyWith, XJDF_NAMESPACE, type Family, type UrlAttribute, type VocabularyRow } from './vocabulary.js';

export type BaseSource = 'directory' | 'document' | 'option' | 'container' | 'none';

export interface LocatedFinding extends Finding {
  line: number;
  column: number;
}

export interface TicketReference {
  /** XPath-like path of the element that holds the attribute. */
  element: string;
  attribute: string;
  /** `identifier`: a URI that names nothing to open (DevNS), checked as an absolute URI only. */
  role: Role | 'identifier';
  /** The attribute value after XML decoding (a password masked). */
  value: string;
  /** Where the value starts in the file (1-based). */
  line: number;
  column: number;
  /** Where the value ends: line and column just past its last character. */
  endLine: number;
  endColumn: number;
  /** Character offsets of the value in the decoded text, [start, end). */
  span: [number, number];
  base: string | null;
  baseSource: BaseSource;
  /** The path of the rRef element through which this use was reached, if any. */
  via?: string;
  kind: ReferenceKind;
  scheme?: string;
  resolved: string | null;
  local: Locality;
  findings: LocatedFinding[];
  /** The value with every safe fix applied, when one exists. */
  fixed?: string;
  /** With a view table: which view and entry it fell under, and the local path it was looked for at. */
  mappedBy?: MappedBy;
  /** What the FileSpec declares about its file (FileSize, CheckSum, MimeType), for --check-exists to compare. */
  fileSpec?: FileSpecFacts;
}

export interface TicketReport {
  /** The charset the ticket was read in. */
  encoding: string;
  root?: string;
  /** JDF/@Version (or 2.0 for XJDF), which decides the raw non-ASCII rule. */
  jdfVersion?: string;
  references: TicketReference[];
  /** Findings about the file itself (XML, encoding, rRefs). */
  findings: LocatedFinding[];
}

export interface ValidateOptions {
  /** The ticket's own URI (file:///pub/hot-folder/ticket.jdf): its folder is the base when there is no Directory. */
  documentUri?: string;
  /** Overrides the ticket's folder as the base. */
  base?: string;
  profile?: Profile;
  platform?: Platform;
  drivePreserving?: boolean;
  localHosts?: readonly string[];
  /** Larger inputs are not read (a finding instead). Default 512 MiB. */
  maxBytes?: number;
  /**
   * Run fast-xml-parser's full validator before anything else. Without it, the structure is still checked
   * (tags closed by their own end tags, nothing outside the root, no forbidden characters, the attributes of
   * every element we read), in the same pass that builds the tree; with it, attribute syntax and entity use
   * are checked in elements we do not read as well, at the cost of a second pass.
   */
  strictXml?: boolean;
  /** Overrides the ticket's JDF/@Version for the raw non-ASCII rule. */
  jdfVersion?: string;
  /**
   * Tickets longer than this many characters are parsed a run of sibling elements at a time (default 256 Ki),
   * which keeps memory near the size of the file; the report is the same either way.
   */
  chunkChars?: number;
  /** Attributes to read beyond the schemas' (`--url-attribute`), such as a vendor's hot folder. */
  urlAttributes?: readonly VocabularyRow[];
}

const DEFAULT_MAX_BYTES = 512 * 1024 * 1024;

interface Base {
  uri: string | null;
  source: BaseSource;
  /** The element whose Directory this is. */
  from?: number;
}

interface WalkContext {
  /** The base of FileSpec/@URL (and Preview/@URL): the Directory that applies, the container, or the ticket's folder. */
  fileBase: Base;
  via?: string;
  /** IDs of the resources on the current rRef chain, against cycles. */
  chain: readonly string[];
  /** Whose vocabulary applies: the nearest root's; PrintTalk reads XJDF elements by namespace. */
  family: Family | 'PrintTalk';
  /** Under a FileSpec with a Container: FileSpec/@URL names a file inside it. */
  inContainer: boolean;
}

/** Containers nest no deeper than this (a zip in a tar in a gzip is three). */
const MAX_CONTAINER_DEPTH = 32;
const NO_ATTRIBUTES: readonly UrlAttribute[] = [];
const NO_VALUES: readonly Attribute[] = [];
/** Elements whose ID names a process node (an rRef to one is a mistake the message names). */
const NODE_ROOTS: ReadonlySet<string> = new Set(['JDF', 'XJDF']);

function makeFinding(code: string, profile: Profile, args: Record<string, string | number>, at: { line: number; column: number }): LocatedFinding {
  const rule = rulesByCode.get(code)!;
  const severity = rule.meta.severity[profile] ?? 'error';
  return { code, severity, message: redactSecrets(redactText(rule.message(args))), spec: rule.meta.spec, line: at.line, column: at.column };
}

/** The validator counts only "\n" as a line end: give it a copy where CR and CRLF end lines the same way (same length). */
function forValidator(text: string): string {
  return text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, (m) => (m.length === 2 ? ' \n' : '\n'));
}

/** The folder of a document URI, with its trailing "/": "." resolved against it (RFC 3986 5.2). */
function folderOf(uri: string): string {
  return resolveReference('.', uri);
}

const SEVERITY_RANK = { error: 0, warning: 1, info: 2 } as const;
const bySeverityThenPlace = (a: LocatedFinding, b: LocatedFinding) =>
  SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || a.line - b.line || a.column - b.column;

/** The report for a ticket that was not read because it is larger than maxBytes. */
export function oversizeReport(size: number, maxBytes: number, profile: Profile = 'jdf'): TicketReport {
  return { encoding: 'unknown', references: [], findings: [makeFinding('file-too-large', profile, { size, limit: maxBytes }, { line: 1, column: 1 })] };
}

/**
 * Finds every file reference in a JDF, XJDF or JMF ticket, resolves each against its real base (the
 * RunList/@Directory that applies, the container, or the ticket's folder), checks it, and reports where each
 * problem is. Never throws: broken input comes back as findings.
 */
export function validateTicket(input: string | Uint8Array, options: ValidateOptions = {}): TicketReport {
  const profile = options.profile ?? 'jdf';
  const size = typeof input === 'string' ? input.length : input.byteLength;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (size > maxBytes) return oversizeReport(size, maxBytes, profile);
  const decoded = decodeTicket(input);
  let text = decoded.text;
  const lines = new LineIndex(text);
  const report: TicketReport = { encoding: decoded.charset.toUpperCase(), references: [], findings: [] };
  const fileFinding = (code: string, offset: number, args: Record<string, string | number> = {}) =>
    report.findings.push(makeFinding(code, profile, args, lines.position(offset)));

  for (const p of decoded.problems) fileFinding(p.code, p.offset, p.args);
  if (decoded.problems.some((p) => p.code !== 'encoding-mismatch')) return report;
  if (text.trim() === '') {
    fileFinding('xml-empty', 0);
    return report;
  }

  const doctype = readDoctype(text);
  if (doctype) {
    text = doctype.text;
    if (doctype.entities > 0 || doctype.external) {
      const what = doctype.entities > 0 ? `${doctype.entities} entit${doctype.entities === 1 ? 'y' : 'ies'}` : 'an external subset';
      fileFinding('doctype-entities', doctype.start, { what, external: doctype.external ? 1 : '' });
    }
    for (const p of doctypeProblems(doctype)) fileFinding(p.code, p.offset, p.args);
  }

  // The full validator is a second pass over the text; by default it runs only to word a problem the tree
  // builder found (strictXml runs it first, and then it also checks attributes of elements we do not read).
  const runValidator = () => XMLValidator.validate(forValidator(text), { allowBooleanAttributes: false });
  const malformed = (fallback?: { offset: number; detail: string }, verdict = runValidator()): TicketReport => {
    if (verdict !== true) {
      report.findings.push(makeFinding('xml-malformed', profile, { detail: verdict.err.msg.replace(/\.?$/, '.') }, { line: verdict.err.line ?? 1, column: verdict.err.col ?? 1 }));
    } else if (fallback) {
      fileFinding('xml-malformed', fallback.offset, { detail: fallback.detail.charAt(0).toUpperCase() + fallback.detail.slice(1) });
    }
    return report;
  };
  if (options.strictXml) {
    const verdict = runValidator();
    if (verdict !== true) return malformed(undefined, verdict);
  }
  let tree: ElementTree;
  try {
    const built = buildTree(text, options.chunkChars);
    if (built.problem) return malformed(built.problem);
    tree = built.elements;
  } catch (error) {
    if (error instanceof TooDeepError) fileFinding('xml-too-deep', 0, { limit: MAX_DEPTH });
    else malformed({ offset: 0, detail: `${error instanceof Error ? error.message : String(error)}.` });
    return report;
  }
  const roots = tree.roots;
  if (roots.length === 0) {
    const stray = firstNonMisc(text, 0, text.length);
    if (stray === -1) fileFinding('xml-empty', 0);
    else malformed({ offset: stray, detail: 'there is no root element, only text.' });
    return report;
  }
  for (const extra of roots.slice(1)) fileFinding('xml-several-roots', tree.start(extra), { name: tree.qname(extra) });
  const root = roots[0]!;
  const rootName = tree.local(root);
  report.root = rootName;
  if (!TICKET_ROOTS.has(rootName)) fileFinding('not-a-ticket', tree.start(root), { name: tree.qname(root) });
  // What the parser accepts and XML does not, in the prolog, comments, PIs and text (whole or in runs alike).
  for (const p of scanMarkup(text)) fileFinding(p.code, p.offset, p.args);
  const version = options.jdfVersion ?? (rootName.startsWith('X') ? '2.0' : tree.attribute(root, 'Version')?.value);
  if (version !== undefined) report.jdfVersion = version;
  // Percent-escaped octets use the declared encoding (appendix section 3); UTF-16 tickets escape UTF-8.
  const urlCharset = decoded.charset.startsWith('utf-16') ? 'utf-8' : decoded.charset;

  // The index, read once: each element's ID, and which IDs rRefs name. Anything with an ID can be a resource an
  // rRef names (resources in a ResourcePool, in a JMF ResourceInfo or ResourceCmdParams, nested in another
  // resource, Test and Macro pools of device capabilities) except process nodes, messages and audits.
  const vocabulary = vocabularyWith(options.urlAttributes);
  const ids = new Map<number, string>();
  const idOf = (e: number): string | undefined => ids.get(e);
  const resources = new Map<string, number>();
  const notResources = new Map<string, number>();
  const referenced = new Set<string>();
  {
    const stack = [...roots].reverse();
    while (stack.length > 0) {
      const e = stack.pop()!;
      const local = tree.local(e);
      const id = tree.attribute(e, 'ID')?.value;
      if (id !== undefined) {
        const parent = tree.parent(e);
        if (NOT_RESOURCES.has(local) || (parent !== NONE && tree.local(parent) === 'AuditPool')) {
          if (!notResources.has(id)) notResources.set(id, e);
        } else {
          ids.set(e, id);
          if (!resources.has(id)) resources.set(id, e);
        }
      }
      if (isRefElement(local)) {
        const rRef = tree.attribute(e, 'rRef')?.value;
        if (rRef !== undefined) referenced.add(rRef);
      }
      const next = tree.nextSibling(e);
      if (next !== NONE) stack.push(next);
      const first = tree.firstChild(e);
      if (first !== NONE) stack.push(first);
    }
  }
  /** The targets some rRef reaches: where they stand, they are skipped (reported at each use instead). */
  const reportedAtUse = new Set<number>();
  for (const id of referenced) {
    const target = resources.get(id);
    if (target !== undefined) reportedAtUse.add(target);
  }
  /** The resource an rRef names, or a finding where it names none (or an element that is not a resource). */
  const followRef = (ref: number, rRefAttr: Attribute, ctx: WalkContext): number => {
    const id = rRefAttr.value;
    const target = resources.get(id);
    if (target === undefined) {
      const other = notResources.get(id);
      const what = other === undefined ? '' : `the <${tree.qname(other)}> ${NODE_ROOTS.has(tree.local(other)) ? 'node' : 'element'}`;
      report.findings.push(makeFinding('dangling-rref', profile, { id, what }, lines.position(rRefAttr.valueStart)));
      return NONE;
    }
    if (ctx.chain.includes(id)) {
      report.findings.push(makeFinding('rref-cycle', profile, { id }, lines.position(rRefAttr.valueStart)));
      return NONE;
    }
    return target;
  };

  const documentBase: Base = options.base !== undefined
    ? { uri: options.base, source: 'option' }
    : options.documentUri !== undefined
      ? { uri: folderOf(options.documentUri), source: 'document' }
      : { uri: null, source: 'none' };

  // Built when a reference is reported, from the element up. References come in document order, so the path
  // last built at each depth is kept for the next. Equal paths are one string, found from the parent's path and
  // the step without building it again (100,000 FileSpecs in one RunList share a single path).
  const childPaths = new Map<string, Map<string, string>>();
  const lastAtDepth: number[] = [];
  const lastPathAtDepth: string[] = [];
  const pathAt = (e: number, depth: number): string => {
    if (lastAtDepth[depth] === e) return lastPathAtDepth[depth]!;
    const parent = tree.parent(e);
    const parentPath = parent === NONE ? '' : pathAt(parent, depth - 1);
    const id = idOf(e);
    const step = id === undefined ? tree.local(e) : `${tree.local(e)}[@ID='${id.replace(/'/g, '&apos;')}']`;
    let steps = childPaths.get(parentPath);
    if (steps === undefined) childPaths.set(parentPath, (steps = new Map()));
    let p = steps.get(step);
    if (p === undefined) steps.set(step, (p = parentPath + '/' + step));
    lastAtDepth[depth] = e;
    lastPathAtDepth[depth] = p;
    return p;
  };
  const pathOf = (e: number): string => {
    let depth = 0;
    for (let x = tree.parent(e); x !== NONE; x = tree.parent(x)) depth++;
    return pathAt(e, depth);
  };
  const positionIn = (attr: Attribute, index: number) => lines.position(attr.offsets?.[index] ?? attr.valueStart + index);
  /** The elements whose Directory is reported (once, however often an rRef reaches them). */
  const reportedDirectories = new Set<number>();
  // One options object per (base, role): a ticket has few bases and many references.
  const checkOptionsCache = new Map<string, CheckOptions>();
  const checkOptionsFor = (base: string | null, role: Role): CheckOptions => {
    const key = `${role}\u0000${base ?? ''}`;
    let o = checkOptionsCache.get(key);
    if (o === undefined) {
      o = { profile, role, charset: urlCharset };
      if (base !== null) o.base = base;
      if (options.platform) o.platform = options.platform;
      if (version !== undefined) o.jdfVersion = version;
      if (options.drivePreserving) o.drivePreserving = true;
      if (options.localHosts) o.localHosts = options.localHosts;
      checkOptionsCache.set(key, o);
    }
    return o;
  };

  /** Directories reported, and those some relative reference resolved against. */
  const directoryReferences: Array<{ e: number; ref: TicketReference }> = [];
  const usedDirectories = new Set<number>();
  const NO_BASE: Base = { uri: null, source: 'none' };

  const addReference = (element: number, attr: Attribute, role: Role, base: Base, ctx: WalkContext, container?: boolean): TicketReference => {
    const value = attr.value;
    const checked = checkUrl(value, checkOptionsFor(base.uri, role));
    let findings: LocatedFinding[];
    if (checked.findings.length === 0) {
      findings = [];
    } else {
      // A reference XML could not expand is unknown text: URL findings inside it would be artefacts of its spelling.
      const unknownSpans = attr.problems.filter((p) => p.length !== undefined).map((p) => [p.offset, p.offset + p.length!] as const);
      const insideUnknown = (index: number) => {
        const at = attr.offsets?.[index] ?? attr.valueStart + index;
        return unknownSpans.some(([from, to]) => at >= from && at < to);
      };
      findings = checked.findings
        .filter((f) => unknownSpans.length === 0 || f.offset === undefined || !insideUnknown(f.offset))
        .map((f) => ({ ...f, ...positionIn(attr, f.offset ?? 0) }));
    }
    for (const p of attr.problems) findings.push(makeFinding(p.code, profile, p.args, lines.position(p.offset)));
    // Non-file URLs (http, ftp, mailto, cid: a MIME part) are never resolved against a Directory or folder.
    const nonFile = checked.scheme !== undefined && checked.scheme !== 'file' && checked.scheme.length > 1;
    const shownBase: Base = nonFile ? NO_BASE : base;
    if (base.from !== undefined && checked.kind !== 'absolute') usedDirectories.add(base.from);
    if (checked.kind !== 'absolute' && base.uri === null && role === 'url' && value.trim() !== '') {
      findings.push(makeFinding('no-base', profile, {}, positionIn(attr, 0)));
    }
    if (container && checked.kind !== 'relative-path') {
      findings.push(makeFinding('container-url-not-relative', profile, {}, positionIn(attr, 0)));
    }
    if (role === 'url' && base.uri !== null && checked.kind !== 'absolute' && value.trim() !== '') {
      const differing = disagreement(value.trim(), base.uri, base.source === 'directory');
      if (differing) {
        const readingsText = differing.map((r) => `${r.consumer} ${r.href === null ? '(fails)' : redactPassword(r.href)}`).join('; ');
        const advice = base.uri.endsWith('/') ? 'Write the reference so that every reading agrees.' : "End the Directory with '/'.";
        for (let k = findings.length - 1; k >= 0; k--) {
          if (findings[k]!.code === 'drive-lost-in-resolution' || findings[k]!.code === 'base-last-segment-dropped') findings.splice(k, 1);
        }
        findings.push(makeFinding('consumers-disagree', profile, { readings: readingsText, advice }, positionIn(attr, 0)));
      }
    }
    if (findings.length > 1) findings.sort(bySeverityThenPlace);
    const at = lines.position(attr.valueStart);
    const end = lines.position(attr.valueStart + attr.raw.length);
    const ref: TicketReference = {
      element: pathOf(element),
      attribute: attr.name,
      role,
      value: checked.value,
      line: at.line,
      column: at.column,
      endLine: end.line,
      endColumn: end.column,
      span: [attr.valueStart, attr.valueStart + attr.raw.length],
      base: shownBase.uri === null ? null : redactPassword(shownBase.uri),
      baseSource: shownBase.source,
      kind: checked.kind,
      resolved: checked.resolved,
      local: checked.local,
      findings,
    };
    if (ctx.via !== undefined) ref.via = ctx.via;
    if (checked.scheme !== undefined) ref.scheme = checked.scheme;
    if (checked.fixed !== undefined) ref.fixed = checked.fixed;
    const facts = role === 'url' ? fileSpecFacts(tree, element) : undefined;
    if (facts) ref.fileSpec = facts;
    if (role === 'directory') directoryReferences.push({ e: element, ref });
    report.references.push(ref);
    return ref;
  };

  const downgradeScheme = (f: LocatedFinding, ref: TicketReference): void => {
    f.severity = 'info';
    f.message = rulesByCode.get(f.code)!.message({ scheme: parseReference(ref.value.trim()).scheme ?? '', endpoint: 1 });
    ref.findings.sort(bySeverityThenPlace);
  };

  /** A URI that identifies rather than locates (DevNS, PDFXRegistryName): its syntax only, never resolved or looked for. */
  const addIdentifier = (element: number, attr: Attribute, ctx: WalkContext): void => {
    const checked = checkIdentifier(attr.value);
    const findings: LocatedFinding[] = checked.findings.map((f) => makeFinding(f.code, profile, f.args, positionIn(attr, f.offset)));
    for (const p of attr.problems) findings.push(makeFinding(p.code, profile, p.args, lines.position(p.offset)));
    if (findings.length > 1) findings.sort(bySeverityThenPlace);
    const at = lines.position(attr.valueStart);
    const end = lines.position(attr.valueStart + attr.raw.length);
    const ref: TicketReference = {
      element: pathOf(element),
      attribute: attr.name,
      role: 'identifier',
      value: redactPassword(attr.value),
      line: at.line,
      column: at.column,
      endLine: end.line,
      endColumn: end.column,
      span: [attr.valueStart, attr.valueStart + attr.raw.length],
      base: null,
      baseSource: 'none',
      kind: checked.kind,
      resolved: null,
      local: 'unknown',
      findings,
    };
    if (ctx.via !== undefined) ref.via = ctx.via;
    if (checked.scheme !== undefined) ref.scheme = checked.scheme;
    report.references.push(ref);
  };

  /** The base a Directory gives its descendants: itself when absolute, resolved against the document when not. */
  const directoryBase = (value: string, outer: Base, from: number): Base => {
    const trimmed = value.trim();
    if (parseReference(trimmed).scheme !== undefined) return { uri: trimmed, source: 'directory', from };
    return outer.uri !== null ? { uri: resolveReference(trimmed, outer.uri), source: 'directory', from } : { uri: null, source: 'none' };
  };

  /** The family whose vocabulary applies to an element reached by an rRef: that of its nearest root ancestor. */
  const familyAt = (e: number): Family | 'PrintTalk' => {
    for (let x = e; x !== NONE; x = tree.parent(x)) {
      const f = FAMILY_ROOTS.get(tree.local(x));
      if (f !== undefined) return f;
    }
    return roots.length > 0 && tree.local(roots[0]!) === 'PrintTalk' ? 'PrintTalk' : 'JDF';
  };

  // Appendix 4.6: a FileSpec with a Container names a file inside that container (zip, tar, MIME package); its
  // URL resolves against the URL of the folder where the consumer extracted the container, recursively.
  /** The partition of a resource that a ref's Part selects (JDF 1.x 3.10.5); the resource itself without a Part. */
  const selectPartition = (target: number, ref: number): number => {
    const part = tree.findChild(ref, (c) => tree.local(c) === 'Part');
    if (part === NONE) return target;
    const keys = tree.rawAttributes(part).filter(([name]) => !name.startsWith('xmlns'));
    if (keys.length === 0) return target;
    const name = tree.local(target);
    // Breadth first, so the shallowest partition that matches every key (on itself or a partition above) wins.
    let level: Array<{ e: number; values: Map<string, string> }> = [{ e: target, values: new Map() }];
    while (level.length > 0) {
      const next: typeof level = [];
      for (const { e, values } of level) {
        const own = new Map(values);
        for (const [key] of keys) {
          const v = tree.attribute(e, key)?.value;
          if (v !== undefined) own.set(key, v);
        }
        if (keys.every(([key, value]) => own.get(key) === value)) return e;
        if (keys.some(([key, value]) => own.has(key) && own.get(key) !== value)) continue;
        for (let c = tree.firstChild(e); c !== NONE; c = tree.nextSibling(c)) if (tree.local(c) === name) next.push({ e: c, values: own });
      }
      level = next;
    }
    return target;
  };
  /** The Container that applies to a FileSpec: its own, or that of the partition above it that has one. */
  const containerOf = (spec: number): number => {
    for (let x = spec; x !== NONE && tree.local(x) === 'FileSpec'; x = tree.parent(x)) {
      const c = tree.findChild(x, (k) => tree.local(k) === 'Container');
      if (c !== NONE) return c;
    }
    return NONE;
  };
  /** The element whose URL a FileSpec (or partition) names: itself, the partition above that sets it, or the first below. */
  const urlHolder = (spec: number): number => {
    for (let x = spec; x !== NONE && tree.local(x) === 'FileSpec'; x = tree.parent(x)) if (tree.attribute(x, 'URL') !== undefined) return x;
    const stack = [spec];
    while (stack.length > 0) {
      const e = stack.pop()!;
      for (let c = tree.firstChild(e); c !== NONE; c = tree.nextSibling(c)) {
        if (tree.local(c) !== 'FileSpec') continue;
        if (tree.attribute(c, 'URL') !== undefined) return c;
        stack.push(c);
      }
    }
    return NONE;
  };
  /**
   * Reports the container a Container element names (Container/FileSpec, or Container/FileSpecRef with its Part
   * selectors), once for this use, and returns the folder its members resolve against.
   */
  const containerBase = (container: number, ctx: WalkContext, depth: number): Base => {
    if (depth > MAX_CONTAINER_DEPTH) return NO_BASE;
    let spec = tree.findChild(container, (c) => tree.local(c) === 'FileSpec');
    let use = ctx;
    if (spec === NONE) {
      const ref = tree.findChild(container, (c) => tree.local(c) === 'FileSpecRef');
      const rRefAttr = ref === NONE ? undefined : tree.attribute(ref, 'rRef');
      if (rRefAttr === undefined) return NO_BASE;
      const target = followRef(ref, rRefAttr, ctx);
      if (target === NONE) return NO_BASE;
      spec = selectPartition(target, ref);
      use = { ...ctx, via: ctx.via ?? pathOf(ref), chain: [...ctx.chain, rRefAttr.value] };
    }
    const outer = containerOf(spec);
    const base = outer !== NONE ? containerBase(outer, use, depth + 1) : use.fileBase;
    const holder = urlHolder(spec);
    if (holder === NONE) return NO_BASE;
    const containerRef = addReference(holder, tree.attribute(holder, 'URL')!, 'url', base, use, outer !== NONE);
    return containerRef.resolved !== null ? { uri: containerRef.resolved.replace(/\/?$/, '/'), source: 'container' } : NO_BASE;
  };

  // A resource used from many places is walked at each use: its start tags are read once.
  const scanned = new Uint8Array(tree.size);
  const presentByElement = new Map<number, Attribute[]>();
  const presentAttributes = (e: number, list: readonly UrlAttribute[]): readonly Attribute[] => {
    if (scanned[e] === 1) return presentByElement.get(e) ?? NO_VALUES;
    scanned[e] = 1;
    const present = tree.attributesNamed(e, namesOf(list));
    if (present.length > 0) presentByElement.set(e, present);
    return present;
  };
  const wantedNames = new Map<readonly UrlAttribute[], Set<string>>();
  const namesOf = (list: readonly UrlAttribute[]): Set<string> => {
    let names = wantedNames.get(list);
    if (names === undefined) wantedNames.set(list, (names = new Set(list.map((u) => u.attribute))));
    return names;
  };

  // Depth-first, iterative (deep tickets cannot overflow the stack), in document order.
  // Three parallel stacks rather than a frame object per element: a big ticket has millions of elements.
  const stackElements: number[] = [];
  const stackContexts: WalkContext[] = [];
  const stackViaRef: boolean[] = [];
  const push = (element: number, ctx: WalkContext, viaRef: boolean) => {
    stackElements.push(element);
    stackContexts.push(ctx);
    stackViaRef.push(viaRef);
  };
  const rootContext: WalkContext = { fileBase: documentBase, chain: [], family: 'JDF', inContainer: false };
  for (let k = roots.length - 1; k >= 0; k--) {
    const rootLocal = tree.local(roots[k]!);
    push(roots[k]!, { ...rootContext, family: FAMILY_ROOTS.get(rootLocal) ?? (rootLocal === 'PrintTalk' ? 'PrintTalk' : 'JDF') }, false);
  }
  while (stackElements.length > 0) {
    const e = stackElements.pop()!;
    const outer = stackContexts.pop()!;
    const viaRef = stackViaRef.pop()!;
    // The next sibling shares this element's context, and comes after its subtree; an rRef target's siblings
    // are not part of the use.
    const next = viaRef ? NONE : tree.nextSibling(e);
    if (next !== NONE) push(next, outer, false);
    const local = tree.local(e);
    let ctx = outer;
    if (!viaRef && reportedAtUse.has(e)) continue; // reported at each use
    const parent = tree.parent(e);
    // A FileSpec's Container is read with the FileSpec it holds (containerBase), once per use.
    if (local === 'Container' && parent !== NONE && tree.local(parent) === 'FileSpec') continue;

    const family = FAMILY_ROOTS.get(local);
    if (family !== undefined && family !== ctx.family) ctx = { ...ctx, family };
    else if (viaRef) ctx = { ...ctx, family: familyAt(e) };

    if (isRefElement(local)) {
      const rRefAttr = tree.attribute(e, 'rRef');
      if (rRefAttr !== undefined) {
        for (const p of rRefAttr.problems) fileFinding(p.code, p.offset, p.args);
        const target = followRef(e, rRefAttr, ctx);
        if (target !== NONE) push(target, { ...ctx, via: ctx.via ?? pathOf(e), chain: [...ctx.chain, rRefAttr.value] }, true);
      }
    }

    if (local === 'FileSpec') {
      const container = tree.findChild(e, (c) => tree.local(c) === 'Container');
      if (container !== NONE) ctx = { ...ctx, fileBase: containerBase(container, ctx, 0), inContainer: true };
    }

    // PrintTalk carries XJDF elements by namespace, inside and outside a whole XJDF.
    const readAs: Family | undefined = ctx.family !== 'PrintTalk' ? ctx.family : tree.namespaceOf(e) === XJDF_NAMESPACE ? 'XJDF' : undefined;
    const urlAttributes = readAs === undefined ? NO_ATTRIBUTES : vocabulary.attributesOf(readAs, local);
    const present = urlAttributes.length === 0 ? NO_VALUES : presentAttributes(e, urlAttributes);
    if (present.length > 0) {
      for (const attr of present) {
        const role = urlAttributes.find((u) => u.attribute === attr.name)!.role;
        if (role !== 'directory') continue;
        if (!reportedDirectories.has(e)) addReference(e, attr, 'directory', documentBase, ctx);
        if (attr.name === 'Directory' && (local === 'RunList' || local === 'Preview')) ctx = { ...ctx, fileBase: directoryBase(attr.value, documentBase, e) };
      }
      reportedDirectories.add(e);
      for (const attr of present) {
        const name = attr.name;
        const role = urlAttributes.find((u) => u.attribute === name)!.role;
        if (role === 'identifier') addIdentifier(e, attr, ctx);
        else if (role === 'url') {
          // Appendix 4.6: RunList/@Directory is the base of FileSpec/@URL (and Preview/@Directory of Preview/@URL);
          // every other URL resolves against the ticket's folder.
          const forFiles = name === 'URL' && (local === 'FileSpec' || local === 'Preview');
          const ref = addReference(e, attr, 'url', forFiles ? ctx.fileBase : documentBase, ctx, forFiles && ctx.inContainer);
          // A vendor's own scheme in a route or endpoint (Prinect's pt://host/Normalizer) is its business: info.
          if (!forFiles) for (const f of ref.findings) if (f.code === 'unknown-scheme' && f.severity === 'warning') downgradeScheme(f, ref);
        }
      }
    }
    const first = tree.firstChild(e);
    if (first !== NONE) push(first, ctx, false);
  }
  // A Directory without its trailing '/' changes a target only where a relative reference resolves against it.
  for (const { e, ref } of directoryReferences) {
    if (usedDirectories.has(e)) continue;
    for (const f of ref.findings) {
      if (f.code !== 'directory-without-trailing-slash' || f.severity !== 'warning') continue;
      const path = parseReference(ref.value.trim()).path;
      f.severity = 'info';
      f.message = rulesByCode.get(f.code)!.message({ segment: path.slice(path.lastIndexOf('/') + 1), unused: 1 });
    }
    if (ref.findings.length > 1) ref.findings.sort(bySeverityThenPlace);
  }
  // XML 1.0 2.2: a forbidden character outside the values we read is reported once, where it first stands.
  const forbidden = FORBIDDEN_CHAR.exec(text);
  if (forbidden) {
    const at = lines.position(forbidden.index);
    const seen = report.references.some((r) => r.findings.some((f) => f.code === 'invalid-xml-char' && f.line === at.line && f.column === at.column));
    if (!seen) fileFinding('invalid-xml-char', forbidden.index, { code: `U+${forbidden[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` });
  }
  return report;
}
