// The JMF ReturnCodes `serve` answers with (JDF 1.x, JMF Response/@ReturnCode; XJMF ResponseXxx/@ReturnCode):
// the JDF specification's table of return codes, the few this front door has a use for.

/** JDF 1.x ReturnCode table: 0, the message was understood and done. */
export const SUCCESS = 0;
/** JDF 1.x ReturnCode table: 2, internal error (something on our side failed; the job is not taken). */
export const INTERNAL_ERROR = 2;
/** JDF 1.x ReturnCode table: 3, XML parser error (the message is not well-formed XML). */
export const XML_PARSER_ERROR = 3;
/** JDF 1.x ReturnCode table: 5, query/command not implemented. */
export const NOT_IMPLEMENTED = 5;
/** JDF 1.x ReturnCode table: 6, invalid parameters (here: the job's file references have error findings). */
export const INVALID_PARAMETERS = 6;
/** JDF 1.x ReturnCode table: 7, insufficient parameters (a submission without its URL). */
export const INSUFFICIENT_PARAMETERS = 7;
/** JDF 1.x ReturnCode table: 105, the QueueEntryID is not known. */
export const UNKNOWN_QUEUE_ENTRY = 105;
/** JDF 1.x ReturnCode table: 120, the URL of the submitted ticket is not accessible. */
export const URL_NOT_ACCESSIBLE = 120;
/** JDF 1.x ReturnCode table: 8, device not available (here: the downstream device did not answer in JMF). */
export const DEVICE_NOT_AVAILABLE = 8;
/** JDF 1.x ReturnCode table: 10, message service is busy (here: the server is busy or shutting down). */
export const BUSY = 10;
