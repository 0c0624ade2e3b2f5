import { createMigratedTemplate, type MigratedTemplate } from '@protocol/server/testing/template';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated embedded database each file's app starts from (see startE2E). */
    migratedTemplate: MigratedTemplate;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { template, remove } = await createMigratedTemplate(undefined);
  project.provide('migratedTemplate', template);
  return remove;
}
