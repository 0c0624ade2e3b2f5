import { hasPermission, type Permission } from '@protocol/contracts';
import type { SQL } from 'drizzle-orm';
import type { Principal } from '../auth.ts';
import type { EntityList } from './list.ts';

/**
 * What reading a list needs: a permission, any of several, or only being signed in ('signedIn') for
 * a list of the asker's own rows, whose scope alone says which they are.
 */
export type ListPermission = Permission | readonly Permission[] | 'signedIn';

/** A list the exports can run: its address, its engine and who may see which rows. */
export interface RegisteredList {
  /** The list's search address, e.g. '/api/users/search'. */
  path: string;
  /** Metadata key of the export lists (spec §7 getForEntity?entityName=…). */
  entityName: string;
  // biome-ignore lint/suspicious/noExplicitAny: each list has its own row type
  list: EntityList<any>;
  /** What reading the list needs (several: any of them): an export of it needs the same. */
  permission: ListPermission;
  /**
   * The rows the operator may see and the company in use (its custom fields), given the company the
   * request resolved (auth.ts `resolveCompany`); 404 on a company list for an operator of no company.
   */
  access(
    principal: Principal,
    companyId: number | null,
  ): { scope: SQL | undefined; companyId: number | undefined };
}

/** Whether a scope grants what a list needs. */
export function mayRead(scope: readonly string[], needed: ListPermission): boolean {
  if (needed === 'signedIn') return true;
  return [needed].flat().some((permission) => hasPermission(scope, permission));
}

/** The lists of all modules, so an export runs exactly the query of the screen it came from. */
export class ListRegistry {
  private readonly byPath = new Map<string, RegisteredList>();

  register(entry: RegisteredList): void {
    if (this.byPath.has(entry.path)) throw new Error(`List ${entry.path} is registered twice`);
    this.byPath.set(entry.path, entry);
  }

  find(path: string): RegisteredList | undefined {
    return this.byPath.get(path);
  }

  findByEntity(entityName: string): RegisteredList | undefined {
    return [...this.byPath.values()].find((entry) => entry.entityName === entityName);
  }
}
