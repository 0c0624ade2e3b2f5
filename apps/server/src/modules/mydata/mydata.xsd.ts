import { readFileSync } from 'node:fs';
import path from 'node:path';
import { XmlDocument, XmlValidateError, XsdValidator } from 'libxml2-wasm';
import { xmlRegisterFsInputProviders } from 'libxml2-wasm/lib/nodejs.mjs';

/**
 * Validation against AADE's official schemas (v2.0.1, copied unchanged into ./xsd) with libxml2
 * compiled to WebAssembly: the same engine as Debian's xmllint, installed by npm, nothing native.
 * The schema is compiled once per process; each document is parsed, checked and freed.
 */

export const XSD_DIR = path.join(import.meta.dirname, 'xsd');

export interface XsdProblem {
  line: number;
  /** The element the rule is about (`vatNumber`), when libxml2 names one. */
  element: string | null;
  message: string;
  /** What kind of rule it broke, for a text in the user's language (`mydata.xsd.<rule>`). */
  rule: XsdRule;
  /** The field the user's text names: the missing one for `missing`, else the element. */
  field: string | null;
  /** The value refused, when libxml2 quotes it. */
  value: string | null;
}

export type XsdRule =
  | 'missing'
  | 'unexpected'
  | 'notInList'
  | 'outOfRange'
  | 'tooLong'
  | 'badFormat'
  | 'other';

const localName = (qualified: string | undefined) => qualified?.replace(/^\{[^}]*\}/, '') ?? null;

/** Sorts libxml2's common schema messages into rules, naming the field (the raw text stays as detail). */
export function classifyXsdMessage(message: string): Pick<XsdProblem, 'rule' | 'field' | 'value'> {
  const element = localName(/Element '([^']+)'/.exec(message)?.[1]);
  const value =
    /The value '([^']*)'/.exec(message)?.[1] ?? /'([^']*)' is not a valid value/.exec(message)?.[1] ?? null;
  const expected = localName(/Expected is(?: one of)? \( ?([^ ,)]+)/.exec(message)?.[1]);
  if (/Missing child element/.test(message))
    return { rule: 'missing', field: expected ?? element, value: null };
  if (/This element is not expected/.test(message))
    return expected
      ? { rule: 'missing', field: expected, value: null }
      : { rule: 'unexpected', field: element, value: null };
  if (/\[facet 'enumeration'\]/.test(message)) return { rule: 'notInList', field: element, value };
  if (/\[facet '(min|max)(In|Ex)clusive'\]/.test(message))
    return { rule: 'outOfRange', field: element, value };
  if (/\[facet '(maxLength|length|totalDigits|fractionDigits)'\]/.test(message))
    return { rule: 'tooLong', field: element, value };
  if (/\[facet 'pattern'\]|is not a valid value of the (atomic|local) type/.test(message))
    return { rule: 'badFormat', field: element, value };
  return { rule: 'other', field: element, value };
}

const validators = new Map<string, XsdValidator>();

function validatorOf(file: string): XsdValidator {
  let validator = validators.get(file);
  if (!validator) {
    xmlRegisterFsInputProviders();
    const full = path.join(XSD_DIR, file);
    const schema = XmlDocument.fromBuffer(readFileSync(full), { url: full });
    try {
      validator = XsdValidator.fromDoc(schema);
    } finally {
      schema.dispose();
    }
    validators.set(file, validator);
  }
  return validator;
}

function problemsOf(error: unknown): XsdProblem[] {
  if (!(error instanceof XmlValidateError) && !(error instanceof Error)) throw error;
  const details = 'details' in error ? (error.details as { message: string; line?: number }[]) : [];
  const list = details.length > 0 ? details : [{ message: error.message, line: 0 }];
  return list.map((d) => ({
    line: d.line ?? 0,
    element: /Element '(?:\{[^}]*\})?([\w:]+)'/.exec(d.message)?.[1] ?? null,
    message: d.message.trim(),
    ...classifyXsdMessage(d.message),
  }));
}

/** The broken rules of `xml` against a schema of ./xsd (InvoicesDoc by default); empty when valid. */
export function validateXml(xml: string, schemaFile = 'InvoicesDoc-v2.0.1.xsd'): XsdProblem[] {
  let doc: XmlDocument;
  try {
    doc = XmlDocument.fromString(xml);
  } catch (error) {
    return problemsOf(error);
  }
  try {
    validatorOf(schemaFile).validate(doc);
    return [];
  } catch (error) {
    return problemsOf(error);
  } finally {
    doc.dispose();
  }
}
