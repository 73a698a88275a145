/**
 * The parts of an OpenAPI 3.0 / 3.1 document the reference pages read, after the document is validated
 * and its `$ref`s resolved (load-document.ts): every reference has become the object it names, and a
 * recursive schema contains itself.
 */
export interface Schema {
  type?: string | string[];
  format?: string;
  title?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  nullable?: boolean;
  deprecated?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
}

export interface Example {
  summary?: string;
  value?: unknown;
}

export interface MediaType {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, Example>;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  description?: string;
  required?: boolean;
  deprecated?: boolean;
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, Example>;
}

export interface RequestBody {
  description?: string;
  required?: boolean;
  content?: Record<string, MediaType>;
}

export interface Response {
  description?: string;
  content?: Record<string, MediaType>;
}

export type SecurityRequirement = Record<string, string[]>;

export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  parameters?: Parameter[];
  requestBody?: RequestBody;
  responses?: Record<string, Response>;
  security?: SecurityRequirement[];
}

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type Method = (typeof METHODS)[number];

export type PathItem = { parameters?: Parameter[] } & Partial<Record<Method, Operation>>;

export interface SecurityScheme {
  type: string;
  description?: string;
  /** apiKey: the header, query parameter or cookie that carries the key. */
  name?: string;
  in?: string;
  /** http: `bearer`, `basic`, … */
  scheme?: string;
  bearerFormat?: string;
}

export interface ApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string; description?: string }[];
  paths?: Record<string, PathItem>;
  tags?: { name: string; description?: string }[];
  components?: { securitySchemes?: Record<string, SecurityScheme> };
  security?: SecurityRequirement[];
}
