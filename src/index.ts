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
export type { RuleCode } from './rules/codes.js';
export { messageOf } from './rules/finding.js';
export type {
  CheckOptions, Finding, Platform, Profile, ReferenceKind, Role, RuleMeta, Severity,
} from './rules/types.js';
export { PROFILES, PLATFORMS } from './rules/types.js';
export { RULE_SETTINGS, unknownRule, type RuleSetting, type RuleSettings } from './rules/settings.js';
export { settleFindings, type SuppressedFinding, type Suppression } from './ticket/silence.js';
export { VENDOR_VOCABULARIES, unknownVocabulary } from './ticket/vendor.js';
export { validateTicket, validateTicketStream, type TicketReport, type TicketReference, type TicketVisitor, type TicketSummary, type ValidateOptions, type LocatedFinding, type BaseSource } from './ticket/validate.js';
export { fileUrlToPath, pathToFileUrl, PathConversionError, PATH_PLATFORMS, type PathPlatform, type PathErrorCode, type UrlForm } from './paths/convert.js';
export { validatePackage, detectPackage, type PackageReport, type PackageOptions, type PackageInput, type PackageFile, type PartSummary, type PackageKind } from './package/validate.js';
export { readPackage, type PackagePart, type PackageVisitor } from './package/read.js';
export { MultipartReader, type PartHead, type MultipartHandler, type MultipartLimits } from './package/multipart.js';
export { readZipDirectory, readZipEntry, bytesAccess, type RandomAccess, type ZipEntry } from './package/zip.js';
export type { PackageLimits } from './package/limits.js';
// Reports: build one from file reports, then format it (every format the CLI prints), in pieces or whole.
export { buildReport, exitCodeOf, type FileReport, type ValidationReport } from './report/report.js';
export { reportPieces, REPORT_FORMATS, type ReportFormat, type FormatOptions } from './report/formats.js';
export { formatText, textLines, type TextOptions } from './report/text.js';
export { formatSarif, sarifPieces, type SarifOptions } from './report/sarif.js';
export { unixLines } from './report/unix.js';
export { githubLines } from './report/github.js';
export { jsonDocument, jsonPieces } from './report/json-pieces.js';
