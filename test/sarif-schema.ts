// The official SARIF 2.1.0 JSON schema (test/schemas/sarif-2.1.0.json, see test/schemas/ORIGIN.md) as a validator.
// It is a draft-04 schema, so ajv-draft-04; one of its patterns is not valid with the "u" flag, so unicodeRegExp: false.
import { readFileSync } from 'node:fs';
import Ajv04Module from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';

const Ajv04 = ((Ajv04Module as any).default ?? Ajv04Module) as typeof import('ajv-draft-04').default;
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: any) => unknown;
const ajv = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);

export const sarifSchemaJson = JSON.parse(readFileSync(new URL('../../test/schemas/sarif-2.1.0.json', import.meta.url), 'utf8'));
export const sarifSchema = ajv.compile<any>(sarifSchemaJson);
