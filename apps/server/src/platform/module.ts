import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { ListRegistry } from './list/registry.ts';
import type { Mailer } from './mail.ts';
import type { SecretBox } from './secrets.ts';
import type { Storage } from './storage.ts';
import type { TokenService } from './tokens.ts';

/** What every module plugin receives when it is registered: nothing is decorated globally. */
export interface ModuleOptions {
  db: Db;
  config: Config;
  tokens: TokenService;
  /** Where modules register their lists for the exports. */
  lists: ListRegistry;
  /** Encrypts secrets kept in the database. */
  secrets: SecretBox;
  /** Where uploaded files are kept (disk under STORAGE_DIR by default); objects are immutable. */
  storage: Storage;
  /** Outgoing e-mail (SMTP_URL); `configured` is false when the installation sends none. */
  mailer: Mailer;
}
