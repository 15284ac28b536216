// The ticket rules by the step of validateTicket that runs them (TicketChecks); their logic is in src/rules/ticket.ts
// and src/rules/markup.ts. Within a step they run in the catalog's order, which is the order of their findings.
import { markupRules } from '../rules/markup.js';
import type { TicketLayer } from '../rules/ticket-view.js';
import { ticketRules, type TicketChecks, type TicketRule } from '../rules/ticket.js';
import { disagreementOf } from './readings.js';
import { isRefElement, TICKET_ROOTS, type Vocabulary } from './vocabulary.js';

/**
 * What the rules ask of this layer (rules/ticket.ts says why they do not import it), for a ticket read with
 * `vocabulary` (the schemas' table and the caller's rows).
 */
export function ticketLayer(vocabulary: Vocabulary): TicketLayer {
  return { isTicketRoot: (local) => TICKET_ROOTS.has(local), isUrlAttribute: (local, attribute) => vocabulary.reads(local, attribute), isRefElement, disagreement: disagreementOf };
}

const ALL: readonly TicketRule[] = [...ticketRules, ...markupRules];

type With<K extends keyof TicketChecks> = TicketRule & Required<Pick<TicketChecks, K>>;
const having = <K extends keyof TicketChecks>(hook: K): ReadonlyArray<With<K>> => ALL.filter((r): r is With<K> => r[hook] !== undefined);

export const DOCTYPE_RULES = having('checkDoctype');
export const DOCUMENT_RULES = having('checkDocument');
export const LINK_RULES = having('checkLink');
export const IDENTIFIER_RULES = having('checkIdentifier');
export const REFERENCE_RULES = having('checkReference');
export const WALKED_RULES = having('checkWalked');
