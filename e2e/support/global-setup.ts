import { createTestTemplates, type TestTemplates } from '@protocol/server/testing/template';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The embedded databases each file's app starts from (see startE2E). */
    testTemplates: TestTemplates;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { templates, remove } = await createTestTemplates(process.env.TEST_DATABASE_URL);
  project.provide('testTemplates', templates);
  return remove;
}
