import { CUSTOM_EXPORT_SETTING_PREFIX, customExportOf, DEYA_AA_SETTING } from '@protocol/contracts';
import { and, asc, eq, inArray, like } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { CustomExports } from '../../platform/exports/types.ts';
import { generalSettings } from './settings.schema.ts';

/**
 * A company's own exports are its general settings named `export.<name>` (contracts
 * `customExportOf`): each list's export menu offers those whose address names that list.
 */
export function customExportsOf(db: Db): CustomExports {
  return {
    async of(companyId) {
      const rows = await db
        .select({ parValue: generalSettings.parValue })
        .from(generalSettings)
        .where(
          and(
            eq(generalSettings.companyId, companyId),
            like(generalSettings.parName, `${CUSTOM_EXPORT_SETTING_PREFIX}%`),
          ),
        )
        .orderBy(asc(generalSettings.parName));
      // A value saved before its check existed is skipped rather than offered broken.
      return rows.flatMap((row) => customExportOf(row.parValue) ?? []);
    },
    async companyNumbered(companyIds, aaDeya) {
      if (companyIds.length === 0) return undefined;
      const [row] = await db
        .select({ companyId: generalSettings.companyId })
        .from(generalSettings)
        .where(
          and(
            eq(generalSettings.parName, DEYA_AA_SETTING),
            eq(generalSettings.parValue, aaDeya),
            inArray(generalSettings.companyId, [...companyIds]),
          ),
        )
        .orderBy(asc(generalSettings.companyId))
        .limit(1);
      return row?.companyId;
    },
  };
}
