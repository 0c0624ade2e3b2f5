import { z } from 'zod';
import { idSchema } from './db.ts';
import type { EntityCatalog } from './list.ts';

/**
 * Who may do what (spec §6 leaves roles open; the product defines them): permissions are named per
 * area and level, `<area>:read|write|admin`, and a higher level includes the lower ones. Each module
 * declares its areas: a ΔΕΥΑ separates the meter reader (readouts) from the billing clerk (billing)
 * and the cashier (payments), and the accountant (finance) from who transmits to AADE (mydata).
 */
export const permissionAreasByModule = {
  protocol: ['protocol'],
  traders: ['traders'],
  forms: ['forms'],
  water: ['consumers', 'readouts', 'billing'],
  payments: ['payments'],
  settlements: ['settlements'],
  finance: ['finance', 'mydata'],
  settings: ['settings'],
  users: ['users'],
} as const;
export type PermissionModule = keyof typeof permissionAreasByModule;
export type PermissionArea = (typeof permissionAreasByModule)[PermissionModule][number];
export const permissionAreas = Object.values(permissionAreasByModule).flat() as PermissionArea[];
export const permissionLevels = ['read', 'write', 'admin'] as const;
export type PermissionLevel = (typeof permissionLevels)[number];
export type Permission = `${PermissionArea}:${PermissionLevel}`;

export const allPermissions: Permission[] = permissionAreas.flatMap((area) =>
  permissionLevels.map((l) => `${area}:${l}` as Permission),
);

export const permissionSchema = z.enum(allPermissions as [Permission, ...Permission[]]);

/** Kind 1 (admin) manages the operators, groups and settings of its companies. */
export const ADMIN_KIND_PERMISSIONS: Permission[] = ['users:admin', 'settings:admin'];

/** Whether a scope (the effective permission list) grants `needed`, levels included. */
export function hasPermission(scope: readonly string[], needed: Permission): boolean {
  const [area, level] = needed.split(':') as [PermissionArea, PermissionLevel];
  const rank = permissionLevels.indexOf(level);
  return permissionLevels.slice(rank).some((l) => scope.includes(`${area}:${l}`));
}

/** The effective scope: the groups' permissions, what the kind brings, everything for a super admin. */
export function effectiveScope(granted: readonly string[], kind: number, superAdmin: boolean): Permission[] {
  if (superAdmin) return permissionAreas.map((area) => `${area}:admin` as Permission);
  const all = new Set<string>(granted);
  if (kind === 1) for (const p of ADMIN_KIND_PERMISSIONS) all.add(p);
  return allPermissions.filter((p) => all.has(p));
}

/** A user group (ομάδα χρηστών) of a company and the permissions it grants its members. */
export const userGroupSchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  permissions: z.array(permissionSchema),
  members: z.array(z.number().int()),
});
export type UserGroup = z.infer<typeof userGroupSchema>;

export const saveUserGroupSchema = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(500).nullable(),
  permissions: z.array(permissionSchema).max(allPermissions.length),
  members: z.array(idSchema).max(10_000),
});
export type SaveUserGroupRequest = z.infer<typeof saveUserGroupSchema>;

export const userGroupsCatalog = {
  entity: 'userGroups',
  titleKey: 'groups.title',
  defaultSort: { field: 'name', desc: false },
  fields: [
    {
      id: 'name',
      type: 'text',
      labelKey: 'groups.field.name',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      searchable: true,
      width: 220,
    },
    {
      id: 'description',
      type: 'text',
      labelKey: 'groups.field.description',
      sortable: true,
      filters: ['contains'],
      exportable: true,
      searchable: true,
      notes: true,
      width: 300,
    },
    {
      id: 'permissionCount',
      type: 'number',
      labelKey: 'groups.field.permissionCount',
      sortable: true,
      filters: ['eq', 'gte', 'lte'],
      exportable: true,
      width: 120,
    },
    {
      id: 'memberCount',
      type: 'number',
      labelKey: 'groups.field.memberCount',
      sortable: true,
      filters: ['eq', 'gte', 'lte'],
      exportable: true,
      width: 120,
    },
  ],
} as const satisfies EntityCatalog;

export const userGroupListItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  permissionCount: z.number().int(),
  memberCount: z.number().int(),
});
