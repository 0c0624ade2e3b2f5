import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@protocol/server/testing/ports';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'protocol-start-'));
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Issue 32 item 9: `npm start` on a first start says what a newcomer needs in one short block (the
 * address, the demo accounts and their password, the administrator's new password, where the data
 * and the log are, myDATA's stand-in) and keeps the build's file list and the JSON logs in the log
 * file. Reuses the web app the e2e run built (start.mjs builds only when the sources are newer).
 */
describe('npm start', () => {
  it('prints a short summary on a first start; the logs go to DATA_DIR/protocol.log', async () => {
    // As from a person's shell: none of the test run's own settings (vitest's NODE_ENV=test would make
    // a rebuild, when the sources are newer, a development build).
    const {
      LOG_LEVEL: _,
      LOG_FILE: __,
      DATABASE_URL: ___,
      TEST_DATABASE_URL: ____,
      ADMIN_PASSWORD: _____,
      NODE_ENV: ______,
      ...inherited
    } = process.env;
    const port = await freePort();
    child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env: { ...inherited, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const running = child;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no summary within 150 s:\n${output}`)), 150_000);
      running.stdout?.on('data', () => {
        // The summary's last line names the log.
        if (/^ {2}Log: .*$/m.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      });
      running.once('exit', (code) => reject(new Error(`npm start ended (${code}):\n${output}`)));
    });
    const lines = output.trimEnd().split('\n');
    expect(lines.length, output).toBeLessThanOrEqual(25);
    expect(output).toContain(`Protocol is running on http://127.0.0.1:${port}`);
    expect(output).toMatch(/^ {4}admin +\S+ {2}\(generated now/m);
    expect(output).toMatch(/^ {4}gnikolaou +Demo-2026!/m);
    expect(output).toContain('Demo data created');
    expect(output).toContain('local stand-in for AADE');
    const logFile = path.join(dataDir, 'protocol.log');
    expect(output).toContain(`Log: ${logFile}`);
    // No JSON log line on the console; they are in the file.
    expect(output).not.toMatch(/^\{"level"/m);
    expect(existsSync(logFile)).toBe(true);
    await expect.poll(() => readFileSync(logFile, 'utf8')).toMatch(/"msg":"Server listening at/);
  }, 180_000);
});
