import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { DEMO_OPERATORS } from './db/demo-operators.ts';
import { startupSummary } from './startup-summary.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'protocol-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const logFile = path.join(dir, 'protocol.log');

describe('the start-up summary', () => {
  it('on a first demo start: the address, every demo account with its password, the new admin password, data, log, myDATA', () => {
    const config = loadConfig({ DATA_DIR: dir, PORT: '3123', LOG_FILE: logFile });
    const lines = startupSummary(config, { created: true, adminPassword: 'Xy7-generated' });
    const text = lines.join('\n');
    // The line scripts and benches wait for (bench/support.ts) comes first.
    expect(lines[0]).toBe(`Protocol is running on http://127.0.0.1:3123 with embedded PGlite in ${dir}`);
    expect(text).toMatch(/^ {4}admin +Xy7-generated {2}\(generated now/m);
    for (const operator of DEMO_OPERATORS) {
      expect(text).toMatch(new RegExp(`^ {4}${operator.username} +Demo-2026! {2}${operator.firstname}`, 'm'));
    }
    expect(text).toContain('Demo data created');
    expect(text).toContain('local stand-in for AADE, never to the real AADE');
    expect(text).toContain(`Data: ${dir}`);
    expect(text).toContain(`Log: ${logFile}`);
    expect(lines.length).toBeLessThanOrEqual(15);
  });

  it('on a restart: no password to show, the demo is there from before', () => {
    const config = loadConfig({ DATA_DIR: dir, PORT: '3123' });
    const text = startupSummary(config, { created: false, adminPassword: undefined }).join('\n');
    expect(text).toMatch(/^ {4}admin +\(the password printed at its first start\)/m);
    expect(text).toContain('Demo-2026!');
    expect(text).toContain('created at the first start');
    expect(text).toContain('Log: here, at level info');
  });

  it('without the demo (PostgreSQL): no demo accounts, no myDATA stand-in, no data folder', () => {
    const config = loadConfig({
      DATA_DIR: dir,
      DATABASE_URL: 'postgres://u:p@db.example/protocol',
      ADMIN_PASSWORD: 'a-strong-one',
    });
    const text = startupSummary(config, { created: true, adminPassword: undefined }).join('\n');
    expect(text).toContain('with PostgreSQL (DATABASE_URL)');
    expect(text).toMatch(/^ {4}admin +\(ADMIN_PASSWORD\)/m);
    expect(text).not.toContain('Demo-2026!');
    expect(text).not.toContain('AADE');
    expect(text).not.toContain('Data:');
  });
});
