import type { Permission } from '@protocol/contracts';
import type { SQL } from 'drizzle-orm';
import type { Principal } from '../auth.ts';
import type { EntityList } from './list.ts';
import type { ListQuerystring } from './query.ts';

/** A list the exports can run: its address, its engine and who may see which rows. */
export interface RegisteredList {
  /** The list's search address, e.g. '/api/users/search'. */
  path: string;
  /** Metadata key of the export lists (spec §7 getForEntity?entityName=…). */
  entityName: string;
  // biome-ignore lint/suspicious/noExplicitAny: each list has its own row type
  list: EntityList<any>;
  /** What reading the list needs: an export of it needs the same. */
  permission: Permission;
  /** The rows the operator may see; company lists read `companyid` from the query. */
  scope(principal: Principal, query: ListQuerystring): SQL | undefined;
}

/** The lists of all modules, so an export runs exactly the query of the screen it came from. */
export class ListRegistry {
  private readonly byPath = new Map<string, RegisteredList>();

  register(entry: RegisteredList): void {
    this.byPath.set(entry.path, entry);
  }

  find(path: string): RegisteredList | undefined {
    return this.byPath.get(path);
  }

  findByEntity(entityName: string): RegisteredList | undefined {
    return [...this.byPath.values()].find((entry) => entry.entityName === entityName);
  }
}
