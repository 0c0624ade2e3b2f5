// What other modules may use of finance (see README "Adding a module").
export { addDocumentPrintHook, type DocumentPrintExtra } from './documents.print-extras.ts';
