export * from './account.ts';
export * from './audit.ts';
export * from './errors.ts';
export * from './installation.ts';
export * from './settings.ts';
export * from './users.ts';
