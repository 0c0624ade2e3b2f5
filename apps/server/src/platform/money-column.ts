import { numeric } from 'drizzle-orm/pg-core';

/** An amount of money in euro: numeric(14, 2), read and written as a decimal string, never a float. */
export const moneyColumn = (name: string) => numeric(name, { precision: 14, scale: 2 });
