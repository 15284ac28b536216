// What a ticket rule sees of a ticket, below both rules and ticket layer (whose own types have this and more).
import type { RuleCode } from './codes.js';

export type BaseSource = 'directory' | 'document' | 'option' | 'container' | 'none';

/** One consumer's resolution of a reference (null: it cannot resolve it). */
export interface Reading {
  consumer: string;
  href: string | null;
}

/** What a ticket rule may ask of the ticket layer (src/ticket/ticket-rules.ts supplies it). */
export interface TicketLayer {
  /** JDF, XJDF, JMF, XJMF or PrintTalk. */
  isTicketRoot(local: string): boolean;
  /** Whether the schemas' vocabulary types this attribute of this element as a URL, a folder or an identifier. */
  isUrlAttribute(local: string, attribute: string): boolean;
  /** Whether an element of this local name is a ref (its rRef names a resource). */
  isRefElement(local: string): boolean;
  /** How each consumer would resolve `value` against `base`, when they would not all open the same file. */
  disagreement(value: string, base: string, fromDirectory: boolean): Reading[] | null;
}

export interface TicketView {
  text: string;
  lines: { position(offset: number): { line: number; column: number } };
  tree: { readonly roots: readonly number[]; start(e: number): number; qname(e: number): string; local(e: number): string };
  root: number;
  layer: TicketLayer;
}

export interface DoctypeView {
  start: number;
  entities: number;
  external: boolean;
  defaults: ReadonlyArray<{ element: string; attribute: string; value: string; fixed: boolean; offset: number }>;
  parameterReferences: ReadonlyArray<{ name: string; offset: number }>;
}

export interface ReportedReference {
  findings: ReadonlyArray<{ code: RuleCode; line: number; column: number }>;
}
