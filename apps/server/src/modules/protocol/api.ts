// What other modules may use of the protocol (see README "Adding a module").
export { cleanFileName } from './attachments/attachments.content.ts';
export { type AttachmentLimits, storeUpload, type UploadPart } from './attachments/attachments.service.ts';
export type { RegistrationLink } from './documents/documents.common.ts';
export {
  addIncomingSender,
  attachIncomingFiles,
  type IncomingDocument,
  type IncomingFile,
  incomingFile,
  registerIncomingDocument,
} from './documents/intake.ts';
export { visibleDocuments } from './documents/visibility.ts';
