import type { GeneralSetting } from '@protocol/contracts';
import { asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { generalSettings } from './settings.schema.ts';

/** The general settings of the company in use; none for an operator of no company. */
export async function listGeneralSettings(db: Db, companyId: number | null): Promise<GeneralSetting[]> {
  if (companyId === null) return [];
  return db
    .select({
      id: generalSettings.id,
      companyId: generalSettings.companyId,
      parName: generalSettings.parName,
      parValue: generalSettings.parValue,
    })
    .from(generalSettings)
    .where(eq(generalSettings.companyId, companyId))
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
