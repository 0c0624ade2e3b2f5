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
