import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.ts';
import type { Db, Tx } from '../db/client.ts';
import type { DashboardCard } from './dashboard.ts';
import type { JobHandler, JobQueue, JobSettled } from './jobs/jobs.ts';
import type { ListRegistry } from './list/registry.ts';
import type { Mailer } from './mail.ts';
import type { Operations } from './metrics.ts';
import type { SearchSource } from './search/search.ts';
import type { SecretBox } from './secrets.ts';
import type { SsoService } from './sso.ts';
import type { Storage } from './storage.ts';
import type { StorageColumn } from './storage-sweep.ts';
import type { TokenService } from './tokens.ts';

/** What every module plugin receives when it is registered: nothing is decorated globally. */
export interface ModuleOptions {
  db: Db;
  config: Config;
  tokens: TokenService;
  /** The running version (package.json), for the installation's answers. */
  version: string;
  /** Single sign-on with the configured OpenID provider; undefined without OIDC_ISSUER. */
  sso: SsoService | undefined;
  /** Where modules register their lists (`registerListRoute`) for the exports. */
  lists: ListRegistry;
  /** Encrypts secrets kept in the database. */
  secrets: SecretBox;
  /** Where uploaded files are kept (disk under STORAGE_DIR by default); objects are immutable. */
  storage: Storage;
  /** Outgoing e-mail (SMTP_URL); `configured` is false when the installation sends none. */
  mailer: Mailer;
  /** Runs every module's defaults for a company being created (in its transaction). */
  companyDefaults: CompanyDefaults;
  /** The columns of all modules that point at another module's rows (e.g. a merge moves them). */
  references: RowReferences;
  /** Background work: `jobs.enqueue(tx, { kind, key?, companyId, owner, payload })` (platform/jobs). */
  jobs: JobQueue;
  /** The dashboard cards of all modules (the dashboard module serves them). */
  dashboardCards: readonly DashboardCard[];
}

/** A module's defaults for a new company, run inside the transaction that creates it. */
export type CompanyDefaults = (tx: Tx, companyId: number, username: string) => Promise<void>;

/** A column that holds the id of a row another module owns. */
export interface RowReference {
  /** The owner of the rows pointed at, e.g. 'traders'. */
  target: string;
  /** The SQL table name, e.g. 'document_traders'. */
  table: string;
  /** Its column holding the id. */
  column: string;
}

export interface RowReferences {
  /** Every registered column pointing at `target`'s rows. */
  to(target: string): readonly RowReference[];
}

/** What the demo company's data needs: who it is and who works there. */
export interface DemoContext {
  companyId: number;
  admin: { userId: number; username: string };
  /** The demo operators (README), in order. */
  operators: number[];
}

/**
 * One business area of the server, declared in `modules/<name>/index.ts` and listed once in app.ts.
 * The plugin registers the module's routes (under /api) and lists; the rest is data the platform
 * gathers from every module before any plugin runs, so start-up seeding can use it without an app.
 */
export interface AppModule {
  name: string;
  plugin?: FastifyPluginAsync<ModuleOptions>;
  /** Rows every new company gets (document types, …), in the creating transaction. */
  companyDefaults?: CompanyDefaults;
  /** The demo company's data (SEED_DEMO), in the seeding transaction, after the company's defaults. */
  demoData?: (tx: Tx, demo: DemoContext) => Promise<void>;
  /** Columns of this module that point at other modules' rows. */
  references?: RowReference[];
  /** Columns of this module holding storage keys: the storage sweep keeps the objects they name. */
  storageColumns?: StorageColumn[];
  /**
   * The module's kinds of background job by name (unique across modules), e.g. `'search.reindex'`.
   * A handler may run again after a crash, so it must be safe to repeat (platform/jobs/jobs.ts).
   */
  jobs?: Record<string, JobHandler<never>>;
  /**
   * Long operations of the module by name, each the job kinds that carry it out, e.g.
   * `{ billing_run: [BILLING_RUN_JOB] }`: the metric protocol_operations_in_progress counts their
   * queued and running jobs (README "Metrics"). One name may gather several modules' kinds.
   */
  operations?: Operations;
  /** Told, in the transaction that ends it, that any job ended: succeeded, failed or cancelled. */
  onJobSettled?: JobSettled;
  /** Cards of GET /api/dashboard about this module's data (platform/dashboard.ts). */
  dashboardCards?: DashboardCard[];
  /** Lists of the global search (GET /api/search) this module answers, e.g. 'traderDTOList'. */
  search?: SearchSource[];
}

export function defineModule(module: AppModule): AppModule {
  return module;
}

/** The company defaults of all modules, in module order. */
export function companyDefaultsOf(modules: readonly AppModule[]): CompanyDefaults {
  return async (tx, companyId, username) => {
    for (const module of modules) await module.companyDefaults?.(tx, companyId, username);
  };
}

export function referencesOf(modules: readonly AppModule[]): RowReferences {
  const all = modules.flatMap((m) => m.references ?? []);
  return { to: (target) => all.filter((r) => r.target === target) };
}

/** Every module's operations, the kinds of one name gathered across modules. */
export function operationsOf(modules: readonly AppModule[]): Operations {
  const all: Record<string, string[]> = {};
  for (const module of modules)
    for (const [name, kinds] of Object.entries(module.operations ?? {}))
      all[name] = [...(all[name] ?? []), ...kinds];
  return all;
}
