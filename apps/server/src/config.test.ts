import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, requireSharedSecrets } from './config.ts';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'protocol-config-'));

describe('configuration', () => {
  it('has the documented defaults', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: dir,
      databaseUrl: undefined,
      adminUsername: 'admin',
      adminPassword: undefined,
      seedDemo: true,
      oidc: undefined,
    });
    // The generated secret is kept, so tokens survive a restart.
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dir, 'secrets', 'jwt-secret'), 'utf8')).toBe(config.jwtSecret);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(config.jwtSecret);
  });

  it('serves no metrics by default, logs requests over a second, and reads the metrics settings', () => {
    expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({
      metrics: { port: undefined, host: '127.0.0.1', token: undefined },
      slowRequestMs: 1000,
      shutdownDelayMs: 0,
    });
    expect(
      loadConfig({
        DATA_DIR: dataDir(),
        METRICS_PORT: '9464',
        METRICS_HOST: '10.0.0.5',
        METRICS_TOKEN: 'a-scrape-token-of-32-characters!',
        SLOW_REQUEST_MS: '0',
        SHUTDOWN_DELAY_SECONDS: '2.5',
      }),
    ).toMatchObject({
      metrics: { port: 9464, host: '10.0.0.5', token: 'a-scrape-token-of-32-characters!' },
      slowRequestMs: 0,
      shutdownDelayMs: 2500,
    });
    for (const [setting, value] of [
      ['METRICS_PORT', '0'],
      ['METRICS_PORT', 'nine'],
      ['METRICS_TOKEN', 'short'],
      ['SLOW_REQUEST_MS', '-1'],
      ['SHUTDOWN_DELAY_SECONDS', '301'],
    ] as const) {
      expect(() => loadConfig({ DATA_DIR: dataDir(), [setting]: value })).toThrow(
        expect.objectContaining({ setting }),
      );
    }
  });

  it('asks the official AADE registry unless AADE_REGISTRY_URL says otherwise', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).aadeRegistryUrl).toBe(
      'https://www1.gsis.gr/wsaade/RgWsPublic2/RgWsPublic2',
    );
    expect(loadConfig({ DATA_DIR: dataDir(), AADE_REGISTRY_URL: ' ' }).aadeRegistryUrl).toBe(
      'https://www1.gsis.gr/wsaade/RgWsPublic2/RgWsPublic2',
    );
    expect(
      loadConfig({ DATA_DIR: dataDir(), AADE_REGISTRY_URL: 'http://127.0.0.1:8080/rg' }).aadeRegistryUrl,
    ).toBe('http://127.0.0.1:8080/rg');
    expect(() => loadConfig({ DATA_DIR: dataDir(), AADE_REGISTRY_URL: 'not a url' })).toThrow(ConfigError);
  });

  it('turns demo data off by default on an external PostgreSQL', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'postgres://u:p@db.example/protocol' });
    expect(config.seedDemo).toBe(false);
    expect(
      loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'postgres://x/y', SEED_DEMO: 'true' }).seedDemo,
    ).toBe(true);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ SEED_DEMO: 'maybe' }, 'SEED_DEMO'],
    [{ ADMIN_PASSWORD: '123' }, 'ADMIN_PASSWORD'],
    [{ OIDC_ISSUER: 'not a url', OIDC_CLIENT_ID: 'x' }, 'OIDC_ISSUER'],
    [{ OIDC_ISSUER: 'https://id.example' }, 'OIDC_CLIENT_ID'],
    [{ SMTP_URL: 'mail.example.gr:587', MAIL_FROM: 'p@example.gr' }, 'SMTP_URL'],
    [{ SMTP_URL: 'smtp://mail.example.gr:587' }, 'MAIL_FROM'],
  ])('refuses %o naming %s', (env, name) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(`Invalid setting ${name}`);
  });

  it('start-up stops with a message that names the bad setting', () => {
    const main = path.join(import.meta.dirname, 'main.ts');
    const result = spawnSync(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, DATA_DIR: dataDir(), PORT: 'not-a-port', DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Protocol cannot start. Invalid setting PORT');
  });

  it('on PostgreSQL, outside development, needs the secrets every node shares', () => {
    const secrets = { JWT_SECRET: 'j'.repeat(32), CREDENTIALS_KEY: 'c'.repeat(32) };
    const postgres = { DATABASE_URL: 'postgres://u:p@db.example/protocol' };
    // The demo (PGlite) and development keep generating their own.
    expect(() => requireSharedSecrets({})).not.toThrow();
    expect(() => requireSharedSecrets({ NODE_ENV: 'production' })).not.toThrow();
    expect(() => requireSharedSecrets({ ...postgres, NODE_ENV: 'development' })).not.toThrow();
    expect(() => requireSharedSecrets({ ...postgres, NODE_ENV: 'test' })).not.toThrow();
    expect(() => requireSharedSecrets({ ...postgres, ...secrets })).not.toThrow();
    expect(() => requireSharedSecrets(postgres)).toThrow('Invalid setting JWT_SECRET');
    expect(() => requireSharedSecrets({ ...postgres, NODE_ENV: 'production' })).toThrow(
      'Invalid setting JWT_SECRET',
    );
    expect(() => requireSharedSecrets({ ...postgres, JWT_SECRET: secrets.JWT_SECRET })).toThrow(
      'Invalid setting CREDENTIALS_KEY',
    );
  });

  it('a server on PostgreSQL without them does not start, and says what to set', () => {
    const main = path.join(import.meta.dirname, 'main.ts');
    const { NODE_ENV: _, JWT_SECRET: __, CREDENTIALS_KEY: ___, ...inherited } = process.env;
    const result = spawnSync(process.execPath, ['--import', 'tsx', main], {
      // Refused before any connection: nothing listens there.
      env: { ...inherited, DATA_DIR: dataDir(), PORT: '0', DATABASE_URL: 'postgres://127.0.0.1:9/none' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Protocol cannot start. Invalid setting JWT_SECRET');
    expect(result.stderr).toContain('the same on every node');
  });
});
