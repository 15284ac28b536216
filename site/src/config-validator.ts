// The config schema's validator. site/build.mjs puts in its place the one Ajv generates from
// schemas/config.schema.json (the page's policy refuses compiling one here); this stand-in is for the type check.
import type { ValidateFunction } from 'ajv';

const validate = (() => {
  throw new Error('site/build.mjs replaces config-validator.ts with the generated validator');
}) as unknown as ValidateFunction;

export default validate;
