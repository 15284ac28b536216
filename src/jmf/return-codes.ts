// The JMF ReturnCodes `serve` answers with (JDF 1.x, JMF Response/@ReturnCode; XJMF ResponseXxx/@ReturnCode):
// the JDF specification's table of return codes (JDF 1.3 Appendix D, JDF 1.2 Appendix I, as CIP4's JDFLibJ
// EnumJMFReturnCode lists them), the few this front door has a use for.

/** JDF 1.x ReturnCode table: 0, the message was understood and done. */
export const SUCCESS = 0;
/** JDF 1.x ReturnCode table: 2, internal error (something on our side failed; the job is not taken). */
export const INTERNAL_ERROR = 2;
/** JDF 1.x ReturnCode table: 3, XML parser error (the message is not well-formed XML). */
export const XML_PARSER_ERROR = 3;
/** JDF 1.x ReturnCode table: 5, query/command not implemented. */
export const NOT_IMPLEMENTED = 5;
/** JDF 1.x ReturnCode table: 6, invalid parameters (here: a body larger than the limit). */
export const INVALID_PARAMETERS = 6;
/** JDF 1.x ReturnCode table: 7, insufficient parameters (a submission without its URL). */
export const INSUFFICIENT_PARAMETERS = 7;
/** JDF 1.x ReturnCode table: 105, the QueueEntryID is not known. */
export const UNKNOWN_QUEUE_ENTRY = 105;
/** JDF 1.x ReturnCode table: 120, cannot access referenced URL (the submitted ticket, or a file it references). */
export const URL_NOT_ACCESSIBLE = 120;
/** JDF 1.x ReturnCode table: 8, device not available (here: the downstream device did not answer in JMF). */
export const DEVICE_NOT_AVAILABLE = 8;
/** JDF 1.x ReturnCode table: 10, message service is busy (here: the server is busy or shutting down). */
export const BUSY = 10;
/** JDF 1.x ReturnCode table: 200, invalid Resource parameters (here: a file reference in the job is wrong). */
export const INVALID_RESOURCE_PARAMETERS = 200;

/** Error codes that say a referenced file could not be had, not that its reference is written wrong. */
const NOT_ACCESSIBLE: ReadonlySet<string> = new Set(['file-missing', 'case-mismatch', 'not-a-file', 'not-a-directory', 'file-unreadable', 'file-still-changing', 'cid-no-part']);

/**
 * The ReturnCode for a job refused for its error findings: 120 when one of them is a file that cannot be had
 * (JDF 1.x: "cannot access referenced URL"), else 200, the Resource parameters (its FileSpecs) are invalid. The
 * values are JDFLibJ's EnumJMFReturnCode, the table of JDF 1.3 Appendix D (JDF 1.2 Appendix I).
 */
export function refusedJobCode(errorCodes: Iterable<string>): number {
  for (const code of errorCodes) if (NOT_ACCESSIBLE.has(code)) return URL_NOT_ACCESSIBLE;
  return INVALID_RESOURCE_PARAMETERS;
}
