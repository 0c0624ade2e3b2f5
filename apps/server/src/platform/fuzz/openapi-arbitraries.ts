import fc from 'fast-check';

/**
 * Requests for the fuzz test, generated from the app's own OpenAPI document: values that follow
 * each route's schema, and hostile ones in their place (NUL and control characters, lone
 * surrogates, huge and negative numbers, wrong types, deep nesting). New routes are covered as soon
 * as they are registered: nothing here names a route.
 */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  format?: string;
  pattern?: string;
  $ref?: string;
}

export interface Operation {
  method: string;
  /** OpenAPI path, e.g. /api/document/{id}. */
  path: string;
  pathParams: string[];
  query: Record<string, JsonSchema>;
  /** The query parameters the route requires. */
  requiredQuery: string[];
  body: JsonSchema | undefined;
}

export interface GeneratedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload: string | undefined;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of the document, with its parameters and JSON body schema. */
export function operationsOf(document: {
  paths: Record<string, Record<string, { parameters?: unknown[]; requestBody?: unknown }>>;
}): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const parameters = (operation.parameters ?? []) as {
        in: string;
        name: string;
        required?: boolean;
        schema?: JsonSchema;
      }[];
      const body = (
        operation.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined
      )?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: Object.fromEntries(
          parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema ?? { type: 'string' }]),
        ),
        requiredQuery: parameters.filter((p) => p.in === 'query' && p.required).map((p) => p.name),
        body,
      });
    }
  }
  return operations;
}

/** Text PostgreSQL or the server could choke on. */
export const hostileText = fc.constantFrom(
  '\u0000',
  'α\u0000β',
  '\ud800',
  'x\udfffy',
  '\u0007\u001b[31m',
  "'; DROP TABLE users; --",
  '%00',
  '../../../etc/passwd',
  '<script>alert(1)</script>',
  'Ωραίος Ελληνικός Τίτλος με τόνους',
  '💧🚰',
  ' ',
  '',
  'ci(contains(%))',
  'eq(',
  '1e309',
  '-1',
  '2147483648',
  '9007199254740993',
  '99999999999999999999',
  '1e20',
  '2026-02-30',
  '2026-13-45',
  'NaN',
  'null',
  'x'.repeat(5000),
);

/** Numbers at and beyond every column's range. */
export const hostileNumber = fc.constantFrom(
  -1,
  0,
  1,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 53,
  -(2 ** 53),
  1e20,
  1e308,
  0.5,
  -0.0001,
);

/**
 * What a sweep puts in each number, day and list parameter of a route, one at a time:
 * numbers no integer column holds and a schema must refuse before they drive a loop, an allocation
 * or SQL; days no calendar has; quick searches of every kind; pages past any list's end.
 */
export const sweepNumbers = [2 ** 31, 2 ** 53, 1e20] as const;
export const sweepNumberTexts = ['2147483648', '9007199254740993', '99999999999999999999', '1e20'] as const;
export const sweepDays = ['2026-02-30', '2026-13-45', '0000-01-01'] as const;
export const sweepSearches = ['α', 'Παπαδόπουλος', '42', '12.50', '%_\\'] as const;

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  hostileNumber,
  fc.constantFrom(null, true, false, [], {}, [[[[]]]], { __proto__: { polluted: true } }),
);

/** A JSON value nested `depth` levels deep: parsers and validators must not fall over. */
export function deeplyNested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

function resolve(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() ?? '';
    return components[name] ?? {};
  }
  return schema;
}

/** Values following a JSON schema (mostly), depth-limited. */
export function schemaValue(
  raw: JsonSchema,
  components: Record<string, JsonSchema>,
  depth = 0,
): fc.Arbitrary<unknown> {
  const schema = resolve(raw, components);
  if (depth > 6) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants && variants.length > 0)
    return fc.oneof(...variants.map((v) => schemaValue(v, components, depth + 1)));
  if (schema.allOf && schema.allOf.length > 0) {
    const merged: JsonSchema = { type: 'object', properties: {}, required: [] };
    for (const part of schema.allOf) {
      const resolved = resolve(part, components);
      Object.assign(merged.properties as object, resolved.properties ?? {});
      merged.required = [...(merged.required ?? []), ...(resolved.required ?? [])];
    }
    return schemaValue(merged, components, depth + 1);
  }
  const types = [schema.type ?? (schema.properties ? 'object' : 'string')].flat();
  const typed = types.map((type) => byType(type, schema, components, depth));
  const all = schema.nullable ? [...typed, fc.constant(null)] : typed;
  return all.length === 1 ? (all[0] as fc.Arbitrary<unknown>) : fc.oneof(...all);
}

function byType(
  type: string,
  schema: JsonSchema,
  components: Record<string, JsonSchema>,
  depth: number,
): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1000, -1_000_000),
        max: Math.min(schema.maximum ?? 1000, 1_000_000),
      });
    case 'number':
      return fc.double({
        min: Math.max(schema.minimum ?? -1000, -1_000_000),
        max: Math.min(schema.maximum ?? 1000, 1_000_000),
        noNaN: true,
      });
    case 'array':
      return fc.array(schemaValue(schema.items ?? {}, components, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, property] of Object.entries(properties))
        record[key] = schemaValue(property, components, depth + 1);
      return fc.record(record, {
        requiredKeys: Object.keys(properties).filter((key) => required.has(key)),
      });
    }
    default: {
      if (schema.format === 'date') return fc.constantFrom('2026-11-25', '2026-02-30', '1900-01-01');
      if (schema.format === 'date-time') return fc.constantFrom('2026-11-25T10:00:00Z', 'yesterday');
      // A pattern's own values, so that bodies get past it to what lies behind (the rest of the
      // schema, the handler, SQL).
      const pattern = patternOf(schema);
      if (pattern)
        return fc.oneof({ weight: 3, arbitrary: fc.stringMatching(pattern) }, fc.string({ maxLength: 20 }));
      return fc.string({
        minLength: Math.min(schema.minLength ?? 0, 20),
        maxLength: Math.min(schema.maxLength ?? 20, 20),
      });
    }
  }
}

function patternOf(schema: JsonSchema): RegExp | undefined {
  if (!schema.pattern) return undefined;
  try {
    return new RegExp(schema.pattern);
  } catch {
    return undefined;
  }
}

/**
 * One valid-looking value of a schema, the same every time: every property present, every array
 * with one item. A sweep changes one leaf of it at a time.
 */
export function exampleOf(raw: JsonSchema, components: Record<string, JsonSchema>, depth = 0): unknown {
  const schema = resolve(raw, components);
  if (depth > 8) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const variants = (schema.anyOf ?? schema.oneOf ?? []).filter((v) => resolve(v, components).type !== 'null');
  if (variants[0]) return exampleOf(variants[0], components, depth + 1);
  if (schema.allOf) {
    return Object.assign({}, ...schema.allOf.map((part) => exampleOf(part, components, depth + 1)));
  }
  const type = [schema.type ?? (schema.properties ? 'object' : 'string')].flat().find((t) => t !== 'null');
  switch (type) {
    case 'boolean':
      return true;
    case 'integer':
    case 'number':
      return Math.min(Math.max(1, schema.minimum ?? 1), schema.maximum ?? 1);
    case 'array':
      return schema.maxItems === 0 ? [] : [exampleOf(schema.items ?? {}, components, depth + 1)];
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, property]) => [
          key,
          exampleOf(property, components, depth + 1),
        ]),
      );
    default: {
      if (schema.format === 'date') return '2026-11-25';
      if (schema.format === 'date-time') return '2026-11-25T10:00:00Z';
      if (schema.format === 'email') return 'fuzz@deya.example';
      const pattern = patternOf(schema);
      if (pattern) return fc.sample(fc.stringMatching(pattern), { numRuns: 1, seed: 1 })[0];
      return 'Τιμή'.padEnd(Math.min(Math.max(schema.minLength ?? 1, 4), schema.maxLength ?? 4), 'x');
    }
  }
}

/** Every number and day of a value (an example), by path, each with what the sweep puts there. */
function sweepLeaves(value: unknown, path: (string | number)[] = []): [(string | number)[], unknown[]][] {
  if (typeof value === 'number') return [[path, [...sweepNumbers]]];
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) return [[path, [...sweepDays]]];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    sweepLeaves(inner, [...path, Array.isArray(value) ? Number(key) : key]),
  );
}

function withLeaf(value: unknown, path: (string | number)[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [key, ...rest] = path as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  copy[key] = withLeaf(copy[key], rest, leaf);
  return copy;
}

/**
 * The sweep of one operation: its example body with one number at a time at 2^31, 2^53
 * and 1e20 and one day at a time impossible; each query parameter in turn huge, an impossible day, or
 * — the quick search of a list — a word, a Greek word, a number; a list's page past any end. Path
 * parameters are the first of `ids`, required query parameters their examples. Deterministic: every
 * route, every leaf, every run.
 */
export function sweepOf(
  operation: Operation,
  components: Record<string, JsonSchema>,
  ids: readonly number[],
): GeneratedRequest[] {
  let path = operation.path;
  for (const name of operation.pathParams) path = path.replace(`{${name}}`, String(ids[0]));
  // The required query parameters' examples, so that a request gets past them to what is swept.
  const required = Object.fromEntries(
    operation.requiredQuery.map((name) => [name, String(exampleOf(operation.query[name] ?? {}, components))]),
  );
  const request = (query: Record<string, string>, body: unknown): GeneratedRequest => {
    const search = new URLSearchParams({ ...required, ...query }).toString();
    return {
      method: operation.method,
      url: search ? `${path}?${search}` : path,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      payload: body === undefined ? undefined : JSON.stringify(body),
    };
  };
  const example = operation.body ? exampleOf(operation.body, components) : undefined;
  const requests: GeneratedRequest[] = [];
  for (const [leafPath, values] of sweepLeaves(example))
    for (const value of values) requests.push(request({}, withLeaf(example, leafPath, value)));
  for (const [name, raw] of Object.entries(operation.query)) {
    const schema = resolve(raw, components);
    const types = [schema.type].flat();
    const values =
      name === 'search'
        ? sweepSearches
        : name === 'page'
          ? sweepNumberTexts
          : types.includes('integer') || types.includes('number')
            ? sweepNumberTexts
            : schema.format === 'date' || /date|day|^from$|^to$/i.test(name)
              ? sweepDays
              : [];
    for (const value of values) requests.push(request({ [name]: value }, example));
  }
  return requests;
}

/** The same value with one leaf (or the whole) replaced by a hostile one. */
export function mutated(value: unknown): fc.Arbitrary<unknown> {
  if (value === null || typeof value !== 'object') return hostileValue;
  const keys = Object.keys(value as object);
  if (keys.length === 0) return hostileValue;
  return fc
    .tuple(fc.constantFrom(...keys), hostileValue, fc.boolean())
    .chain(([key, replacement, deeper]) => {
      const inner = (value as Record<string, unknown>)[key];
      const next = deeper ? mutated(inner) : fc.constant(replacement);
      return next.map((leaf) =>
        Array.isArray(value) ? Object.assign([...value], { [key]: leaf }) : { ...value, [key]: leaf },
      );
    });
}

/** A path parameter: ids that exist, ids that cannot, and text. */
const pathParam = (ids: readonly number[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ids) },
    {
      weight: 2,
      arbitrary: fc.constantFrom('0', '-1', '2147483648', '99999999999999999999', '1.5', 'abc', '%00', '1e3'),
    },
  );

/** A list filter or any unknown query parameter, with operators the list engine knows and does not. */
const queryPair = fc.tuple(
  fc.constantFrom(
    'search',
    'sort',
    'page',
    'size',
    'subject',
    'vatnumber',
    'name',
    'createdate',
    'id',
    'status',
    'x',
  ),
  fc.oneof(
    fc.constantFrom(
      'ci(contains(α))',
      'eq(1)',
      'gt(2026-01-01)',
      'lte(x)',
      'between(1,2)',
      'gte(2026-02-30)',
      'eq(99999999999999999999)',
      'name,ASC',
      'id,SIDEWAYS',
      '-1',
      '0',
    ),
    hostileText,
  ),
);

/** One request for an operation: valid-looking, mutated, or malformed. */
export function requestOf(
  operation: Operation,
  components: Record<string, JsonSchema>,
  ids: readonly number[],
): fc.Arbitrary<GeneratedRequest> {
  const params = fc.tuple(...operation.pathParams.map(() => pathParam(ids)));
  const namedQuery = fc.record(
    Object.fromEntries(
      Object.entries(operation.query).map(([name, schema]) => [
        name,
        fc.oneof(schemaValue(schema, components).map(String), hostileText),
      ]),
    ),
    { requiredKeys: [] },
  );
  const query = fc.tuple(namedQuery, fc.array(queryPair, { maxLength: 3 }));
  const body: fc.Arbitrary<{ payload: string | undefined; contentType: string | undefined }> = operation.body
    ? schemaValue(operation.body, components).chain((valid) =>
        fc
          .oneof(
            { weight: 3, arbitrary: fc.constant(valid) },
            { weight: 4, arbitrary: mutated(valid) },
            { weight: 1, arbitrary: fc.constant(deeplyNested(300)) },
          )
          .chain((json) =>
            fc.oneof(
              {
                weight: 8,
                arbitrary: fc.constant({ payload: JSON.stringify(json), contentType: 'application/json' }),
              },
              {
                weight: 1,
                arbitrary: fc.constantFrom(
                  { payload: '{"unterminated": ', contentType: 'application/json' },
                  { payload: 'not json at all', contentType: 'application/json' },
                  { payload: '{"a":1}', contentType: 'text/plain' },
                  { payload: '<xml/>', contentType: 'application/xml' },
                ),
              },
            ),
          ),
      )
    : fc.constant({ payload: undefined, contentType: undefined });
  return fc.tuple(params, query, body).map(([values, [named, pairs], { payload, contentType }]) => {
    let path = operation.path;
    operation.pathParams.forEach((name, index) => {
      path = path.replace(`{${name}}`, encodeURIComponent(String(values[index])));
    });
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(named)) search.append(name, String(value));
    for (const [name, value] of pairs) search.append(name, value);
    const queryString = search.toString();
    return {
      method: operation.method,
      url: queryString ? `${path}?${queryString}` : path,
      headers: contentType ? { 'content-type': contentType } : ({} as Record<string, string>),
      payload,
    };
  });
}
