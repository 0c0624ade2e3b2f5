import {
  type DocumentActionAvailability,
  type DocumentActionName,
  documentActions,
  hasPermission,
} from '@protocol/contracts';
import type { Principal } from '../../../platform/auth.ts';

/**
 * Which of the fourteen document actions (spec §3 'Document actions') an operator may run now, and
 * why not. The ONE place of these rules: the document answer (`actions`), the list menus and the
 * actions service (POST /api/document/actions) all read them, so the screen never offers what the
 * server refuses. A reason is a catalog key (documents.reason.* or error.*).
 */

/** What the rules read of the document row. */
export interface RuleDocument {
  kind: number;
  state: number;
  protocolNumber: number | null;
  sendStatus: number;
}

/** What the rules need beyond the row, about the asker and the document's links. */
export interface DocumentFacts {
  /** The asker is the current chargee: the charged operator or a member of the charged group. */
  isChargee: boolean;
  /** The document has an active charge (document_assignments kind 1, not ended). */
  hasActiveCharge: boolean;
  /** The document is in at least one case folder. */
  inCase: boolean;
  /** Its attachments that are not deleted. */
  attachmentsCount: number;
  /** The asker has already signed the document's current content (same hash). */
  signedByMe: boolean;
}

export const reasonKeys = {
  notAllowed: 'documents.reason.not_allowed',
  writeOrChargee: 'documents.reason.write_or_chargee',
  archived: 'documents.reason.archived',
  deleted: 'documents.reason.deleted',
  notArchived: 'documents.reason.not_archived',
  notOutgoing: 'documents.reason.not_outgoing',
  notIncoming: 'documents.reason.not_incoming',
  notRegistered: 'documents.reason.not_registered',
  alreadySent: 'documents.reason.already_sent',
  notChargee: 'documents.reason.not_chargee',
  noActiveCharge: 'documents.reason.no_active_charge',
  alreadySigned: 'documents.reason.already_signed',
  noAttachments: 'documents.reason.no_attachments',
  registeredDelete: 'error.document_registered_delete',
  inCase: 'error.document_in_case',
} as const;

type Verdict = string | null;

/** Whether the asker is a protocol writer (protocol:write or admin; a super admin has it all). */
export const isProtocolWriter = (principal: Principal): boolean =>
  principal.superAdmin || hasPermission(principal.scope, 'protocol:write');

/** The state a changing action needs: active; the reason otherwise. */
const activeOnly = (doc: RuleDocument): Verdict =>
  doc.state === 1 ? reasonKeys.archived : doc.state === 9 ? reasonKeys.deleted : null;
const notDeleted = (doc: RuleDocument): Verdict => (doc.state === 9 ? reasonKeys.deleted : null);

/** Each action's rule: null when allowed, else the reason key. */
const rules: Record<
  DocumentActionName,
  (principal: Principal, doc: RuleDocument, facts: DocumentFacts) => Verdict
> = {
  edit: (p, doc, f) => (isProtocolWriter(p) || f.isChargee ? activeOnly(doc) : reasonKeys.writeOrChargee),
  send: (p, doc) => {
    if (!isProtocolWriter(p)) return reasonKeys.notAllowed;
    if (doc.kind !== 1) return reasonKeys.notOutgoing;
    if (doc.protocolNumber === null) return reasonKeys.notRegistered;
    return activeOnly(doc) ?? (doc.sendStatus === 2 || doc.sendStatus === 9 ? reasonKeys.alreadySent : null);
  },
  charge: (p, doc, f) => (isProtocolWriter(p) || f.isChargee ? activeOnly(doc) : reasonKeys.writeOrChargee),
  share: (p, doc, f) => (isProtocolWriter(p) || f.isChargee ? activeOnly(doc) : reasonKeys.writeOrChargee),
  return: (_p, doc, f) => {
    if (!f.hasActiveCharge) return reasonKeys.noActiveCharge;
    if (!f.isChargee) return reasonKeys.notChargee;
    return activeOnly(doc);
  },
  history: () => null,
  archive: (p, doc) => (isProtocolWriter(p) ? activeOnly(doc) : reasonKeys.notAllowed),
  restore: (p, doc) =>
    isProtocolWriter(p)
      ? doc.state === 1 || doc.state === 9
        ? null
        : reasonKeys.notArchived
      : reasonKeys.notAllowed,
  sign: (p, doc, f) => {
    if (!(isProtocolWriter(p) || f.isChargee)) return reasonKeys.writeOrChargee;
    return activeOnly(doc) ?? (f.signedByMe ? reasonKeys.alreadySigned : null);
  },
  convertToOutgoing: (p, doc) => {
    if (!isProtocolWriter(p)) return reasonKeys.notAllowed;
    if (doc.kind !== 0) return reasonKeys.notIncoming;
    return activeOnly(doc);
  },
  createCase: (p, doc) => (isProtocolWriter(p) ? notDeleted(doc) : reasonKeys.notAllowed),
  fileTransfer: (p, doc, f) => {
    if (!isProtocolWriter(p)) return reasonKeys.notAllowed;
    return notDeleted(doc) ?? (f.attachmentsCount === 0 ? reasonKeys.noAttachments : null);
  },
  clone: (p, doc) => (isProtocolWriter(p) ? notDeleted(doc) : reasonKeys.notAllowed),
  delete: (p, doc, f) => {
    if (!isProtocolWriter(p)) return reasonKeys.notAllowed;
    if (doc.state === 9) return reasonKeys.deleted;
    if (doc.protocolNumber !== null) return reasonKeys.registeredDelete;
    if (f.inCase) return reasonKeys.inCase;
    return null;
  },
};

/** One action's verdict for the asker: allowed, or the catalog key of the reason. */
export function actionAvailability(
  principal: Principal,
  name: DocumentActionName,
  doc: RuleDocument,
  facts: DocumentFacts,
): DocumentActionAvailability {
  const reasonKey = rules[name](principal, doc, facts);
  return { id: documentActions[name], name, allowed: reasonKey === null, reasonKey };
}

/** All fourteen actions in id order, each with allowed + reasonKey, for the document answer. */
export function availableActions(
  principal: Principal,
  doc: RuleDocument,
  facts: DocumentFacts,
): DocumentActionAvailability[] {
  return (Object.keys(documentActions) as DocumentActionName[])
    .sort((a, b) => documentActions[a] - documentActions[b])
    .map((name) => actionAvailability(principal, name, doc, facts));
}
