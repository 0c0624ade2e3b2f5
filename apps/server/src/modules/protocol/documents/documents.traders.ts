import { eq } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { documentTraders } from '../protocol.schema.ts';
import { TRADER_ROLE } from './documents.common.ts';

/*
 * A document's senders and receivers: their rows in document_traders and the names a document keeps
 * of them (the correspondents column, the audit trail).
 */

/** The display names kept in documents.correspondents: senders of incoming, receivers of outgoing. */
export const correspondentsOf = (
  kind: number,
  resolved: { names: Map<number, string>; senders: number[]; receivers: number[] },
) => {
  const ids = kind === 0 ? resolved.senders : resolved.receivers;
  const text = ids
    .map((traderId) => resolved.names.get(traderId) ?? '')
    .filter((name) => name !== '')
    .join(', ');
  return text === '' ? null : text;
};

export const namesOf = (ids: readonly number[], names: Map<number, string>) =>
  ids.map((traderId) => names.get(traderId) ?? String(traderId)).join(', ');

export async function saveTraders(
  tx: Tx,
  documentId: number,
  senders: number[],
  receivers: number[],
  isNew = false,
) {
  if (!isNew) await tx.delete(documentTraders).where(eq(documentTraders.documentId, documentId));
  const values = [
    ...senders.map((traderId, position) => ({ documentId, role: TRADER_ROLE.sender, position, traderId })),
    ...receivers.map((traderId, position) => ({
      documentId,
      role: TRADER_ROLE.receiver,
      position,
      traderId,
    })),
  ];
  if (values.length > 0) await tx.insert(documentTraders).values(values);
}
