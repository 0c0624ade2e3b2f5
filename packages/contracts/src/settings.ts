import { z } from 'zod';

/** The general setting that names the utility's number (aaDeya) in exports and lookups. */
export const DEYA_AA_SETTING = 'gen.deya_aa';

export const generalSettingSchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  parName: z.string(),
  parValue: z.string().nullable(),
});
export type GeneralSetting = z.infer<typeof generalSettingSchema>;
