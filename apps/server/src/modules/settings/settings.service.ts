import type { GeneralSetting } from '@protocol/contracts';
import { asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import type { Principal } from '../../platform/auth.ts';
import { notFound } from '../../platform/errors.ts';
import { companiesOfUser } from '../companies/api.ts';
import { generalSettings } from './settings.schema.ts';

/** The general settings of a company the operator works for (the first one when none is named). */
export async function listGeneralSettings(
  db: Db,
  principal: Principal,
  companyId: number | undefined,
): Promise<GeneralSetting[]> {
  const companies = await companiesOfUser(db, principal.userId, principal.superAdmin);
  const company = companyId === undefined ? companies[0] : companies.find((c) => c.id === companyId);
  if (!company) {
    if (companyId === undefined) return [];
    throw notFound();
  }
  return db
    .select({
      id: generalSettings.id,
      companyId: generalSettings.companyId,
      parName: generalSettings.parName,
      parValue: generalSettings.parValue,
    })
    .from(generalSettings)
    .where(eq(generalSettings.companyId, company.id))
    .orderBy(asc(generalSettings.parName));
}

export async function putGeneralSetting(
  tx: Tx,
  companyId: number,
  parName: string,
  parValue: string,
  createdBy: string,
): Promise<void> {
  await tx
    .insert(generalSettings)
    .values({ companyId, parName, parValue, createuser: createdBy })
    .onConflictDoUpdate({
      target: [generalSettings.companyId, generalSettings.parName],
      set: { parValue, updateuser: createdBy, updatedate: new Date() },
    });
}
