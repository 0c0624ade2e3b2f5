#!/usr/bin/env node
// Counts where the company is still carried by hand (issue 30): the conditions and checks a
// forgotten copy of which would leak another company's rows. `node scripts/company-scoping.mjs`
// prints the counts; `--json` prints them for a test. apps/server's company-scoping.test.ts keeps
// each count from growing: a new module scopes through the platform or the count tells.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

function sources(dir, extensions) {
  const found = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (!extensions.some((ext) => file.endsWith(ext))) continue;
    // Tests and the tables' own definitions name the column on purpose.
    if (/\.test\.tsx?$|\.schema\.ts$|[\\/]test[\\/]/.test(file)) continue;
    found.push(file);
  }
  return found;
}

function count(files, pattern) {
  let total = 0;
  for (const file of files) total += readFileSync(file, 'utf8').match(pattern)?.length ?? 0;
  return total;
}

const server = sources('apps/server/src', ['.ts']);
const web = sources('apps/web/src', ['.ts', '.tsx']);

export const counts = {
  /** `eq(table.companyId, …)` written in a service or route: the condition a scoped query would add. */
  handWrittenCompanyConditions: count(server, /\beq\(\s*[\w.]+\.companyId\s*,/g),
  /** The second style: a record checked against any of the operator's companies, not the one in use. */
  anyOfMyCompaniesChecks: count(server, /\bcompanyIds\.includes\(/g),
  /** Routes reading the company in use to hand it to a service (a request context would carry it). */
  companyHandedToServices: count(server, /\bcompanyOf\(request\)/g),
  /** Web call sites that put the company into an address by hand (lib/api.ts sends X-Company-Id). */
  webCompanyInAddress: count(web, /\b(withCompany|useCompanyPath)\(/g),
};

if (process.argv[1] === import.meta.filename) {
  if (process.argv.includes('--json')) console.log(JSON.stringify(counts));
  else for (const [name, value] of Object.entries(counts)) console.log(`${name.padEnd(32)} ${value}`);
}
