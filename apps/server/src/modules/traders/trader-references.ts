/**
 * The columns that point at a trader. A merge moves each of them from the merged trader to the
 * survivor; later modules (documents, consumers, invoices …) add theirs with `registerTraderReference`
 * when they are loaded. A reference not registered here still protects the trader: its foreign key
 * refuses the delete (409 error.linked_elsewhere).
 */
export interface TraderReference {
  /** The SQL table name, e.g. 'trader_banks'. */
  table: string;
  /** Its column holding the trader's id. */
  column: string;
}

const references: TraderReference[] = [{ table: 'trader_banks', column: 'trader_id' }];

export function registerTraderReference(reference: TraderReference): void {
  if (!references.some((r) => r.table === reference.table && r.column === reference.column)) {
    references.push(reference);
  }
}

export function traderReferences(): readonly TraderReference[] {
  return references;
}
