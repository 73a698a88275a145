import { createRequire } from 'node:module';
import type { MediaType, Schema } from './document';

/** A value as inline code: `10`, `"pro"`. */
export function inlineValue(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

/** Markdown text that must stay on one line: a table cell or a list item's description. */
export function oneLine(text: string | undefined): string {
  return (text ?? '').trim().replace(/\s*\n\s*/g, ' ');
}

/** A table cell: one line, with its pipes escaped. */
export function cell(text: string | undefined): string {
  return oneLine(text).replace(/\|/g, '\\|');
}

/** The properties and required names of a schema, with those of its `allOf` parts merged in. */
function objectParts(schema: Schema): { properties: Record<string, Schema>; required: Set<string> } {
  const properties: Record<string, Schema> = { ...schema.properties };
  const required = new Set(schema.required ?? []);
  for (const part of schema.allOf ?? []) {
    const merged = objectParts(part);
    Object.assign(properties, merged.properties);
    for (const name of merged.required) required.add(name);
  }
  return { properties, required };
}

/** `string`, `integer (int64)`, `array of object`, `string or null`, `one of: …`. */
export function typeLabel(schema: Schema | undefined): string {
  if (!schema) return 'any';
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants) return `${schema.oneOf ? 'one' : 'any'} of: ${variants.map((v) => v.title ?? typeLabel(v)).join(', ')}`;
  let types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) types = schema.properties || schema.allOf ? ['object'] : schema.items ? ['array'] : [];
  if (types.length === 0) return 'any';
  const label = types
    .map((type) => (type === 'array' ? `array of ${schema.items ? typeLabel(schema.items) : 'any'}` : type))
    .join(' or ');
  return `${label}${schema.format ? ` (${schema.format})` : ''}${schema.nullable ? ' or null' : ''}`;
}

/** What the schema allows beyond its type: allowed values, default, bounds, pattern. */
export function constraints(schema: Schema | undefined): string {
  if (!schema) return '';
  const parts: string[] = [];
  if (schema.enum) parts.push(`One of ${schema.enum.map(inlineValue).join(', ')}.`);
  if (schema.const !== undefined) parts.push(`Always ${inlineValue(schema.const)}.`);
  const range = (min?: number, max?: number, unit = '') =>
    min !== undefined && max !== undefined
      ? `From ${min} to ${max}${unit}.`
      : min !== undefined
        ? `At least ${min}${unit}.`
        : max !== undefined
          ? `At most ${max}${unit}.`
          : '';
  parts.push(range(schema.minimum, schema.maximum));
  parts.push(range(schema.minLength, schema.maxLength, ' characters'));
  parts.push(range(schema.minItems, schema.maxItems, ' items'));
  if (schema.pattern) parts.push(`Matches ${inlineValue(schema.pattern)}.`);
  if (schema.default !== undefined) parts.push(`Default: ${inlineValue(schema.default)}.`);
  if (schema.readOnly) parts.push('Read-only.');
  if (schema.deprecated) parts.push('Deprecated.');
  return parts.filter(Boolean).join(' ');
}

/**
 * A schema as a nested markdown list, one item per property: its name, type, whether it is required, its
 * description and constraints, and the properties of an object it holds (or of the objects of an array)
 * one level in. A schema that contains itself is described once; its inner occurrence says so.
 */
export function schemaList(schema: Schema): string {
  const lines: string[] = [];
  const write = (node: Schema, indent: string, ancestors: Set<Schema>): void => {
    const { properties, required } = objectParts(node);
    for (const [name, property] of Object.entries(properties)) {
      const facts = [typeLabel(property), required.has(name) ? 'required' : ''].filter(Boolean).join(', ');
      const text = [oneLine(property.description), constraints(property)].filter(Boolean).join(' ');
      lines.push(`${indent}- \`${name}\` *${facts}*${text ? `: ${text}` : ''}`);
      children(property, `${indent}  `, ancestors);
    }
    const extra = node.additionalProperties;
    if (extra && typeof extra === 'object') {
      lines.push(
        `${indent}- *any other key* *${typeLabel(extra)}*${extra.description ? `: ${oneLine(extra.description)}` : ''}`,
      );
      children(extra, `${indent}  `, ancestors);
    }
  };
  const children = (node: Schema, indent: string, ancestors: Set<Schema>): void => {
    const inner = node.items ?? node;
    if (ancestors.has(inner)) {
      lines.push(`${indent}- *the same structure as its parent, nested*`);
      return;
    }
    const inside = new Set(ancestors).add(inner);
    for (const [index, variant] of (inner.oneOf ?? inner.anyOf ?? []).entries()) {
      if (!hasFields(variant)) continue;
      lines.push(`${indent}- *${variant.title ?? `Option ${index + 1}`}*`);
      write(variant, `${indent}  `, inside);
    }
    if (hasFields(inner)) write(inner, indent, inside);
  };
  const top = schema.items ?? schema;
  if (!hasFields(top) && !(top.oneOf ?? top.anyOf)?.some(hasFields)) {
    const text = [oneLine(schema.description), constraints(schema)].filter(Boolean).join(' ');
    return `*${typeLabel(schema)}*${text ? `: ${text}` : ''}\n`;
  }
  if (schema.items) lines.push(`*${typeLabel(schema)}*, each:`, '');
  children(schema, '', new Set());
  return `${lines.join('\n')}\n`;
}

function hasFields(schema: Schema): boolean {
  return (
    Object.keys(objectParts(schema).properties).length > 0 ||
    (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null)
  );
}

/**
 * The example a media type shows: the document's own (`example`, the first of `examples`, the schema's
 * `example`), or one made from the schema. Made ones leave out what the reader never sends (read-only
 * fields in a request) or never receives (write-only ones in a response).
 */
export function mediaExample(media: MediaType, direction: 'request' | 'response'): unknown {
  if (media.example !== undefined) return media.example;
  const first = Object.values(media.examples ?? {})[0];
  if (first?.value !== undefined) return first.value;
  if (!media.schema) return undefined;
  if (media.schema.example !== undefined) return media.schema.example;
  const options = {
    skipReadOnly: direction === 'request',
    skipWriteOnly: direction === 'response',
    quiet: true,
    maxSampleDepth: 6,
  };
  // The schema has no `$ref` left: the sampler needs no document to resolve them against.
  return sampler().sample(media.schema as Parameters<Sampler['sample']>[0], options);
}

type Sampler = typeof import('openapi-sampler');

/** openapi-sampler, loaded the first time an example is made: a site without an API reference never loads it. */
const sampler = (): Sampler => createRequire(import.meta.url)('openapi-sampler') as Sampler;
