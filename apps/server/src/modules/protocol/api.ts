// What other modules may use of the protocol (see README "Adding a module").
export {
  type AttachmentLimits,
  cleanFileName,
  storeUpload,
  type UploadPart,
} from './attachments/attachments.service.ts';
export { type IncomingDocument, registerIncomingDocument } from './documents/intake.ts';
export { visibleDocuments } from './documents/visibility.ts';
