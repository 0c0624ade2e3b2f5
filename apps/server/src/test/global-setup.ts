import type { TestProject } from 'vitest/node';
import { createTestTemplates, type TestTemplates } from './template.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The databases each test app starts from (see startTestApp). */
    testTemplates: TestTemplates;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { templates, remove } = await createTestTemplates(process.env.TEST_DATABASE_URL);
  project.provide('testTemplates', templates);
  return remove;
}
