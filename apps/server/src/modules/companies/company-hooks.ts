import type { Tx } from '../../db/client.ts';

/**
 * What other modules give a company created through the API (POST /api/companies), in the same
 * transaction: e.g. the protocol's document types, subject categories and case types. The modules
 * register their hook with `onCompanyCreated` when they are loaded (like traders/trader-references.ts),
 * so the companies module, which the others build on, never imports them.
 */
export type CompanyCreatedHook = (tx: Tx, companyId: number, username: string) => Promise<void>;

const hooks: CompanyCreatedHook[] = [];

export function onCompanyCreated(hook: CompanyCreatedHook): void {
  if (!hooks.includes(hook)) hooks.push(hook);
}

/** Runs every registered hook, in registration order, inside the company's creating transaction. */
export async function runCompanyCreatedHooks(tx: Tx, companyId: number, username: string): Promise<void> {
  for (const hook of hooks) await hook(tx, companyId, username);
}
