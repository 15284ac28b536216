// What a person at the terminal sees of a running watch (standard error, only when it is a terminal): one line
// per event that matters, a routed ticket's line naming the error that decided it and where its report is, and
// a running count (tickets waiting, being checked, routed) kept on the last line.
import type { TimedEvent } from '../node/watch/events.js';
import type { Tally } from '../node/watch/watch.js';
import { forTerminal } from '../report/terminal.js';

/** A name or message as the terminal shows it (a ticket's name may hold any character): as every text format does. */
const shown = forTerminal;

/** The terminal's line for an event, or nothing for the ones a person need not see. */
export function human(e: TimedEvent): string | undefined {
  const clock = e.time.slice(11, 19);
  switch (e.event) {
    case 'started': return `${clock} watching ${shown(e.in)} (${e.mode}); OK ${shown(e.ok)}, ERROR ${shown(e.error)}`;
    case 'polling': return `${clock} polling: ${e.reason}`;
    case 'skipped': return `${clock} skipped  ${shown(e.ticket)}: ${e.reason}, left in place (not read)`;
    case 'ignored': return `${clock} ignored  ${shown(e.name)}: ${e.reason}; left in place`;
    case 'waiting': return `${clock} waiting  ${shown(e.ticket)}: ${e.missing.length > 0 ? `${e.missing.length} file(s) not there yet` : `${e.unsettled?.length ?? 0} file(s) still being written`}`;
    case 'ok': return `${clock} ok       ${shown(e.ticket)} -> ${shown(e.to)} (${shown(e.reason)}; ${e.ms.total} ms); report ${shown(e.report)}`;
    case 'error': {
      const why = e.first ? `${e.first.code}: ${shown(e.first.message)}` : shown(e.reason);
      return `${clock} ERROR    ${shown(e.ticket)} -> ${shown(e.to)}: ${why}; report ${shown(e.report)} (${e.counts.error} error(s), ${e.counts.warning} warning(s); ${e.ms.total} ms)`;
    }
    case 'hook': return e.code === 0 ? undefined : `${clock} hook ${shown(e.program)} for ${shown(e.ticket)}: ${e.error ?? `exit ${e.code ?? e.signal}`}`;
    case 'failed': return `${clock} failed   ${shown(e.ticket)}: ${shown(e.message)} (${e.final ? `attempt ${e.attempt}, the last` : `attempt ${e.attempt}, will try again`})`;
    case 'warning': return `${clock} warning: ${shown(e.message)}`;
    case 'untrusted': return `${clock} untrusted ${shown(e.path)}: ${e.reason}; left as it is`;
    case 'work-unsafe': return `${clock} STOPPING: the work folder ${shown(e.work)} is not safe any more: ${e.reason}`;
    case 'stopping': return `${clock} stopping: finishing ${e.inFlight} ticket(s) in flight`;
    case 'stopped': return `${clock} stopped: ${e.ok} ok, ${e.error} error, ${e.waiting} left claimed for the next start`;
    default: return undefined;
  }
}

/** The running count on the terminal's last line. */
export const tallyLine = (t: Tally): string =>
  `${t.settling} settling, ${t.waiting} waiting for files, ${t.checking} being checked; routed ${t.ok + t.error} (${t.ok} ok, ${t.error} error)`;

/** A terminal that keeps the running count on its last line, under the event lines. */
export class Terminal {
  private last = '';

  constructor(private readonly out: { write(text: string): unknown }) {}

  /** An event's line above the count. */
  line(text: string): void {
    this.out.write(`\r\x1b[K${text}\n${this.last}`);
  }

  /** The count, redrawn in place. */
  count(text: string): void {
    if (text === this.last) return;
    this.last = text;
    this.out.write(`\r\x1b[K${text}`);
  }

  /** Leaves the count as the last line (at the end). */
  end(): void {
    if (this.last !== '') this.out.write('\n');
    this.last = '';
  }
}
