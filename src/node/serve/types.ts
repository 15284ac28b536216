// The seam between the HTTP server (`serve`'s listener: limits, auth, TLS, health, metrics, shutdown) and what
// answers a request (`handleJmf`: the JMF front door). The server knows nothing of JMF beyond these shapes; the
// handler knows nothing of sockets. A Node service can mount the handler in its own server through them.

/** One HTTP request as the server hands it over: its body is streamed, never held whole by the server. */
export interface HttpRequest {
  method: string;
  /** The request target as sent (path and query). */
  url: string;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Readonly<Record<string, string>>;
  /** The body, in the chunks it arrives in; the server has already applied its size limit to it. */
  body: AsyncIterable<Uint8Array>;
  /** Aborted when the client goes away or the request's time is up. */
  signal: AbortSignal;
  /** Who sent it: the authenticated user, when the server checked one. */
  user?: string;
}

/** One HTTP response. */
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | string;
  /** For the server's metrics and access log: what became of the job this request submitted, if any. */
  job?: { accepted: boolean; returnCode: number };
}

/** What answers a request: `handleJmf` with its options bound, or a test's stand-in. */
export type HttpHandler = (request: HttpRequest) => Promise<HttpResponse>;

/** The answer the server gives when it refuses a request itself (413 body too large, 400 bad request, 503 busy
 * or shutting down, 408 too slow, 401 unauthenticated): the JMF side supplies one with a JMF body where JMF
 * allows it; the server's default is plain text. */
export type HttpRefusal = (status: number, reason: string) => HttpResponse;
