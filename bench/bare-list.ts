// The baseline of a list bench, as a process of its own (like the server it is compared with): a bare
// Fastify + node-postgres handler that runs a list's recorded SQL statements side by side, as the
// list engine does, and answers the page and the count. Started by `startBareList` (support.ts).
//   node --import tsx bare-list.ts <database url> <statements.json> <port>
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';

const [url, file, port] = process.argv.slice(2);
const statements = JSON.parse(readFileSync(String(file), 'utf8')) as { query: string; params: unknown[] }[];
const pool = new pg.Pool({ connectionString: url, max: 10 });
const bare = Fastify({ logger: false });
bare.get('/list', async () => {
  const results = await Promise.all(statements.map((s) => pool.query(s.query, s.params)));
  return { content: results[0]?.rows, totalElements: results.at(-1)?.rows[0] };
});
await bare.listen({ port: Number(port), host: '127.0.0.1' });
console.log('bare list listening');
process.once('SIGTERM', async () => {
  await bare.close();
  await pool.end();
  process.exit(0);
});
