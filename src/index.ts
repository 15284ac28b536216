// The public API of jdf-filespec. Nothing here imports Node-only modules, so it runs in a browser too.
export { checkUrl, type CheckResult } from './check.js';
export { resolveReference, removeDotSegments, merge, transformReference, type ResolveOptions } from './uri/resolve.js';
export { parseReference, parseAuthority } from './uri/parse.js';
export { recompose } from './uri/recompose.js';
export { normalize, equivalent } from './uri/normalize.js';
export type { UriComponents, AuthorityParts } from './uri/components.js';
export { escapeSegment, escapeNonAscii, decodeSegment, decodePath } from './escape/percent.js';
export { MUST_ESCAPE, SAFE_SPECIALS } from './escape/tables.js';
export { classifyHost, type HostType } from './fileurl/host.js';
export { localityOf, type Locality } from './fileurl/locality.js';
export { redactPassword } from './fileurl/redact.js';
export { ruleCatalog, rules } from './rules/catalog.js';
export type {
  CheckOptions, Finding, Platform, Profile, ReferenceKind, Role, RuleMeta, Severity,
} from './rules/types.js';
export { PROFILES, PLATFORMS } from './rules/types.js';
export { validateTicket, type TicketReport, type TicketReference, type ValidateOptions, type LocatedFinding, type BaseSource } from './ticket/validate.js';
export { fileUrlToPath, pathToFileUrl, PathConversionError, PATH_PLATFORMS, type PathPlatform, type PathErrorCode, type UrlForm } from './paths/convert.js';
export { validatePackage, detectPackage, type PackageReport, type PackageOptions, type PackageInput, type PackageFile, type PartSummary, type PackageKind } from './package/validate.js';
export { readPackage, type PackagePart, type PackageVisitor } from './package/read.js';
export { MultipartReader, type PartHead, type MultipartHandler, type MultipartLimits } from './package/multipart.js';
export { readZipDirectory, readZipEntry, bytesAccess, type RandomAccess, type ZipEntry } from './package/zip.js';
export type { PackageLimits } from './package/limits.js';
