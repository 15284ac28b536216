// jdf-filespec.config.json with its schema (schemas/config.schema.json): the schema compiled once by Ajv, the
// checks in check.ts. Pure: the caller reads the file and the schema.
import { Ajv, type ValidateFunction } from 'ajv';
import { checkConfig, type ParsedConfig } from './check.js';

export type { Config } from './check.js';

const compiled = new WeakMap<object, ValidateFunction>();

function validatorFor(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    // site/build.mjs generates the page's validator with the same options.
    validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** Parses and checks a config: strict JSON (no comments, no trailing commas), the schema, then the table's own rules. */
export function parseConfig(text: string, schema: object, hostname = ''): ParsedConfig {
  return checkConfig(text, validatorFor(schema), hostname);
}
