// What handleJmf is told: where jobs and reports are kept, how tickets are checked (as validate checks them),
// and where accepted jobs go.
import type { PackageLimits } from '../../package/limits.js';
import type { ValidateOptions } from '../../ticket/validate.js';
import type { LocalFileOptions } from '../local-files.js';

export interface JmfOptions {
  /** The outbox: one folder per queue entry (the submission, its reports, its status), written atomically. Instances that share it answer the same. */
  outbox: string;
  /** As validate takes them: profile, platform, the config's rules, vocabularies and urlAttributes. */
  validate: ValidateOptions;
  /** --check-exists, --root and the config's views, for the files a ticket names on this machine. */
  local?: LocalFileOptions;
  /** The largest body (and ticket fetched by URL) taken, in bytes. */
  maxBytes: number;
  /** The package limits (parts, header bytes); the defaults otherwise. */
  limits?: Partial<PackageLimits>;
  /** An accepted job is forwarded here (a downstream device's JMF URL), as the sender made it. */
  forward?: string;
  /** An accepted job is dropped here, as `watch` takes it (a hidden temporary renamed into place). */
  hotFolder?: string;
  /** The URL prefixes an http(s): ticket may be fetched from (each hop of a redirect too); none by default: a
   * sender could otherwise make the server fetch any address it reaches, internal ones included. */
  fetchFrom?: readonly string[];
  /** The URL this endpoint is reached at, for the report links (default: from the request's Host header, http). */
  publicUrl?: string;
  /** A submission claimed this long ago with no answer kept belonged to an instance that died: another may take
   * it over (default 120000, serve's --request-timeout). */
  claimStaleMs?: number;
  /** The tool's version, in the reports. */
  toolVersion: string;
  /** For tests and embedding: the fetch used to forward and to read http: tickets. */
  fetch?: typeof fetch;
}

/** claimStaleMs's default, and the sweep's inProgressMs's (retention.ts): serve's default --request-timeout, after
 * which the listener has given up on a request, so no submission is in flight longer. */
export const CLAIM_STALE_MS = 120_000;
