// The messages between the page and its worker. The worker runs the library; the page only shows results.
import type { CheckResult, Platform, Profile, Role, RuleSettings } from '../../src/index.js';
import type { MappedBy, ViewTable } from '../../src/views/types.js';

/** A checked config: its view table (with the view the user picked as this machine's), its urlAttributes and rules. */
export interface PageViews {
  table: ViewTable;
  urlAttributes: string[];
  rules: RuleSettings;
  vocabularies: string[];
}

/** The options of `validate` and `check` that the page offers. */
export interface PageOptions {
  profile: Profile;
  platform: Platform;
  /** Overrides the ticket's JDF/@Version; empty: the ticket's own. */
  jdfVersion: string;
  /** Base URI for relative references; empty: none (as for standard input). */
  base: string;
  drivePreserving: boolean;
  strictXml: boolean;
  /** From a config file: references are mapped through its table, its urlAttributes read as URLs, its rules set. */
  views?: PageViews;
}

/** How a reference maps through the view table: the data of validate's JSON, and its line of text. */
export interface PageMapping {
  mappedBy: MappedBy;
  text: string;
}

/** One finding as the page lists it: the library's finding, where it is, and the reference it belongs to. */
export interface PageFinding {
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  spec?: string;
  fix?: string;
  /** Where the value has two plausible meanings: the corrections a person may choose (none is applied by fix). */
  suggestions?: Array<{ desc: string; fix: string }>;
  line: number;
  column: number;
  /** The reference's element path, attribute and value (absent for file-level findings). */
  element?: string;
  attribute?: string;
  value?: string;
  /** Where the reference's value ends (line, column just past it). */
  endLine?: number;
  endColumn?: number;
  /** The reference's row of the view table, when a config maps it. */
  mapping?: PageMapping;
}

/** A reference the view table maps, with or without findings. */
export interface PageReference extends PageMapping {
  line: number;
  column: number;
  element: string;
  attribute: string;
  value: string;
  resolved: string;
}

/**
 * The source text cut into display rows: each line is one row, or several of ROW_CHARS characters when it is
 * longer (minified tickets are one line). Offsets are UTF-16 indexes into the text.
 */
export interface RowIndex {
  /** Offset where each row starts. */
  start: Uint32Array;
  /** Offset where each row's characters end (line terminators excluded). */
  end: Uint32Array;
  /** The 1-based line each row belongs to. */
  line: Uint32Array;
  /** The first row of each line (index: line - 1). */
  firstRow: Uint32Array;
  /** The longest row, in characters. */
  widest: number;
}

export interface Validated {
  type: 'validated';
  id: number;
  text: string;
  rows: RowIndex;
  encoding: string;
  jdfVersion?: string;
  root?: string;
  references: number;
  findings: PageFinding[];
  /** The references the config's view table maps (none without a config). */
  mapped: PageReference[];
}

/** A config checked: its problems with line and column, or its table and a few facts for the summary. */
export type ConfigChecked = { type: 'config-checked'; id: number } & (
  | { problems: Array<{ line: number; column: number; message: string }> }
  | { views: PageViews; viewNames: string[]; storages: number; urlAttributes: number }
);

export interface Fixed {
  type: 'fixed';
  id: number;
  /** The unified diff of the change (empty when nothing changes). */
  diff: string;
  /** The new bytes, absent when nothing changes. */
  bytes?: ArrayBuffer;
  skipped: Array<{ line: number; column: number; element: string; attribute: string; value: string; fixed: string; reason: string }>;
  refused?: string;
  edits: number;
}

export interface Components {
  scheme?: string;
  authority?: string;
  userinfo?: string;
  host?: string;
  port?: string;
  path: string;
  query?: string;
  fragment?: string;
}

export interface UrlChecked {
  type: 'url-checked';
  id: number;
  result: CheckResult;
  components: Components;
  /** Every consumer's reading against the base, when a base is given. */
  readings: Array<{ consumer: string; href: string | null }>;
  /** True when the readings name more than one file. */
  disagree: boolean;
}

export interface Progress {
  type: 'progress';
  id: number;
  phase: string;
}

export type FromWorker = Validated | Fixed | UrlChecked | Progress | ConfigChecked;

export type ToWorker =
  | { type: 'validate'; id: number; name: string; bytes: ArrayBuffer; options: PageOptions }
  | { type: 'validate-text'; id: number; name: string; text: string; options: PageOptions }
  | { type: 'fix'; id: number; name: string; input: ArrayBuffer | string; options: PageOptions }
  | { type: 'check-url'; id: number; url: string; base: string; role: Role; options: PageOptions }
  | { type: 'config'; id: number; text: string };

/** Characters a display row holds at most. */
export const ROW_CHARS = 1000;
