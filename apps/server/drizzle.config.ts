import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Every module's and the platform's tables: a new module's *.schema.ts is found without a barrel.
  schema: ['./src/modules/*/*.schema.ts', './src/platform/**/*.schema.ts'],
  out: './src/db/migrations',
});
