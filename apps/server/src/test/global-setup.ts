import type { TestProject } from 'vitest/node';
import { createMigratedTemplate, type MigratedTemplate } from './template.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated database each test app starts from (see startTestApp). */
    migratedTemplate: MigratedTemplate;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { template, remove } = await createMigratedTemplate(process.env.TEST_DATABASE_URL);
  project.provide('migratedTemplate', template);
  return remove;
}
