import { type Send, seedDemoWaterService } from '@protocol/server/demo-water';
import type { E2E } from './harness.ts';

/** What main.ts does after listening when SEED_DEMO_WATER is on (the water service and the office in use), here over HTTP. */
export async function seedDemoOverHttp(e2e: E2E): Promise<void> {
  const send: Send = async ({ method, url, payload, headers }) => {
    const response = await fetch(`${e2e.baseUrl}${url}`, {
      method,
      headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      body: payload ? JSON.stringify(payload) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  await seedDemoWaterService(send);
}
