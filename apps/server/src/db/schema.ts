// The schema barrel: every table of the platform and of each module, for Drizzle and drizzle-kit.
export * from '../modules/companies/companies.schema.ts';
export * from '../modules/notifications/notifications.schema.ts';
export * from '../modules/parametrics/parametrics.schema.ts';
export * from '../modules/protocol/protocol.schema.ts';
export * from '../modules/settings/settings.schema.ts';
export * from '../modules/settings/settings-tables.schema.ts';
export * from '../modules/traders/traders.schema.ts';
export * from '../modules/users/groups.schema.ts';
export * from '../modules/users/users.schema.ts';
export * from '../platform/audit.schema.ts';
export * from '../platform/views/views.schema.ts';
