/** The five components of a URI reference (RFC 3986 section 3). `undefined` means "not defined", which differs from empty. */
export interface UriComponents {
  scheme?: string;
  authority?: string;
  path: string;
  query?: string;
  fragment?: string;
}

/** The parts of an authority (RFC 3986 3.2): [ userinfo "@" ] host [ ":" port ]. */
export interface AuthorityParts {
  userinfo?: string;
  host: string;
  port?: string;
}
