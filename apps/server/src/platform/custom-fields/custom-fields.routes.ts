import {
  type CustomFieldDefinition,
  type CustomFieldEntity,
  customFieldDefinitionSchema,
  type Permission,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf } from '../auth.ts';

type App = Parameters<FastifyPluginAsyncZod>[0];

/**
 * GET `url`: the company's custom fields of an entity with their choices, readable with the
 * entity's own permission (the settings screens that edit them need settings:read).
 */
export function customFieldsRoute(
  app: App,
  options: {
    url: string;
    entity: CustomFieldEntity;
    permission: Permission;
    tags: string[];
    load(companyId: number): Promise<CustomFieldDefinition[]>;
  },
): void {
  app.get(
    options.url,
    {
      config: { permission: options.permission },
      schema: {
        tags: options.tags,
        summary: `The company's custom fields of ${options.entity}, in order, with the choices of select fields`,
        response: { 200: z.array(customFieldDefinitionSchema) },
      },
    },
    async (request) => options.load(companyOf(request)),
  );
}
