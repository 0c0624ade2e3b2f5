import { z } from 'zod';

/** Spec §3 audit fields on records: who and when, as user names and ISO timestamps. */
export const auditFieldsSchema = z.object({
  createuser: z.string().nullable(),
  createdate: z.string().nullable(),
  updateuser: z.string().nullable(),
  updatedate: z.string().nullable(),
  defuser: z.string().nullable(),
  defdate: z.string().nullable(),
  changeuser: z.string().nullable(),
  changedate: z.string().nullable(),
});
export type AuditFields = z.infer<typeof auditFieldsSchema>;
