import { text, timestamp } from 'drizzle-orm/pg-core';

/** The audit name of what the installation itself writes (first start, demo data). */
export const SYSTEM_USER = 'system';

/** Spec §3 audit fields every record carries: user names and times of each kind of change. */
export const auditColumns = () => ({
  createuser: text('createuser'),
  createdate: timestamp('createdate', { withTimezone: true, mode: 'date' }).defaultNow(),
  updateuser: text('updateuser'),
  updatedate: timestamp('updatedate', { withTimezone: true, mode: 'date' }),
  defuser: text('defuser'),
  defdate: timestamp('defdate', { withTimezone: true, mode: 'date' }),
  changeuser: text('changeuser'),
  changedate: timestamp('changedate', { withTimezone: true, mode: 'date' }),
});

interface AuditRow {
  createuser: string | null;
  createdate: Date | null;
  updateuser: string | null;
  updatedate: Date | null;
  defuser: string | null;
  defdate: Date | null;
  changeuser: string | null;
  changedate: Date | null;
}

/** The audit fields as the API sends them (ISO timestamps). */
export function auditFieldsOf(row: AuditRow) {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    createuser: row.createuser,
    createdate: iso(row.createdate),
    updateuser: row.updateuser,
    updatedate: iso(row.updatedate),
    defuser: row.defuser,
    defdate: iso(row.defdate),
    changeuser: row.changeuser,
    changedate: iso(row.changedate),
  };
}

/** Values to set on an update by `username`. */
export function updatedBy(username: string) {
  const now = new Date();
  return { updateuser: username, updatedate: now, changeuser: username, changedate: now };
}
