import type { ErrorObject } from 'ajv';

/** A validator's complaint about a value, by its JSON pointer in the OpenAPI document. */
export interface SchemaProblem {
  instancePath: string;
  keyword: string;
  message?: string;
  params?: { allowedValues?: unknown[] };
}

/** The dialects whose meta-schema is JSON Schema 2020-12: OpenAPI 3.1's default, and 2020-12 itself. */
const DIALECTS_OF_2020_12 = new Set([
  'https://spec.openapis.org/oas/3.1/dialect/base',
  'https://json-schema.org/draft/2020-12/schema',
]);

/**
 * The validator of schemas against the 2020-12 meta-schema, made once a process: it compiles the
 * meta-schema the first time it checks a schema, which costs more than checking a document's schemas,
 * and a build with versions, or `npm run dev` as the document is saved, checks a document again and again.
 */
let metaValidator: Promise<import('ajv/dist/2020.js').default> | undefined;

async function startMetaValidator() {
  // Loaded here, not with the build: a site without an API reference never pays for the validator.
  const { default: Ajv2020 } = await import('ajv/dist/2020.js');
  // Not strict: OpenAPI adds its own keywords (`discriminator`, `xml`, `example`) to a schema.
  return new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
}

/** Keys whose values are data, never schemas, even when a key of theirs is called `schema`. */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'enum', 'const']);

/**
 * The schemas of an OpenAPI 3.1 document checked against their dialect, JSON Schema 2020-12: OpenAPI's own
 * schema for 3.1 leaves a Schema Object open (`$dynamicRef`), so `type: strnig` passes it and the
 * reference would show the misspelt type. Each problem is given by its pointer in the document, as the
 * OpenAPI validator gives its own. A document that names another `jsonSchemaDialect` is not checked here:
 * this build knows no other meta-schema.
 */
export async function schemaDialectProblems(document: Record<string, unknown>): Promise<SchemaProblem[]> {
  const dialect = document['jsonSchemaDialect'];
  if (dialect !== undefined && !DIALECTS_OF_2020_12.has(String(dialect))) return [];
  const schemas = schemasOf(document);
  if (schemas.length === 0) return [];
  const ajv = await (metaValidator ??= startMetaValidator());
  const problems: SchemaProblem[] = [];
  for (const { pointer, schema } of schemas) {
    if (typeof schema === 'boolean' || ajv.validateSchema(schema as object)) continue;
    for (const error of firstBranchOnly(ajv.errors ?? [])) {
      problems.push({ ...error, instancePath: `${pointer}${error.instancePath}` });
    }
  }
  return problems;
}

/**
 * Every schema the document writes where OpenAPI expects one, with its JSON pointer: the values of
 * `components.schemas`, and the value of each `schema` key outside a schema and outside example data. The
 * meta-schema checks the schemas within a schema itself.
 */
function schemasOf(document: Record<string, unknown>): { pointer: string; schema: unknown }[] {
  const found: { pointer: string; schema: unknown }[] = [];
  const walk = (value: unknown, pointer: string): void => {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (key === 'schema' && !Array.isArray(value)) found.push({ pointer: at, schema: child });
      else if (at === '/components/schemas' && isObject(child)) {
        for (const [name, schema] of Object.entries(child)) {
          found.push({ pointer: `${at}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, schema });
        }
      } else if (!DATA_KEYS.has(key) && !key.startsWith('x-')) walk(child, at);
    }
  };
  walk(document, '');
  return found;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A value that matches no branch of an `anyOf` gets one complaint per branch: `type: strnig` is neither
 * one of the simple types nor an array. The first branch's says what is usually meant; the others, and
 * the `anyOf`'s own, only repeat that the value matched none.
 */
function firstBranchOnly(errors: readonly ErrorObject[]): ErrorObject[] {
  const unmatched = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const told = new Set<string>();
  return errors.filter((error) => {
    if (!unmatched.has(error.instancePath)) return true;
    if (error.keyword === 'anyOf' || told.has(error.instancePath)) return false;
    told.add(error.instancePath);
    return true;
  });
}
