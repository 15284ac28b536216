// jsonc-parser as its CommonJS build gives it to Node (one default export), with only what src/config/check.ts
// uses, so that the rest of the ES module (formatting, editing) stays out of the page.
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode } from 'jsonc-parser';

export default { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode };
